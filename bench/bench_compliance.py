"""Compliance benchmark: server-side latency of the KYC/KYB summary, the due-diligence checklist,
`/full`, bulk-compliance of 100 and the LEI record's compliance fields on a filled database (a
`regintel synth` build), timed in-process without HTTP as `bench_ownership.py` does (a pooled connection
taken and returned, the service functions, the JSON body); p50/p95/p99 over companies drawn at random, in
wall time and in CPU time of the process (the CPU figures move much less with the load of a shared machine).
`--only` runs some cases (e.g. `--only "bulk-compliance 100"`).

    .venv/bin/python bench/bench_compliance.py --database-url sqlite:////tmp/compl/c100k.db
    .venv/bin/python bench/bench_compliance.py --database-url postgresql://postgres@127.0.0.1:5432/bench1m
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, event, func, select

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from bench_lookup import percentiles  # noqa: E402

from regintel.api.envelope import dumps  # noqa: E402
from regintel.areas.companies.service import get_company_row  # noqa: E402
from regintel.areas.compliance import full, service  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.schema import companies  # noqa: E402

console = Console(width=None if sys.stdout.isatty() else 170)
Case = Callable[[Any, list[dict[str, Any]]], Any]


def sample(engine: Engine, n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    with engine.connect() as conn:
        lo, hi = conn.execute(select(func.min(companies.c.id), func.max(companies.c.id))).one()
        ids = [rng.randint(lo, hi) for _ in range(n)]
        found = {
            r["id"]: dict(r)
            for r in conn.execute(select(companies).where(companies.c.id.in_(ids))).mappings()
        }
    return [found[i] for i in ids if i in found]


def bulk(conn: Any, rows: list[dict[str, Any]]) -> Any:
    """What `POST /bulk-compliance` does for 100 items: resolve each, summarise each."""
    return service.summaries(conn, [get_company_row(conn, r["country"], r["national_id"]) for r in rows])


CASES: dict[str, tuple[int, Case]] = {
    "compliance": (1, lambda conn, rows: service.summary(conn, rows[0])),
    "compliance-dd": (1, lambda conn, rows: service.due_diligence(conn, rows[0])),
    "full": (1, lambda conn, rows: full.full(conn, rows[0])),
    "lei record fields": (1, lambda conn, rows: service.lei_fields(conn, rows[0])),
    "bulk-compliance 100": (100, bulk),
}


def timed(engine: Engine, groups: list[list[dict[str, Any]]], call: Case) -> dict[str, Any]:
    wall, cpu, sizes, statements = [], [], [], [0]

    def count(*_: Any) -> None:
        statements[0] += 1

    event.listen(engine, "before_cursor_execute", count)
    for rows in groups:
        started, cpu_started = time.perf_counter(), time.process_time()
        with engine.connect() as conn:
            body = dumps(call(conn, rows))
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        sizes.append(len(body))
    event.remove(engine, "before_cursor_execute", count)
    return percentiles(wall) | {
        "cpu_p50": percentiles(cpu)["p50"],
        "cpu_p95": percentiles(cpu)["p95"],
        "body_p50": percentiles([float(s) for s in sizes])["p50"],
        "statements_mean": statements[0] / max(1, len(groups)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--bulk-calls", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", action="append", choices=sorted(CASES), help="run only these cases")
    args = parser.parse_args()
    engine = make_engine(args.database_url)
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar()
    rows = sample(engine, max(args.samples, args.bulk_calls * 100), args.seed)
    results: dict[str, Any] = {}
    table = Table(title=f"compliance: {entities:,} companies, {engine.dialect.name}")
    for col in (
        "case",
        "n",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "cpu p50",
        "cpu p95",
        "body p50",
        "stmts",
    ):
        table.add_column(col, justify="left" if col == "case" else "right")
    for name, (size, call) in CASES.items():
        if args.only and name not in args.only:
            continue
        count = args.bulk_calls if size > 1 else args.samples
        groups = [rows[i * size : (i + 1) * size] for i in range(count)]
        timed(engine, groups[:5], call)  # warm the caches
        r = timed(engine, groups, call)
        results[name] = r
        table.add_row(
            name,
            str(r["n"]),
            f"{r['p50']:.1f}",
            f"{r['p95']:.1f}",
            f"{r['p99']:.1f}",
            f"{r['max']:.1f}",
            f"{r['cpu_p50']:.1f}",
            f"{r['cpu_p95']:.1f}",
            f"{r['body_p50']:,.0f}",
            f"{r['statements_mean']:.1f}",
        )
    console.print(table)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=BENCH.parent
    ).stdout.strip()
    out = {
        "benchmark": "compliance",
        "at": datetime.now(UTC).isoformat(),
        "commit": commit,
        "database": engine.dialect.name,
        "entities": entities,
        "samples": args.samples,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "results": results,
    }
    target = BENCH / "results" / f"compliance-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=2))
    console.print(f"saved {target}")


if __name__ == "__main__":
    main()
