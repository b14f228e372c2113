"""Requests/s and latency of regintel's hot request paths at 1, 4, 16, 64 and 256 connections, next to
a hand-written twin (bench/twin_app.py, same work, no regintel code) and a hello-world, in one run
(issue 13). Every server runs with the same number of uvicorn workers; wrk drives one target at a
time, interleaved per path and connection count, so that a change in the machine's load hits all
alike. Prints a table and saves JSON under bench/results/.

    python bench/bench_serving.py --database-url sqlite:////tmp/demo/data/regintel.db --workers 2
    python bench/bench_serving.py --database-url postgresql://postgres@127.0.0.1/regintel_demo

Needs `wrk` (Debian package). Loopback only. The database must hold the demo data (`regintel demo`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
CONNECTIONS = (1, 4, 16, 64, 256)
# name -> (regintel path, twin path or None)
PATHS = {
    "lookup": ("/api/v1/companies/sk/31322832", "/api/v1/companies/sk/31322832"),
    "by-lei": (
        "/api/v1/companies/by-lei?lei=097900BHF50000076475",
        "/api/v1/companies/by-lei?lei=097900BHF50000076475",
    ),
    "me": ("/api/v1/me", "/api/v1/me"),
    "autocomplete": ("/api/v1/companies/autocomplete?q=slovn", "/api/v1/companies/autocomplete?q=slovn"),
    "search": ("/api/v1/companies/search?q=slovnaft", None),
}
UNLIMITED = json.dumps(
    {"bench": {"title": "Bench", "rate_per_minute": 1_000_000_000, "monthly_quota": 1_000_000_000}}
)


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str) -> None:
    # Three minutes: on the shared 2-core machine at a load of 15-18 a worker's start-up alone took over 60 s.
    deadline = time.time() + 180
    while time.time() < deadline:
        try:
            httpx.get(url, timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not come up")


def _start(cmd: list[str], env: dict[str, str], probe: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait(probe)
    except SystemExit:
        proc.terminate()  # uvicorn's supervisor stops its workers on SIGTERM
        proc.wait(timeout=30)
        raise
    return proc


_WRK = re.compile(r"Requests/sec:\s+([\d.]+)")
_PCT = re.compile(r"^\s+(50|90|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)
_NON2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_ERRORS = re.compile(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)")


def _tree(pid: int) -> list[int]:
    out = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            out += _tree(int(child))
    return out


def cpu_seconds(pid: int) -> float:
    """utime + stime of a server and its worker processes (every thread), in seconds."""
    total = 0
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def wrk(
    url: str, connections: int, seconds: float, key: str | None, pid: int | None = None
) -> dict[str, float]:
    cmd = [
        "wrk",
        "-t",
        str(min(2, connections)),
        "-c",
        str(connections),
        "-d",
        f"{max(1, round(seconds))}s",
        "--latency",
        "--timeout",
        "10s",
        url,
    ]
    if key:
        cmd[1:1] = ["-H", f"Authorization: Bearer {key}"]
    cpu_before = cpu_seconds(pid) if pid else 0.0
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    cpu = cpu_seconds(pid) - cpu_before if pid else 0.0
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    pct = {f"p{p}": float(v) * scale[u] for p, v, u in _PCT.findall(out)}
    errors = _ERRORS.search(out)
    rps = float(_WRK.search(out).group(1))  # type: ignore[union-attr]
    return {
        "rps": rps,
        "cpu_us_per_request": cpu / max(1.0, rps * round(seconds)) * 1e6,
        **pct,
        "non_2xx": int(m.group(1)) if (m := _NON2XX.search(out)) else 0,
        "socket_errors": sum(int(x) for x in errors.groups()) if errors else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--connections", default=",".join(map(str, CONNECTIONS)))
    ap.add_argument("--paths", default=",".join(PATHS))
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install wrk")
    conns = [int(c) for c in args.connections.split(",")]
    work = Path(tempfile.mkdtemp(prefix="bench-serving-"))
    env = os.environ | {
        "REGINTEL_DATABASE_URL": args.database_url,
        "REGINTEL_PLANS": UNLIMITED,
        "REGINTEL_DEFAULT_PLAN": "bench",
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": "1000000000",
        "REGINTEL_DATA_DIR": os.environ.get("REGINTEL_DATA_DIR", str(work)),
        "REGINTEL_LOG_LEVEL": "WARNING",
        "TWIN_COUNTERS": str(work / "twin-counters.db"),
    }
    created = subprocess.run(
        [sys.executable, "-m", "regintel", "keys", "create", "--name", "bench", "--plan", "bench"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    key = created.strip().splitlines()[-1]
    ports = {"regintel": _port(), "twin": _port(), "hello": _port()}
    uvicorn = [
        sys.executable,
        "-m",
        "uvicorn",
        "--workers",
        str(args.workers),
        "--log-level",
        "warning",
        "--no-access-log",
        "--host",
        "127.0.0.1",
    ]
    procs = [
        _start(
            [
                sys.executable,
                "-m",
                "regintel",
                "serve",
                "--workers",
                str(args.workers),
                "--port",
                str(ports["regintel"]),
                "--log-level",
                "warning",
            ],
            env,
            f"http://127.0.0.1:{ports['regintel']}/livez",
        ),
        _start(
            [*uvicorn, "--app-dir", str(HERE), "--port", str(ports["twin"]), "twin_app:app"],
            env,
            f"http://127.0.0.1:{ports['twin']}/docs",
        ),
        _start(
            [*uvicorn, "--app-dir", str(HERE), "--port", str(ports["hello"]), "hello_app:app"],
            env,
            f"http://127.0.0.1:{ports['hello']}/",
        ),
    ]
    results: list[dict[str, object]] = []
    try:
        for name in args.paths.split(","):
            ours, twin = PATHS[name]
            for c in conns:
                row: dict[str, object] = {"path": name, "connections": c}
                row["regintel"] = wrk(
                    f"http://127.0.0.1:{ports['regintel']}{ours}", c, args.seconds, key, procs[0].pid
                )
                if twin:
                    row["twin"] = wrk(
                        f"http://127.0.0.1:{ports['twin']}{twin}", c, args.seconds, key, procs[1].pid
                    )
                row["hello"] = wrk(f"http://127.0.0.1:{ports['hello']}/", c, args.seconds, None)
                results.append(row)
                _print_row(row)
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=20)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = HERE / "results" / f"serving-{args.label or 'run'}-{stamp}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "database_url": args.database_url.split("@")[-1],
                "workers": args.workers,
                "seconds": args.seconds,
                "load_before": os.getloadavg(),
                "rows": results,
            },
            indent=1,
        )
    )
    print(f"saved {out}")


def _print_row(row: dict[str, object]) -> None:
    ours = row["regintel"]
    twin = row.get("twin")
    hello = row["hello"]
    assert isinstance(ours, dict) and isinstance(hello, dict)
    ratio = f"{ours['rps'] / twin['rps']:.2f}" if isinstance(twin, dict) and twin["rps"] else "-"
    twin_rps = f"{twin['rps']:9.0f}" if isinstance(twin, dict) else "        -"
    if not getattr(_print_row, "header", False):
        print(
            f"{'path':<13}{'conns':>6}{'regintel r/s':>14}{'p50 ms':>8}{'p99 ms':>8}{'errors':>8}"
            f"{'twin r/s':>10}{'ratio':>7}{'hello r/s':>11}{'cpu us/req':>12}{'twin cpu':>10}"
        )
        _print_row.header = True  # type: ignore[attr-defined]
    errors = int(ours["non_2xx"]) + int(ours["socket_errors"])
    print(
        f"{row['path']:<13}{row['connections']:>6}{ours['rps']:>14.0f}{ours.get('p50', 0):>8.1f}"
        f"{ours.get('p99', 0):>8.1f}{errors:>8}{twin_rps}{ratio:>7}{hello['rps']:>11.0f}"
        f"{ours['cpu_us_per_request']:>12.0f}"
        f"{twin['cpu_us_per_request'] if isinstance(twin, dict) else 0:>10.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
