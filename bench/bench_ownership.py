"""Ownership benchmark: server-side latency of ultimate-owner, graph and relations on a filled database
(a `regintel synth` build: ownership chains 1-8 deep, side subsidiaries and cycles).

Server-side latency is the use case as a request runs it (a pooled connection taken and returned, the
service functions, the JSON body), timed in-process without HTTP, as `bench_lookup.py` does; p50/p95/p99
over different companies: members of ownership groups (the interesting case: every one of them has a
chain above or below it) and companies drawn at random.

    .venv/bin/python bench/bench_ownership.py --database-url sqlite:////tmp/bench/s1m.db
    .venv/bin/python bench/bench_ownership.py --database-url postgresql://postgres@127.0.0.1:5432/bench1m
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
from regintel.areas.ownership import graph, relations, ultimate  # noqa: E402
from regintel.areas.ownership.entities import Ctx  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.schema import companies, ownerships  # noqa: E402

console = Console(width=None if sys.stdout.isatty() else 170)


def sample(engine: Engine, n: int, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(group members, random companies): rows as a request's `resolve_ico` returns them."""
    rng = random.Random(seed)
    with engine.connect() as conn:
        lo, hi = conn.execute(select(func.min(companies.c.id), func.max(companies.c.id))).one()
        members: list[int] = []
        for _ in range(n):
            edge = conn.execute(
                select(ownerships.c.child_id)
                .where(ownerships.c.child_id >= rng.randint(lo, hi))
                .order_by(ownerships.c.child_id)
                .limit(1)
            ).scalar()
            if edge is not None:
                members.append(int(edge))
        drawn = [rng.randint(lo, hi) for _ in range(n)]

        def rows(ids: list[int]) -> list[dict[str, Any]]:
            found = {
                r["id"]: dict(r)
                for r in conn.execute(select(companies).where(companies.c.id.in_(ids))).mappings()
            }
            return [found[i] for i in ids if i in found]

        return rows(members), rows(drawn)


def timed(
    engine: Engine, rows: list[dict[str, Any]], call: Callable[[Ctx, dict[str, Any]], Any]
) -> dict[str, Any]:
    """Wall and CPU ms per call, the body size, and the statements sent (a figure a busy machine does not
    change: on PostgreSQL each is a round trip)."""
    wall, cpu, sizes = [], [], []
    statements = [0]

    def count(*_: Any) -> None:
        statements[0] += 1

    event.listen(engine, "before_cursor_execute", count)
    for row in rows:
        started, started_cpu = time.perf_counter(), time.thread_time()
        with engine.connect() as conn:
            body = dumps(call(Ctx(conn, personal=False), row))
        cpu.append((time.thread_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
        sizes.append(len(body))
    event.remove(engine, "before_cursor_execute", count)
    cpu_p = percentiles(cpu)
    return percentiles(wall) | {
        "cpu_p50": cpu_p["p50"],
        "cpu_p95": cpu_p["p95"],
        "body_p50": percentiles([float(s) for s in sizes])["p50"],
        "statements_mean": statements[0] / max(1, len(rows)),
    }


CASES: dict[str, Callable[[Ctx, dict[str, Any]], Any]] = {
    "ultimate-owner depth 5": lambda ctx, row: ultimate.ultimate_owner(ctx, row, 5, 500),
    "ultimate-owner depth 10": lambda ctx, row: ultimate.ultimate_owner(ctx, row, 10, 500),
    "graph depth 2 limit 200": lambda ctx, row: graph.graph(ctx, row, 2, 200, False),
    "graph depth 5 limit 200": lambda ctx, row: graph.graph(ctx, row, 5, 200, False),
    "graph depth 5 limit 1000": lambda ctx, row: graph.graph(ctx, row, 5, 1000, False),
    "relations": lambda ctx, row: relations.relations(ctx, row, False),
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    engine = make_engine(args.database_url)
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar()
        edges = conn.execute(select(func.count()).select_from(ownerships)).scalar()
    members, drawn = sample(engine, args.samples, args.seed)
    for call in CASES.values():  # warm the caches once
        timed(engine, members[:20], call)
    results: dict[str, Any] = {}
    table = Table(
        title=f"ownership: {entities:,} companies, {edges:,} ownership edges, {engine.dialect.name}"
    )
    for col in (
        "case",
        "companies",
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
        table.add_column(col, justify="left" if col in ("case", "companies") else "right")
    for name, call in CASES.items():
        for label, rows in (("group members", members), ("random", drawn)):
            r = timed(engine, rows, call)
            results[f"{name} / {label}"] = r
            table.add_row(
                name,
                label,
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
        "benchmark": "ownership",
        "at": datetime.now(UTC).isoformat(),
        "commit": commit,
        "database": engine.dialect.name,
        "entities": entities,
        "ownership_edges": edges,
        "samples": args.samples,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load": os.getloadavg(),
        "results": results,
    }
    target = BENCH / "results" / f"ownership-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    target.parent.mkdir(exist_ok=True)
    target.write_text(json.dumps(out, indent=2))
    console.print(f"saved {target}")


if __name__ == "__main__":
    main()
