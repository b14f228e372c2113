"""Foundation benchmark: throughput and latency of regintel's cheapest operations next to hello-world.

Starts the real server (`regintel serve`, uvicorn, 1 worker, 127.0.0.1, a free port, a fresh SQLite
database in a temporary folder, rate limits and quotas on with a plan whose limits are not reached),
then loads it from a separate process (wrk when installed, else bench/loadgen.py with httpx), and
does the same for two hello-world apps served by uvicorn the same way. Prints a table and saves
JSON to bench/results/foundation-<timestamp>.json.

    .venv/bin/python bench/bench_foundation.py [--duration 10] [--connections 16]
        [--paths /api/v1/me,/api/v1/code-lists/nace/62.01]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from statistics import median
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
DEFAULT_PATHS = "/api/v1/me,/api/v1/code-lists/nace/62.01"
FALLBACK_PATH = "/api/v1/public/status"
# Limits stay on (the counters are part of the cost), but high enough never to answer 429.
PLANS = {"bench": {"title": "Bench", "rate_per_minute": 1_000_000_000, "monthly_quota": 1_000_000_000_000}}
console = Console(width=None if sys.stdout.isatty() else 160)  # a saved log keeps the table readable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(cmd: list[str], env: dict[str, str], ready_url: str, log: Path) -> subprocess.Popen[bytes]:
    """Start a server process (output to `log`, never to a pipe nobody reads) and wait until it answers."""
    with log.open("wb") as sink:
        proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited early: {' '.join(cmd)}\n{log.read_text(errors='replace')}")
        try:
            httpx.get(ready_url, timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    stop(proc)
    raise SystemExit(f"server did not come up: {' '.join(cmd)}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def server_env(workdir: Path, database_url: str, base_url: str) -> dict[str, str]:
    return os.environ | {
        "REGINTEL_DATABASE_URL": database_url,
        "REGINTEL_DATA_DIR": str(workdir / "data"),
        "REGINTEL_PLANS": json.dumps(PLANS),
        "REGINTEL_DEFAULT_PLAN": "bench",
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": "1000000000",
        "REGINTEL_BASE_URL": base_url,
        "REGINTEL_LOG_LEVEL": "WARNING",
    }


def create_key(env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "regintel", "keys", "create", "--name", "bench", "--plan", "bench"],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return out.strip().splitlines()[-1]


def load(tool: str, url: str, headers: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """Run the load generator in its own process; returns requests, rps, errors, latency_ms."""
    if tool == "wrk":
        return _wrk(url, headers, args)
    cmd = [
        sys.executable,
        str(BENCH / "loadgen.py"),
        "--url",
        url,
        "--connections",
        str(args.connections),
        "--duration",
        str(args.duration),
        "--warmup",
        str(args.warmup),
    ]
    cmd += [arg for name, value in headers.items() for arg in ("--header", f"{name}: {value}")]
    result = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    result["errors"] = result["requests"] - result["ok"]
    return result


def _wrk(url: str, headers: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    base = ["wrk", "-t1", f"-c{args.connections}", "--timeout", "10s"]
    base += [arg for name, value in headers.items() for arg in ("-H", f"{name}: {value}")]
    if args.warmup:
        subprocess.run(base + [f"-d{args.warmup}s", url], check=True, capture_output=True)
    out = subprocess.run(
        base + [f"-d{args.duration}s", "-s", str(BENCH / "wrk_report.lua"), url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    raw = json.loads(next(line for line in out.splitlines() if line.startswith("WRKJSON "))[8:])
    seconds = raw["duration_us"] / 1e6
    return {
        "url": url,
        "connections": args.connections,
        "duration_s": round(seconds, 3),
        "requests": raw["requests"],
        "errors": sum(raw["errors"].values()),
        "wrk_errors": raw["errors"],
        "rps": round(raw["requests"] / seconds, 1),
        "latency_ms": {k: v / 1000 for k, v in raw["latency_us"].items()},
    }


def pick_paths(base: str, wanted: list[str], key: str) -> tuple[list[dict[str, Any]], list[str]]:
    """Check each path against the running server: keyed or public, and present at all."""
    doc = httpx.get(f"{base}/api/v1/public/openapi.json", timeout=10).json()
    notes, targets = [], []
    for path in wanted:
        op = _find_operation(doc, path)
        if op is None:
            notes.append(f"{path} is not served by this build; measured {FALLBACK_PATH} instead")
            path, op = FALLBACK_PATH, _find_operation(doc, FALLBACK_PATH)
        keyed = bool(op and any(op.get("security", [])))
        headers = {"Authorization": f"Bearer {key}"} if keyed else {}
        resp = httpx.get(base + path, headers=headers, timeout=10)
        if resp.status_code != 200:
            raise SystemExit(f"preflight GET {path} answered {resp.status_code}: {resp.text[:300]}")
        targets.append({"path": path, "auth": "key" if keyed else "public", "headers": headers})
    return targets, notes


def _find_operation(doc: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The GET operation whose path template matches `path` (placeholders match one segment)."""
    for template, item in doc.get("paths", {}).items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if "get" in item and re.match(pattern, path):
            return item["get"]  # type: ignore[no-any-return]
    return None


