"""Scores benchmark: server-side latency of the scores use cases on a filled database, and the time to
refresh the peer benchmarks.

Each call is timed in-process as a request runs it (a pooled connection taken and returned, the
company row resolved, the service function, the JSON body), over many different companies; p50/p95/p99.
`peers` is measured twice: computed from the group's rows (`live`, before any refresh) and read from
`peer_benchmarks` (`precomputed`, after `scores.refresh_peers`). The refresh rewrites that table, so
the benchmark works on a copy of a SQLite database (`--copy`, the default) or on the database given.

    .venv/bin/python bench/bench_scores.py --database-url sqlite:////tmp/scores/synth100k.db
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, delete, func, select

from regintel.api.envelope import dumps
from regintel.areas.scores import benchmarks, peers, service, views
from regintel.areas.scores.tables import peer_benchmarks
from regintel.db.engine import make_engine
from regintel.db.schema import companies
from regintel.services.companies import get_company_row

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 170)


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]

    return {
        "n": len(ordered),
        "p50": at(50),
        "p95": at(95),
        "p99": at(99),
        "max": ordered[-1],
        "mean": statistics.fmean(ordered),
    }


def sample(engine: Engine, n: int, seed: int) -> list[tuple[str, str]]:
    with engine.connect() as conn:
        top = conn.execute(select(func.max(companies.c.id))).scalar() or 0
        rng = random.Random(seed)
        ids = rng.sample(range(1, top + 1), min(n, top))
        rows = conn.execute(
            select(companies.c.country, companies.c.national_id).where(companies.c.id.in_(ids))
        )
        return [(r[0], r[1]) for r in rows]


def timed(engine: Engine, keys: list[tuple[str, str]], fn: Callable[[Any, Any], Any]) -> list[float]:
    out = []
    for country, nid in keys:
        started = time.perf_counter()
        with engine.connect() as conn:
            dumps(fn(conn, get_company_row(conn, country, nid)))
        out.append((time.perf_counter() - started) * 1000)
    return out


CASES: dict[str, Callable[[Any, Any], Any]] = {
    "credit_grade (service)": service.credit_grade,
    "credit-score": views.credit_score,
    "credit (limit + history)": views.credit,
    "risk": views.risk,
    "financial-history": views.financial_history,
    "similar (country)": lambda conn, row: peers.similar(conn, row, "country", 20),
    "similar (world)": lambda conn, row: peers.similar(conn, row, "world", 20),
}


def run(engine: Engine, n: int, seed: int) -> dict[str, Any]:
    keys = sample(engine, n, seed)
    results: dict[str, Any] = {}
    for name, fn in CASES.items():
        timed(engine, keys[:20], fn)  # warm caches
        results[name] = percentiles(timed(engine, keys, fn))
    with engine.begin() as conn:
        conn.execute(delete(peer_benchmarks))
    results["peers (live)"] = percentiles(timed(engine, keys, peers.peers))
    started = time.perf_counter()
    refreshed = benchmarks.refresh(engine)
    results["refresh_peers"] = {"seconds": round(time.perf_counter() - started, 2), **refreshed}
    results["peers (precomputed)"] = percentiles(timed(engine, keys, peers.peers))
    return results


def show(results: dict[str, Any], entities: int) -> None:
    table = Table(title=f"scores use cases, server-side, {entities:,} companies (ms)")
    for col in ("case", "n", "p50", "p95", "p99", "max"):
        table.add_column(col, justify="right" if col != "case" else "left")
    for name, r in results.items():
        if "p95" in r:
            table.add_row(name, str(r["n"]), *(f"{r[k]:.2f}" for k in ("p50", "p95", "p99", "max")))
    console.print(table)
    console.print(f"refresh_peers: {results['refresh_peers']}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", required=True)
    parser.add_argument("-n", type=int, default=500, help="Companies per case")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--no-copy", action="store_true", help="Refresh the given database's benchmarks in place"
    )
    args = parser.parse_args()
    url = args.database_url
    tmp = None
    if url.startswith("sqlite:///") and not args.no_copy:
        tmp = tempfile.mkdtemp(prefix="bench_scores_")
        shutil.copyfile(url.removeprefix("sqlite:///"), f"{tmp}/copy.db")
        url = f"sqlite:///{tmp}/copy.db"
    engine = make_engine(url)
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar() or 0
    results = run(engine, args.n, args.seed)
    engine.dispose()
    if tmp:
        shutil.rmtree(tmp)
    show(results, entities)
    backend = "postgresql" if url.startswith("postgres") else "sqlite"
    doc = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "backend": backend,
        "entities": entities,
        "results": results,
    }
    out = BENCH / "results" / f"bench_scores_{backend}_{entities}.json"
    out.write_text(json.dumps(doc, indent=2))
    console.print(f"saved {out.relative_to(BENCH.parent)}")


if __name__ == "__main__":
    main()
