"""Synthetic build benchmark: `regintel synth` into a fresh SQLite file and a throwaway PostgreSQL
database; entities per second, database size per million entities, and the time 10 million would take.

    .venv/bin/python bench/bench_synth.py [--entities 1000000] [--seed 42] [--workers N]
        [--backends sqlite,postgresql] [--pg-url postgresql://postgres@127.0.0.1:5432/postgres]

The SQLite file goes to a temporary folder (or --dir) and is removed afterwards unless --keep; the
PostgreSQL database is created under a random name and dropped afterwards (with --keep: named
regintel_bench_synth_<entities> and kept). Prints a table and saves
JSON to bench/results/synth-<entities>-<timestamp>.json, with the load average before and after
(the machine is shared: compare runs made on a quiet machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from importlib.metadata import version
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from regintel.db.engine import make_engine, normalise_url
from regintel.db.migrate import upgrade
from regintel.synth.build import build

BENCH = Path(__file__).resolve().parent
TABLES = (
    "companies",
    "identifiers",
    "company_sources",
    "people",
    "roles",
    "ownerships",
    "financial_statements",
)
console = Console(width=None if sys.stdout.isatty() else 160)


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(url: str, entities: int, seed: int, workers: int | None) -> dict[str, Any]:
    engine = make_engine(url, pool=False)
    upgrade(engine)
    load_before, cpu_before, started = os.getloadavg(), cpu_seconds(), time.perf_counter()
    result = build(engine, entities, seed, workers=workers)
    seconds = time.perf_counter() - started
    cpu = cpu_seconds() - cpu_before
    with engine.connect() as conn:
        rows = {t: conn.execute(text(f"SELECT count(*) FROM {t}")).scalar_one() for t in TABLES}
        if engine.dialect.name == "postgresql":
            size = conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
        else:
            size = sum(
                p.stat().st_size
                for p in Path(engine.url.database).parent.glob(Path(engine.url.database).name + "*")
            )
    engine.dispose()
    return {
        "backend": engine.dialect.name,
        "entities": result.entities,
        "seconds": round(seconds, 1),
        "entities_per_s": round(result.entities / seconds),
        "client_cpu_seconds": round(cpu, 1),
        "db_bytes": size,
        "mb_per_million": round(size / 1e6 / (result.entities / 1e6), 1),
        "minutes_for_10m": round(10_000_000 / (result.entities / seconds) / 60, 1),
        "rows": rows,
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }


def postgres(admin_url: str, entities: int, seed: int, workers: int | None, keep: bool) -> dict[str, Any]:
    server = make_url(normalise_url(admin_url))
    name = f"regintel_bench_synth_{entities}" if keep else f"regintel_bench_synth_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if keep:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = server.set(database=name).render_as_string(hide_password=False)
    kept = False
    try:
        result = run(url, entities, seed, workers)
        kept = keep
        return result | ({"kept": url} if keep else {})
    finally:
        if not kept:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def sqlite(folder: Path | None, entities: int, seed: int, workers: int | None, keep: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp) / "synth.db"
        result = run(f"sqlite:///{path}", entities, seed, workers)
        if keep:
            kept = BENCH / "results" / f"synth-{entities}.db"
            path.replace(kept)
            result["kept"] = str(kept)
        return result


def environment() -> dict[str, Any]:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=BENCH.parent, capture_output=True, text=True
    ).stdout.strip()
    return {
        "commit": commit,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "niceness": os.nice(0),
        "machine": platform.machine(),
        "faker": version("faker"),
        "sqlalchemy": version("sqlalchemy"),
        "psycopg": version("psycopg"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entities", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument(
        "--workers", type=int, default=None, help="generator processes (default: one per core)"
    )
    parser.add_argument("--backends", default="sqlite,postgresql")
    parser.add_argument("--pg-url", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the SQLite file")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the SQLite file in bench/results/ and the "
        "PostgreSQL database (regintel_bench_synth_<entities>) for the other benchmarks",
    )
    args = parser.parse_args()
    results = []
    for backend in args.backends.split(","):
        console.print(f"building {args.entities:,} entities on {backend} …")
        if backend == "sqlite":
            results.append(sqlite(args.dir, args.entities, args.seed, args.workers, args.keep))
        else:
            results.append(postgres(args.pg_url, args.entities, args.seed, args.workers, args.keep))
    table = Table(
        "backend",
        "entities",
        "seconds",
        "entities/s",
        "DB size MB",
        "MB per million",
        "10M would take (min)",
        "rows per entity",
        title="regintel synth",
    )
    for r in results:
        table.add_row(
            r["backend"],
            f"{r['entities']:,}",
            f"{r['seconds']:,}",
            f"{r['entities_per_s']:,}",
            f"{r['db_bytes'] / 1e6:,.0f}",
            f"{r['mb_per_million']:,}",
            f"{r['minutes_for_10m']}",
            f"{sum(r['rows'].values()) / r['entities']:.1f}",
        )
    console.print(table)
    out = BENCH / "results" / f"synth-{args.entities}-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "parameters": vars(args) | {"dir": str(args.dir)},
                "environment": environment(),
                "results": results,
            },
            indent=2,
        )
    )
    console.print(f"saved {out}")


if __name__ == "__main__":
    main()