def serve_hellos(stack: ExitStack, workdir: Path) -> list[dict[str, Any]]:
    """Start both hello-world baselines; they stop when `stack` closes."""
    targets = []
    for name, app in (
        ("hello (raw ASGI)", "hello_app:app"),
        ("hello (Starlette)", "hello_app:starlette_app"),
    ):
        port = free_port()
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "--app-dir",
            str(BENCH),
            app,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--log-level",
            "warning",
            "--no-proxy-headers",
        ]
        stack.callback(
            stop, start(cmd, dict(os.environ), f"http://127.0.0.1:{port}/", workdir / f"{app}.log")
        )
        targets.append(
            {"target": name, "path": "/", "auth": "public", "url": f"http://127.0.0.1:{port}/", "headers": {}}
        )
    return targets


def serve_regintel(
    stack: ExitStack, args: argparse.Namespace, workdir: Path
) -> tuple[list[dict[str, Any]], list[str]]:
    """Start `regintel serve` on a fresh database with a bench key; returns its targets and notes."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database_url = args.database_url or f"sqlite:///{workdir / 'bench.db'}"
    env = server_env(workdir, database_url, base)
    key = create_key(env)
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
        "warning",
    ]
    stack.callback(stop, start(cmd, env, f"{base}/api/v1/public/status", workdir / "regintel.log"))
    targets, notes = pick_paths(base, args.paths, key)
    return [{"target": "regintel", "url": base + t["path"], **t} for t in targets], notes


def run_rounds(targets: list[dict[str, Any]], tool: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Load every target once per round; the order alternates so no target always follows the same one."""
    for target in targets:
        target["rounds"] = []
    for number in range(args.rounds):
        for target in targets if number % 2 == 0 else list(reversed(targets)):
            target["rounds"].append(load(tool, target["url"], target["headers"], args))
    return [summarise(t) for t in targets]


def summarise(target: dict[str, Any]) -> dict[str, Any]:
    """One row: the median over rounds of each figure (robust to one round disturbed by other load)."""
    rounds = target["rounds"]
    latency = {k: median(r["latency_ms"][k] for r in rounds) for k in ("p50", "p95", "p99", "max", "mean")}
    return {
        "target": target["target"],
        "path": target["path"],
        "auth": target["auth"],
        "rps": median(r["rps"] for r in rounds),
        "latency_ms": latency,
        "errors": sum(r["errors"] for r in rounds),
        "requests": sum(r["requests"] for r in rounds),
        "rounds": rounds,
    }


