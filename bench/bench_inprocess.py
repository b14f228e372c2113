"""CPU per request of regintel's hot paths against the hand-written twin (bench/twin_app.py) and a
hello-world, in one process, with no HTTP server: the ASGI apps are called directly, in alternating
rounds, so a change in the machine's load hits all alike. What it isolates is the app's own cost
(routing, middleware, dependencies, key check, counters, reads, envelope); the HTTP server's share is
the same for every app and is measured by bench_serving.py.

Needs a database filled by `regintel demo`: SQLite in the data directory, or the PostgreSQL database of
`--database-url` (the demo loaded into it with the same REGINTEL_DATA_DIR, which holds its search
index). A `bench` plan (no limit reached) and key are made; the counters are the SQLite counter file
(REGINTEL_DATA_DIR), the twin's its own file. The twin runs as a plain-`def` app (a thread hop per
request) unless --twin-async. Prints min and median CPU µs per call over the rounds and saves JSON to
bench/results/inprocess-<label>-<time>.json.

    .venv/bin/python bench/bench_inprocess.py --data-dir /tmp/demo [--rounds 12] [--calls 300] \
        [--loop asyncio]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PATHS = {
    "lookup": "/api/v1/companies/sk/31322832",
    "by-lei": "/api/v1/companies/by-lei?lei=097900BHF50000076475",
    "me": "/api/v1/me",
    "autocomplete": "/api/v1/companies/autocomplete?q=slovn",
}
PLAN = {"bench": {"title": "Bench", "rate_per_minute": 1_000_000_000, "monthly_quota": 1_000_000_000}}


def _scope(path: str, key: str) -> dict[str, Any]:
    target, _, query = path.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": target,
        "raw_path": target.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"authorization", f"Bearer {key}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _call(app: Any, scope: dict[str, Any]) -> int:
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(dict(scope), receive, send)
    return status[0]


async def _start(app: Any) -> None:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await queue.put({"type": "lifespan.startup"})
    started = asyncio.Event()

    async def send(message: dict[str, Any]) -> None:
        if message["type"].startswith("lifespan.startup"):
            started.set()

    asyncio.get_running_loop().create_task(
        app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, queue.get, send)
    )
    await started.wait()


async def _measure(targets: list[tuple[str, Any, dict[str, Any]]], rounds: int, calls: int) -> dict[str, Any]:
    for label, app, scope in targets:
        for _ in range(200):
            status = await _call(app, scope)
        if status != 200:
            raise SystemExit(f"{label}: answered {status}")
    cpu: dict[str, list[float]] = {label: [] for label, _, _ in targets}
    for _ in range(rounds):
        for label, app, scope in targets:
            begun = time.process_time()
            for _ in range(calls):
                await _call(app, scope)
            cpu[label].append((time.process_time() - begun) / calls * 1e6)
    return {label: {"min_us": min(v), "median_us": statistics.median(v)} for label, v in cpu.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", required=True, type=Path, help="REGINTEL_DATA_DIR of a `regintel demo`")
    ap.add_argument("--paths", default=",".join(PATHS))
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--twin-async", action="store_true", help="the twin's handlers on the loop")
    ap.add_argument("--label", default="")
    ap.add_argument("--database-url", help="default: the data directory's regintel.db")
    ap.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help="the event loop: uvloop is what `regintel serve` runs on (uvicorn's default when installed)",
    )
    args = ap.parse_args()
    url = args.database_url or f"sqlite:///{args.data_dir / 'regintel.db'}"
    os.environ.update(
        {
            "REGINTEL_DATA_DIR": str(args.data_dir),
            "REGINTEL_DATABASE_URL": url,
            "REGINTEL_PLANS": json.dumps(PLAN),
            "REGINTEL_DEFAULT_PLAN": "bench",
            "REGINTEL_SHARED_LIMIT_PER_MINUTE": "1000000000",
            "REGINTEL_LOG_LEVEL": "WARNING",
            "TWIN_COUNTERS": str(args.data_dir / "twin-counters.db"),
            "TWIN_ASYNC": "1" if args.twin_async else "0",
        }
    )
    made = subprocess.run(
        [sys.executable, "-m", "regintel", "keys", "create", "--name", "bench", "--plan", "bench"],
        capture_output=True,
        text=True,
        check=True,
    )
    key = made.stdout.strip().splitlines()[-1]
    sys.path.insert(0, str(HERE))
    import hello_app
    import twin_app

    from regintel import logs
    from regintel.api.app import create_app
    from regintel.config import load_settings

    settings = load_settings()
    logs.setup("WARNING", settings.log_format)
    ours = create_app(settings)
    targets = [("hello /", hello_app.app, _scope("/", key)), ("regintel /livez", ours, _scope("/livez", key))]
    for name in args.paths.split(","):
        targets.append((f"twin {name}", twin_app.app, _scope(PATHS[name], key)))
        targets.append((f"regintel {name}", ours, _scope(PATHS[name], key)))

    async def run() -> dict[str, Any]:
        await _start(ours)
        return await _measure(targets, args.rounds, args.calls)

    if args.loop == "uvloop":
        import uvloop

        figures = uvloop.run(run())
    else:
        figures = asyncio.run(run())
    print(f"{'app and path':28}{'min µs':>9}{'median µs':>11}{'ratio (twin/ours, min)':>25}")
    for label, row in figures.items():
        ratio = ""
        if label.startswith("regintel ") and (twin := figures.get("twin " + label.split(" ", 1)[1])):
            ratio = f"{twin['min_us'] / row['min_us']:.2f}"
        print(f"{label:28}{row['min_us']:9.0f}{row['median_us']:11.0f}{ratio:>25}")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = HERE / "results" / f"inprocess-{args.label or 'run'}-{stamp}.json"
    out.parent.mkdir(exist_ok=True)
    meta = {"rounds": args.rounds, "calls": args.calls, "twin_async": args.twin_async, "database": url}
    meta["loop"] = args.loop
    meta["load"] = os.getloadavg()
    out.write_text(json.dumps({"meta": meta, "figures": figures}, indent=2))
    print(f"saved {out}")


if __name__ == "__main__":
    main()
