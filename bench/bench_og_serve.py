"""First og.png renders under load, against a real `regintel serve` (docs/pages.md, "Measured"): the wall
time of images no request asked for before (each one rendered by resvg in its request), and what those
renders do to the other requests of the same server (the company page beside them).

    .venv/bin/python bench/bench_og_serve.py --database-url sqlite:////tmp/copy.db \
        [--connections 1,16,64] [--duration 6] [--workers 2]

Scenarios, for each number of connections N (closed loop: each connection sends its next request when the
previous answer arrived):
- `og.png first`: every request is the image of a company not asked for before (no stored render).
- `page alone`: every request is a company page `/firma/{cc}/{ico}` (the baseline of the next one).
- `page beside renders`: N-1 connections ask for company pages while one asks for first images; the
  page and the image latencies are reported apart.
The server runs with `REGINTEL_WARM_START` on, the in-memory limiter and a shared limit no run reaches;
it writes renders and views into the database: give it a copy. Prints a table; the JSON goes to
bench/results/. Only loopback is contacted."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

BENCH = Path(__file__).parent
OG = "/api/v1/public/check/{ico}/og.png?country={cc}"
PAGE = "/firma/{cc}/{ico}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _companies(url: str) -> list[tuple[str, str]]:
    from sqlalchemy import select

    from regintel.db.engine import make_engine
    from regintel.db.schema import companies

    with make_engine(url).connect() as conn:
        rows = conn.execute(select(companies.c.country, companies.c.national_id).order_by(companies.c.id))
        return [(r[0].lower(), r[1]) for r in rows]


def _serve(url: str, workers: int, port: int, data_dir: str) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "REGINTEL_DATABASE_URL": url,
        "REGINTEL_DATA_DIR": data_dir,
        "REGINTEL_WARM_START": "true",
        "REGINTEL_RATE_LIMIT_STORAGE": "memory",
        "REGINTEL_SHARED_LIMIT_PER_MINUTE": str(10**9),
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    cmd = [sys.executable, "-m", "regintel", "serve", "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/livez", timeout=1).status_code == 200:
                time.sleep(5)  # every worker process through its start-up (warm start)
                return proc
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("regintel serve did not start")


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))], 1)


async def _loop(
    client: httpx.AsyncClient, template: str, picks: Iterator[tuple[str, str]], stop: float, out: list[Any]
) -> None:
    for cc, ico in picks:
        if time.perf_counter() >= stop:
            return
        started = time.perf_counter()
        try:
            status: int | str = (await client.get(template.format(cc=cc, ico=ico))).status_code
        except httpx.HTTPError as exc:  # counted, not raised: a dropped connection is a result too
            status = type(exc).__name__
        out.append(((time.perf_counter() - started) * 1000, status))


Plan = list[tuple[str, int, Iterator[tuple[str, str]]]]  # template, connections, companies to ask for


async def _run(base: str, plan: Plan, seconds: float) -> dict[str, list[Any]]:
    """Run `plan` together for `seconds`; latencies and statuses per template."""
    found: dict[str, list[Any]] = {t: [] for t, _, _ in plan}
    total = sum(n for _, n, _ in plan)
    limits = httpx.Limits(max_connections=total, max_keepalive_connections=total)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        stop = time.perf_counter() + seconds
        await asyncio.gather(*(_loop(client, t, p, stop, found[t]) for t, n, p in plan for _ in range(n)))
    return found


def _row(scenario: str, n: int, kind: str, samples: list[Any], seconds: float) -> dict[str, Any]:
    ok = [ms for ms, status in samples if status == 200]
    return {
        "scenario": scenario,
        "connections": n,
        "requests": kind,
        "answered": len(samples),
        "not_200": len(samples) - len(ok),
        "per_s": round(len(samples) / seconds, 1),
        "p50_ms": _pct(ok, 50),
        "p95_ms": _pct(ok, 95),
        "p99_ms": _pct(ok, 99),
        "max_ms": round(max(ok), 1) if ok else float("nan"),
        "statuses": dict(Counter(str(status) for _, status in samples)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--connections", default="1,16,64")
    parser.add_argument("--duration", type=float, default=6.0)
    parser.add_argument("--workers", type=int, default=2, help="API processes of regintel serve")
    parser.add_argument("--label", default="", help="a name for the run, kept in the JSON")
    args = parser.parse_args()
    fresh = iter(_companies(args.database_url))  # each company's image is asked for once: a first render
    pages = _companies(args.database_url)
    port = _free_port()
    rows: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as data_dir:
        proc = _serve(args.database_url, args.workers, port, data_dir)
        base = f"http://127.0.0.1:{port}"
        try:
            for n in (int(c) for c in args.connections.split(",")):
                cycle = (pages[i % len(pages)] for i in range(10**9))
                got = asyncio.run(_run(base, [(OG, n, fresh)], args.duration))
                rows.append(_row("og.png first", n, "og.png", got[OG], args.duration))
                got = asyncio.run(_run(base, [(PAGE, n, cycle)], args.duration))
                rows.append(_row("page alone", n, "page", got[PAGE], args.duration))
                if n > 1:
                    got = asyncio.run(_run(base, [(PAGE, n - 1, cycle), (OG, 1, fresh)], args.duration))
                    rows.append(_row("page beside renders", n, "page", got[PAGE], args.duration))
                    rows.append(_row("page beside renders", n, "og.png", got[OG], args.duration))
        finally:
            proc.terminate()
            proc.wait(30)
    load = os.getloadavg()
    head = f"{'scenario':22} {'conns':>5} {'requests':8} {'answered':>8} {'non-200':>8} {'per s':>8}"
    print(head + f" {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    cols = ("answered", "not_200", "per_s", "p50_ms", "p95_ms", "p99_ms", "max_ms")
    for r in rows:
        print(
            f"{r['scenario']:22} {r['connections']:>5} {r['requests']:8} "
            + " ".join(f"{r[c]:>8}" for c in cols)
        )
    others = {
        f"{r['scenario']} {r['connections']} {r['requests']}": r["statuses"] for r in rows if r["not_200"]
    }
    if others:
        print("answers other than 200:", others)
    cores = os.cpu_count()
    print(f"load average before {load_before[0]:.2f}, after {load[0]:.2f} {load[1]:.2f} ({cores} cores)")
    dest = BENCH / "results" / f"og-serve-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    dest.parent.mkdir(exist_ok=True)
    doc = {"label": args.label, "database": args.database_url, "workers": args.workers, "rows": rows}
    dest.write_text(json.dumps(doc | {"loadavg_before": load_before, "loadavg_after": load}, indent=2))


if __name__ == "__main__":
    main()
