"""Server CPU per request: how many microseconds of CPU one `regintel serve` worker spends on a request.

Wall-clock throughput on a shared machine says as much about the neighbours as about the server; the
CPU time the server process itself used does not. This starts the real server (`regintel serve`,
1 uvicorn worker, 127.0.0.1, a throwaway SQLite database filled by `regintel demo`, a `bench` plan and
key so that every rate-limit and quota counter is checked and incremented but never answers 429),
then for each path sends a fixed number of requests (httpx's async client, 8 keep-alive connections) and
reads the server's CPU time (utime + stime of all its threads, /proc/<pid>/stat) before and after.
With `--wrk-seconds N`, wrk then loads each path for N seconds for a (wall-clock) req/s figure.
Prints a table (median of the rounds) and saves JSON to bench/results/request_cpu-<timestamp>.json.

    .venv/bin/python bench/bench_request_cpu.py [--requests 5000] [--rounds 3] \
        [--paths lookup,/api/v1/me] [--wrk-seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from statistics import median
from typing import Any

import httpx
from sqlalchemy import create_engine, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_foundation as foundation  # noqa: E402

BENCH = foundation.BENCH
ROOT = foundation.ROOT
# `lookup` stands for `/api/v1/companies/lookup?id=…&country=…` of a company the demo data loaded, `lei`
# for `/api/v1/companies/by-lei?lei=…` of one with an LEI.
DEFAULT_PATHS = "lookup,/api/v1/me,/api/v1/code-lists/nace/62.01"
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the process (all its threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime: fields 14 and 15 of proc(5)


def demo_paths(database_url: str) -> dict[str, str]:
    """The `lookup` and `lei` paths of companies of the demo data."""
    engine = create_engine(database_url)
    with engine.connect() as conn:
        country, national_id = conn.execute(
            text("SELECT country, national_id FROM companies ORDER BY id LIMIT 1")
        ).one()
        lei = conn.execute(
            text("SELECT lei FROM companies WHERE lei IS NOT NULL ORDER BY id LIMIT 1")
        ).scalar()
    engine.dispose()
    return {
        "lookup": f"/api/v1/companies/lookup?id={national_id}&country={country.lower()}",
        "lei": f"/api/v1/companies/by-lei?lei={lei}",
    }


def send(url: str, headers: dict[str, str], count: int, connections: int) -> dict[str, Any]:
    """Send exactly `count` requests over `connections` keep-alive connections (httpx); a fixed amount
    of work, however busy the machine is (the client's own CPU is not counted)."""
    statuses: list[int] = []
    shares = [count // connections + (1 if i < count % connections else 0) for i in range(connections)]

    async def worker(client: httpx.AsyncClient, n: int) -> None:
        for _ in range(n):
            statuses.append((await client.get(url, headers=headers)).status_code)

    async def run() -> None:
        limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
        async with httpx.AsyncClient(limits=limits, timeout=30) as client:
            await asyncio.gather(*(worker(client, n) for n in shares if n))

    started = time.perf_counter()
    asyncio.run(run())
    seconds = time.perf_counter() - started
    return {
        "requests": len(statuses),
        "non_200": sum(1 for s in statuses if s != 200),
        "seconds": round(seconds, 3),
    }


def wrk_rate(url: str, headers: dict[str, str], seconds: int, connections: int) -> dict[str, Any]:
    """Secondary figure: wrk's requests per second over `seconds` (1 thread, `connections` connections)."""
    cmd = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", str(BENCH / "wrk_report.lua")]
    cmd += [arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]
    out = subprocess.run(cmd + [url], check=True, capture_output=True, text=True).stdout
    raw = json.loads(next(line for line in out.splitlines() if line.startswith("WRKJSON "))[8:])
    return {
        "rps": round(raw["requests"] / (raw["duration_us"] / 1e6), 1),
        "errors": sum(raw["errors"].values()),
        "p50_ms": raw["latency_us"]["p50"] / 1000,
        "p99_ms": raw["latency_us"]["p99"] / 1000,
        "load": os.getloadavg()[0],
    }


def measure(pid: int, url: str, headers: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """One round: warm up, then CPU before and after a fixed number of requests."""
    send(url, headers, args.warmup, args.connections)
    time.sleep(0.3)
    before = cpu_seconds(pid)
    result = send(url, headers, args.requests, args.connections)
    time.sleep(0.1)
    used = cpu_seconds(pid) - before
    return result | {
        "cpu_s": round(used, 3),
        "cpu_us_per_request": round(used / result["requests"] * 1e6, 1),
        "load": os.getloadavg()[0],
    }


def serve(
    stack: ExitStack, args: argparse.Namespace, workdir: Path
) -> tuple[subprocess.Popen[bytes], str, str, dict[str, str]]:
    """Fill a throwaway database with the demo data, create a key, start the server."""
    port = foundation.free_port()
    base = f"http://127.0.0.1:{port}"
    database_url = args.database_url or f"sqlite:///{workdir / 'bench.db'}"
    env = foundation.server_env(workdir, database_url, base) | {"REGINTEL_LOG_LEVEL": args.log_level}
    if args.rate_limit_storage:
        env["REGINTEL_RATE_LIMIT_STORAGE"] = args.rate_limit_storage
    subprocess.run(
        [sys.executable, "-m", "regintel", "demo"], env=env, cwd=ROOT, check=True, capture_output=True
    )
    key = foundation.create_key(env)
    cmd = [
        sys.executable,
        "-m",
        "regintel",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
        "--log-level",
        args.log_level.lower(),
    ]
    log = workdir / "regintel.log"
    proc = foundation.start(cmd, env, f"{base}/api/v1/public/status", log)
    stack.callback(foundation.stop, proc)
    return proc, base, key, demo_paths(database_url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--paths",
        default=DEFAULT_PATHS,
        help="comma-separated GET paths; `lookup`, `lei` = the "
        "exact lookup and the LEI lookup of a demo company",
    )
    parser.add_argument("--requests", type=int, default=5000, help="measured requests per path and round")
    parser.add_argument("--warmup", type=int, default=500, help="requests before each measurement")
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--wrk-seconds",
        type=int,
        default=0,
        help="then also wrk's req/s over this many "
        "seconds per path (a secondary, wall-clock figure; 0: skip)",
    )
    parser.add_argument(
        "--log-level", default="WARNING", help="server log level (INFO writes the access log)"
    )
    parser.add_argument("--rate-limit-storage", help="REGINTEL_RATE_LIMIT_STORAGE (default: the SQLite file)")
    parser.add_argument(
        "--database-url", help="a database to fill with the demo data instead of a fresh file"
    )
    parser.add_argument("--label", default="", help="a note saved with the results (e.g. before/after)")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    if not (
        0 < args.requests <= 200_000
        and 0 <= args.warmup <= 20_000
        and 0 < args.connections <= 256
        and 0 < args.rounds <= 10
        and 0 <= args.wrk_seconds <= 30
    ):
        parser.error(
            "requests in (0, 200000], warmup in [0, 20000], connections in (0, 256], rounds in (0, 10], "
            "wrk seconds in [0, 30]"
        )
    load_before = os.getloadavg()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="regintel-cpu-") as tmp, ExitStack() as stack:
        proc, base, key, demo = serve(stack, args, Path(tmp))
        targets = []
        for path in (p.strip() for p in args.paths.split(",") if p.strip()):
            path = demo.get(path, path)
            keyed = not path.startswith(("/api/v1/public/", "/api/v1/code-lists/"))
            headers = {"Authorization": f"Bearer {key}"} if keyed else {}
            resp = httpx.get(base + path, headers=headers, timeout=10)
            if resp.status_code != 200:
                raise SystemExit(f"preflight GET {path} answered {resp.status_code}: {resp.text[:300]}")
            targets.append(
                {"path": path, "auth": "key" if keyed else "public", "headers": headers, "rounds": []}
            )
        for number in range(args.rounds):
            for target in targets if number % 2 == 0 else list(reversed(targets)):
                target["rounds"].append(measure(proc.pid, base + target["path"], target["headers"], args))
        if args.wrk_seconds and shutil.which("wrk"):
            for target in targets:
                target["wrk"] = wrk_rate(
                    base + target["path"], target["headers"], args.wrk_seconds, args.connections
                )
    for target in targets:
        rounds = target.pop("rounds")
        rows.append(
            {
                "path": target["path"],
                "auth": target["auth"],
                "cpu_us_per_request": median(r["cpu_us_per_request"] for r in rounds),
                "non_200": sum(r["non_200"] for r in rounds),
                "wrk": target.get("wrk"),
                "rounds": rounds,
            }
        )
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    print(
        f"request_cpu {stamp}: {args.requests} requests per path and round, {args.connections} connections, "
        f"median of {args.rounds} rounds, 1 uvicorn worker, log level {args.log_level} {args.label}"
    )
    print(
        f"{'path':<58} {'auth':<6} {'CPU µs/req':>10} {'rounds µs':>18} {'non-200':>7} {'wrk req/s':>9} "
        f"{'load':>5}"
    )
    for r in rows:
        spread = "/".join(f"{x['cpu_us_per_request']:.0f}" for x in r["rounds"])
        wrk = f"{r['wrk']['rps']:>9,.0f} {r['wrk']['load']:>5.2f}" if r["wrk"] else f"{'-':>9} {'-':>5}"
        print(
            f"{r['path'][:58]:<58} {r['auth']:<6} {r['cpu_us_per_request']:>10,.0f} {spread:>18} "
            f"{r['non_200']:>7} {wrk}"
        )
    load_after = os.getloadavg()
    print(f"load average before {load_before}, after {load_after}")
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"request_cpu-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "benchmark": "request_cpu",
                "at": stamp,
                "label": args.label,
                "environment": foundation.environment("wrk" if any(r["wrk"] for r in rows) else "httpx", args)
                | {"load_before": load_before, "load_after": load_after},
                "parameters": {
                    "requests": args.requests,
                    "warmup": args.warmup,
                    "connections": args.connections,
                    "wrk_seconds": args.wrk_seconds,
                    "rounds": args.rounds,
                    "log_level": args.log_level,
                    "rate_limit_storage": args.rate_limit_storage or "auto (SQLite counter file)",
                },
                "results": rows,
            },
            indent=2,
            default=str,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"saved {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
