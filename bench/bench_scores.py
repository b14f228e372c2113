"""Scores benchmark: server-side latency of the scores use cases on a filled database, the issue-17 goals
(credit-score p95 ≤ 20 ms, `/full` p95 ≤ 100 ms, bulk-compliance of 100 p95 ≤ 500 ms), and the time to
refresh the peer benchmarks.

Each call is timed in-process as a request runs it (a pooled connection taken and returned, the
company row resolved, the service function, the JSON body), over many different companies; p50/p95/p99
in wall time and in CPU time of this process (CPU moves much less with the load of a shared machine).
`peers` is measured twice: computed from the group's rows (`live`, before any refresh) and read from
`peer_benchmarks` (`precomputed`, after `scores.refresh_peers`). The refresh rewrites that table, so it
runs only on a copy of a SQLite database (`--database-url sqlite:///…`, copied by default) or when
`--refresh-peers` is given.

    # an existing database file, used in place and only read (no build, no copy, no peer refresh):
    .venv/bin/python bench/bench_scores.py --db /path/to/regintel.db
    .venv/bin/python bench/bench_scores.py --db /path/to/regintel.db --only goals
    # a database URL (a SQLite file is copied first, so the peer refresh can rewrite its table):
    .venv/bin/python bench/bench_scores.py --database-url sqlite:////tmp/scores/synth100k.db
    # build one first (`regintel synth`) when none is given:
    .venv/bin/python bench/bench_scores.py --build 100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
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
from regintel.areas.companies.service import get_company_row
from regintel.areas.compliance import full
from regintel.areas.compliance import service as compliance
from regintel.areas.scores import benchmarks, peers, service, views
from regintel.areas.scores.tables import peer_benchmarks
from regintel.db.engine import make_engine
from regintel.db.migrate import current_revision, head_revision
from regintel.db.schema import companies

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


Keys = list[tuple[str, str]]
Case = Callable[[Any, Keys], Any]


def timed(engine: Engine, groups: list[Keys], fn: Case) -> dict[str, Any]:
    """Wall and CPU milliseconds of each call (one group of companies a call)."""
    wall, cpu = [], []
    for keys in groups:
        started, cpu_started = time.perf_counter(), time.process_time()
        with engine.connect() as conn:
            dumps(fn(conn, keys))
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
    c = percentiles(cpu)
    return percentiles(wall) | {"cpu_p50": c["p50"], "cpu_p95": c["p95"], "cpu_mean": c["mean"]}


def one(fn: Callable[[Any, Any], Any]) -> Case:
    """A case of one company: the row resolved as `/companies/{ico}` does, then the use case."""
    return lambda conn, keys: fn(conn, get_company_row(conn, *keys[0]))


def bulk(conn: Any, keys: Keys) -> Any:
    """What `POST /companies/bulk-compliance` does for its items: resolve each, summarise them together."""
    return compliance.summaries(conn, [get_company_row(conn, c, n) for c, n in keys])


# name -> (companies per call, case); the three of the goals first
CASES: dict[str, tuple[int, Case]] = {
    "credit-score": (1, one(views.credit_score)),
    "full": (1, one(full.full)),
    "bulk-compliance 100": (100, bulk),
    "credit_grade (service)": (1, one(service.credit_grade)),
    "credit (limit + history)": (1, one(views.credit)),
    "risk": (1, one(views.risk)),
    "financial-history": (1, one(views.financial_history)),
    "similar (country)": (1, one(lambda conn, row: peers.similar(conn, row, "country", 20))),
    "similar (world)": (1, one(lambda conn, row: peers.similar(conn, row, "world", 20))),
}
GOALS = {"credit-score": 20.0, "full": 100.0, "bulk-compliance 100": 500.0}  # p95 ms, issue 17


def run(
    engine: Engine, n: int, bulk_calls: int, seed: int, only: set[str] | None, refresh: bool
) -> dict[str, Any]:
    keys = sample(engine, max(n, bulk_calls * 100), seed)
    results: dict[str, Any] = {}
    for name, (size, fn) in CASES.items():
        if only is not None and name not in only:
            continue
        count = bulk_calls if size > 1 else n
        groups = [keys[i * size : (i + 1) * size] for i in range(count)]
        groups = [g for g in groups if g]
        timed(engine, groups[:5], fn)  # warm caches
        results[name] = timed(engine, groups, fn)
    if not refresh or (only is not None and "peers" not in only):
        return results
    peer = one(peers.peers)
    with engine.begin() as conn:
        conn.execute(delete(peer_benchmarks))
    results["peers (live)"] = timed(engine, [[k] for k in keys[:n]], peer)
    started = time.perf_counter()
    refreshed = benchmarks.refresh(engine)
    results["refresh_peers"] = {"seconds": round(time.perf_counter() - started, 2), **refreshed}
    results["peers (precomputed)"] = timed(engine, [[k] for k in keys[:n]], peer)
    return results


def show(results: dict[str, Any], entities: int, backend: str) -> None:
    table = Table(title=f"scores use cases, server-side, {entities:,} companies, {backend} (ms)")
    for col in ("case", "n", "p50", "p95", "p99", "max", "cpu p50", "cpu p95", "cpu mean"):
        table.add_column(col, justify="right" if col != "case" else "left")
    keys = ("p50", "p95", "p99", "max", "cpu_p50", "cpu_p95", "cpu_mean")
    for name, r in results.items():
        if "p95" in r:
            table.add_row(name, str(r["n"]), *(f"{r[k]:.2f}" for k in keys))
    console.print(table)
    for name, goal in GOALS.items():
        if name in results:
            r = results[name]
            verdict = "met" if r["p95"] <= goal else "NOT met"
            console.print(
                f"goal {name}: p95 {r['p95']:.1f} ms (≤ {goal:.0f} ms: {verdict}), "
                f"CPU p95 {r['cpu_p95']:.1f} ms, CPU mean {r['cpu_mean']:.1f} ms"
            )
    if "refresh_peers" in results:
        console.print(f"refresh_peers: {results['refresh_peers']}")


def check_schema(engine: Engine) -> None:
    """Refuse a database whose schema is behind the code (the use cases would fail on a missing table):
    the benchmark only reads, so it does not upgrade; `regintel db upgrade` does."""
    applied, heads = current_revision(engine), head_revision()
    missing = sorted(set((heads or "").split(",")) - set((applied or "").split(",")))
    if missing:
        console.print(
            f"[red]the database lacks migrations {', '.join(missing)}: run "
            f"`REGINTEL_DATABASE_URL={engine.url.render_as_string(hide_password=True)} regintel db upgrade`"
            " first[/red]"
        )
        raise SystemExit(2)


def build(entities: int, seed: int) -> str:
    """A fresh synthetic database (`regintel synth`, without search index and statistics)."""
    path = Path(tempfile.mkdtemp(prefix="bench_scores_build_")) / f"synth{entities}.db"
    url = f"sqlite:///{path}"
    regintel = Path(sys.executable).with_name("regintel")
    cmd = [str(regintel), "synth", "-n", str(entities), "--seed", str(seed), "--no-search", "--no-stats"]
    subprocess.run(cmd, check=True, env=os.environ | {"REGINTEL_DATABASE_URL": url})
    return url


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--db", type=Path, help="An existing SQLite file, read in place (no build, no copy)")
    where.add_argument("--database-url", help="A database URL (a SQLite file is copied unless --no-copy)")
    where.add_argument("--build", type=int, metavar="N", help="Build N synthetic companies first")
    parser.add_argument("-n", type=int, default=500, help="Companies per single-company case")
    parser.add_argument("--bulk-calls", type=int, default=20, help="Calls of the bulk-compliance case")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--only",
        action="append",
        choices=[*CASES, "peers", "goals"],
        help="Run only these cases (repeatable); `goals`: credit-score, full and bulk-compliance 100",
    )
    parser.add_argument(
        "--no-copy", action="store_true", help="Refresh the given database's benchmarks in place"
    )
    parser.add_argument(
        "--refresh-peers",
        action="store_true",
        help="With --db: also time peers live and the refresh (writes)",
    )
    args = parser.parse_args()
    only = None if not args.only else set(args.only) | (set(GOALS) if "goals" in args.only else set())
    tmp = None
    if args.db is not None:
        if not args.db.is_file():
            parser.error(f"--db {args.db}: no such file")
        url, refresh = f"sqlite:///{args.db.resolve()}", args.refresh_peers
    elif args.build is not None:
        url, refresh = build(args.build, 42), True
        console.print(f"built {url} (kept: run again with --db {url.removeprefix('sqlite:///')})")
    else:
        url, refresh = args.database_url, True
        if url.startswith("sqlite:///") and not args.no_copy:
            tmp = tempfile.mkdtemp(prefix="bench_scores_")
            shutil.copyfile(url.removeprefix("sqlite:///"), f"{tmp}/copy.db")
            url = f"sqlite:///{tmp}/copy.db"
    engine = make_engine(url)
    check_schema(engine)
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar() or 0
    load0 = os.getloadavg()
    results = run(engine, args.n, args.bulk_calls, args.seed, only, refresh)
    engine.dispose()
    if tmp:
        shutil.rmtree(tmp)
    backend = "postgresql" if url.startswith("postgres") else "sqlite"
    show(results, entities, backend)
    console.print(f"load average before / after: {load0[0]:.1f} / {os.getloadavg()[0]:.1f}")
    doc = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "backend": backend,
        "entities": entities,
        "load": [load0, os.getloadavg()],
        "goals_p95_ms": GOALS,
        "results": results,
    }
    out = BENCH / "results" / f"bench_scores_{backend}_{entities}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(doc, indent=2))
    console.print(f"saved {out.relative_to(BENCH.parent)}")


if __name__ == "__main__":
    main()
