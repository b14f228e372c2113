"""NIS2 sweep benchmark: build a synthetic database (`regintel synth`, SQLite) and scope every company
with the sweep's own code path (`nis2.sweep` with an empty filter, one slice), then report companies per
second, the time 10 million would take at that rate, and the category counts per country.

    .venv/bin/python bench/bench_nis2_sweep.py [--entities 100000] [--seed 42] [--db PATH] [--keep] [--sliced]

`--sliced` runs the job as the worker does, in slices of `sweep.SLICE` companies, each continued by the
job the slice queues (its payload read back from the jobs table): the path a 10M sweep takes in production,
with a progress line and the partial figures saved after every slice.

With --db and an existing file the build is skipped (reuse a database built before). Prints a table and
saves JSON to bench/results/nis2-sweep-<entities>-<timestamp>.json with the load average before and after
and the process's CPU seconds (the machine is shared: the CPU rate is what an idle core would give,
before waiting on the disk).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import delete, func, select

from regintel.areas.nis2 import sweep
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.db.schema import companies, jobs
from regintel.synth.build import build

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 160)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--sliced", action="store_true", help="the worker's slices and continuation jobs")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="nis2-bench-"))
    path = args.db or folder / "nis2.db"
    engine = make_engine(f"sqlite:///{path}", pool=False)
    upgrade(engine)
    with engine.connect() as conn:
        present = conn.execute(select(func.count()).select_from(companies)).scalar_one()
    build_seconds = None
    if present == 0:
        started = time.perf_counter()
        build(engine, args.entities, args.seed)
        build_seconds = time.perf_counter() - started
    with engine.connect() as conn:
        entities = conn.execute(select(func.count()).select_from(companies)).scalar_one()
    load_before, started, cpu_started = os.getloadavg(), time.perf_counter(), time.process_time()
    if args.sliced:
        result = _sliced(engine, entities, started, cpu_started)
    else:
        sweep.SLICE, sweep.SLICE_SECONDS = 10**12, 10**9  # one slice: measure the whole pass
        result = sweep.run_job(engine, {"filter": {}}, job_id=0)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    rate = result["processed"] / seconds if seconds else 0.0
    table = Table(title=f"NIS2 sweep over {entities:,} synthetic companies (SQLite)")
    for column in ("country", "essential", "important", "out-of-scope"):
        table.add_column(column, justify="right")
    for country, counts in sorted(result["by_country"].items()):
        table.add_row(country, *(f"{counts[k]:,}" for k in ("essential", "important", "out-of-scope")))
    table.add_row("all", *(f"{result['counts'][k]:,}" for k in ("essential", "important", "out-of-scope")))
    console.print(table)
    console.print(
        f"processed {result['processed']:,} in {seconds:.1f} s = {rate:,.0f} companies/s; "
        f"10M at this rate: {10_000_000 / rate / 60:.1f} min (single process, SQLite); "
        f"certainty {result['certainty']}; CPU {cpu:.1f} s of this process "
        f"({result['processed'] / cpu if cpu else 0:,.0f} companies per CPU second)"
    )
    out: dict[str, Any] = {
        "benchmark": "nis2_sweep",
        "entities": entities,
        "seed": args.seed,
        "backend": "sqlite",
        "build_seconds": build_seconds,
        "sweep_seconds": round(seconds, 2),
        "cpu_seconds": round(cpu, 2),
        "companies_per_second": round(rate),
        "projected_10m_minutes": round(10_000_000 / rate / 60, 1) if rate else None,
        "counts": result["counts"],
        "certainty": result["certainty"],
        "by_country": result["by_country"],
        "in_scope": result["in_scope"],
        "ruleset_version": result["ruleset_version"],
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "python": platform.python_version(),
        "at": datetime.now(UTC).isoformat(),
    }
    results = BENCH / "results"
    results.mkdir(exist_ok=True)
    name = results / f"nis2-sweep-{entities}-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    name.write_text(json.dumps(out, indent=2) + "\n")
    console.print(f"saved {name}")
    if not args.keep and args.db is None:
        path.unlink(missing_ok=True)


def _sliced(engine: Any, entities: int, started: float, cpu_started: float) -> dict[str, Any]:
    payload: dict[str, Any] = {"filter": {}}
    job_id, progress = 0, BENCH / "results" / f"nis2-sweep-{entities}-progress.json"
    progress.parent.mkdir(exist_ok=True)
    sweep.SLICE_SECONDS = 10**9  # slices by count only, so that every slice is the same size
    while True:
        result = sweep.run_job(engine, payload, job_id)
        if "continued_by" not in result:
            return result
        job_id = int(result["continued_by"])
        with engine.begin() as conn:
            row = conn.execute(select(jobs.c.payload).where(jobs.c.id == job_id)).scalar_one()
            conn.execute(delete(jobs).where(jobs.c.id == job_id))  # run here, not by a worker
        payload = dict(row)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        done = int(result["processed"])
        line = {
            "processed": done,
            "seconds": round(seconds, 1),
            "cpu_seconds": round(cpu, 1),
            "companies_per_second": round(done / seconds),
            "load": os.getloadavg(),
            "counts": payload["totals"].get("counts"),
        }
        progress.write_text(json.dumps(line, indent=2) + "\n")
        console.print(
            f"{done:,} of {entities:,} in {seconds:,.0f} s ({done / seconds:,.0f}/s, CPU {cpu:,.0f} s)"
        )


if __name__ == "__main__":
    main()