def print_table(rows: list[dict[str, Any]], hello_rps: float, title: str) -> None:
    table = Table(title=title)
    for column in (
        "target",
        "path",
        "auth",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "errors",
        "req/s vs hello",
    ):
        table.add_column(column, justify="left" if column in ("target", "path", "auth") else "right")
    for r in rows:
        lat = r["latency_ms"]
        table.add_row(
            r["target"],
            r["path"],
            r["auth"],
            f"{r['rps']:,.0f}",
            f"{lat['p50']:.2f}",
            f"{lat['p95']:.2f}",
            f"{lat['p99']:.2f}",
            str(r["errors"]),
            f"{r['rps'] / hello_rps:.3f}",
        )
    console.print(table)


def environment(tool: str, args: argparse.Namespace) -> dict[str, Any]:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    tool_version = "bench/loadgen.py (httpx " + version("httpx") + ")"
    if tool == "wrk":
        tool_version = subprocess.run(["wrk", "--version"], capture_output=True, text=True).stdout.split("[")[
            0
        ]
    return {
        "commit": commit.stdout.strip(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "niceness": os.nice(0),
        "load_tool": tool_version.strip(),
        "packages": {
            p: version(p) for p in ("fastapi", "starlette", "uvicorn", "sqlalchemy", "uvloop", "httptools")
        },
        "database": args.database_url or "fresh SQLite file (WAL) in a temporary folder",
        "rate_limit_storage": os.environ.get("REGINTEL_RATE_LIMIT_STORAGE", "auto (SQLite counter file)"),
        "plans": PLANS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", default=DEFAULT_PATHS, help="comma-separated regintel GET paths")
    parser.add_argument("--duration", type=int, default=10, help="measured seconds per target")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of load before each measurement")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="measure every target this many times, interleaved; the table shows medians",
    )
    parser.add_argument("--tool", choices=("auto", "wrk", "httpx"), default="auto")
    parser.add_argument(
        "--database-url", help="benchmark against this database instead of a fresh SQLite file"
    )
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    args = parser.parse_args()
    args.paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    if not (
        0 < args.duration <= 300
        and 0 <= args.warmup <= 60
        and 0 < args.connections <= 256
        and 0 < args.rounds <= 10
    ):
        parser.error(
            "duration in (0, 300] s, warmup in [0, 60] s, connections in (0, 256], rounds in (0, 10]"
        )
    tool = args.tool if args.tool != "auto" else ("wrk" if shutil.which("wrk") else "httpx")
    if tool == "httpx":
        console.print(
            "[yellow]wrk not found: the httpx load generator tops out near 1,000 req/s on 2 cores, "
            "so it measures the client as much as the server (apt-get install wrk)."
        )
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="regintel-bench-") as tmp, ExitStack() as stack:
        hello = serve_hellos(stack, Path(tmp))
        regintel, notes = serve_regintel(stack, args, Path(tmp))
        rows = run_rounds(hello + regintel, tool, args)
    # Other processes share the CPUs; the load average tells how quiet the machine was.
    notes.append(f"load average (1, 5, 15 min) before: {load_before}, after: {os.getloadavg()}")
    hello_row = rows[0]
    for r in rows:
        r["rps_ratio_to_hello"] = round(r["rps"] / hello_row["rps"], 4)
        r["p50_ratio_to_hello"] = round(r["latency_ms"]["p50"] / hello_row["latency_ms"]["p50"], 2)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    title = (
        f"foundation {stamp}: {args.connections} connections, {args.duration} s per target and round, "
        f"median of {args.rounds} round(s), {tool}, 1 uvicorn worker"
    )
    print_table(rows, hello_row["rps"], title)
    for note in notes:
        console.print(f"[yellow]note: {note}")
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"foundation-{stamp}.json"
    out.write_text(
        json.dumps(
            {
                "benchmark": "foundation",
                "at": stamp,
                "environment": environment(tool, args),
                "parameters": {
                    "connections": args.connections,
                    "duration_s": args.duration,
                    "warmup_s": args.warmup,
                    "rounds": args.rounds,
                    "paths": args.paths,
                },
                "notes": notes,
                "results": rows,
            },
            indent=2,
        )
        + "\n",
        encoding="utf-8",
    )
    console.print(f"saved {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
