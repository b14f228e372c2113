"""Closed-loop HTTP load generator: N keep-alive connections, each sending its next request as soon as
the previous answer arrived, for a fixed time. Prints one JSON object with throughput, latency
percentiles and status counts.

Runs in its own process (started by bench_foundation.py) so that the server under test never
shares an interpreter or an event loop with the client. Only loopback targets are allowed.

    python bench/loadgen.py --url http://127.0.0.1:8000/api/v1/me --connections 16 --duration 10 \
        --header "Authorization: Bearer ri_…"
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import httpx

LOOPBACK = ("127.", "localhost", "[::1]", "::1")


@dataclass
class Tally:
    latencies_ns: list[int] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


async def _worker(
    client: httpx.AsyncClient, url: str, measure_from: float, stop_at: float, tally: Tally
) -> None:
    while True:
        started = time.perf_counter_ns()
        if started / 1e9 >= stop_at:
            return
        try:
            resp = await client.get(url)
            await resp.aread()
            status = str(resp.status_code)
        except httpx.HTTPError as exc:
            status = type(exc).__name__
        if started / 1e9 >= measure_from:
            tally.latencies_ns.append(time.perf_counter_ns() - started)
            tally.statuses[status] += 1


async def run(url: str, connections: int, duration: float, warmup: float, headers: dict[str, str]) -> dict:
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    tally = Tally()
    async with httpx.AsyncClient(limits=limits, headers=headers, timeout=30.0) as client:
        now = time.perf_counter()
        measure_from, stop_at = now + warmup, now + warmup + duration
        await asyncio.gather(
            *(_worker(client, url, measure_from, stop_at, tally) for _ in range(connections))
        )
    latencies = sorted(ns / 1e6 for ns in tally.latencies_ns)
    ok = sum(n for s, n in tally.statuses.items() if s.startswith("2"))
    return {
        "url": url,
        "connections": connections,
        "duration_s": duration,
        "warmup_s": warmup,
        "requests": len(latencies),
        "ok": ok,
        "errors": len(latencies) - ok,
        "statuses": dict(tally.statuses),
        "rps": round(len(latencies) / duration, 1),
        "latency_ms": {
            "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95),
            "p99": percentile(latencies, 99),
            "max": latencies[-1] if latencies else None,
            "mean": sum(latencies) / len(latencies) if latencies else None,
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--duration", type=float, default=10.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of load before measuring")
    parser.add_argument("--header", action="append", default=[], help="'Name: value', repeatable")
    args = parser.parse_args()
    host = urlsplit(args.url).hostname or ""
    if not host.startswith(LOOPBACK):
        parser.error("only loopback targets (127.0.0.0/8, localhost, ::1) may be loaded")
    if not (0 < args.duration <= 600 and 0 <= args.warmup <= 60 and 0 < args.connections <= 1024):
        parser.error("duration must be in (0, 600] s, warmup in [0, 60] s, connections in (0, 1024]")
    headers = dict(h.split(":", 1) for h in args.header)
    headers = {k.strip(): v.strip() for k, v in headers.items()}
    coro = run(args.url, args.connections, args.duration, args.warmup, headers)
    try:
        import uvloop  # the faster loop, as on the server side: the client should not be the limit
    except ImportError:
        result = asyncio.run(coro)
    else:
        result = uvloop.run(coro)
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
