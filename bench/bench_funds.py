"""Funds benchmark: server-side latency of the area's section reads on a filled database, and import rates.

Fills a database (a fresh SQLite file by default, or `--database-url`) with generated companies, fund
awards linked to them (EU projects, Czech subsidies, State aid of which most GBER) and CORDIS projects
with participations, then times each section as a request runs it (a pooled connection, the company
resolved from `{ico}` + `?country=`, the service function, the JSON body) over random companies:
p50/p95/p99 in ms. Import rates (records/s) go through `regintel import`'s code path on generated DotInfo
rows (linked by IČO) and Kohesio rows (linked by name through the resolver and the search index).

    .venv/bin/python bench/bench_funds.py --companies 100000 --awards 100000

Prints a table and saves JSON to bench/results/funds-<companies>-<timestamp>.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, insert

from regintel.api.envelope import dumps
from regintel.areas.companies.service import resolve_ico
from regintel.areas.funds import service
from regintel.areas.funds.tables import cordis_participants, cordis_projects, fund_awards
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.db.schema import companies
from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_dotinfo import SOURCE as DOTINFO
from regintel.ingest.sources.eu_kohesio import SOURCE as KOHESIO

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 170)
BATCH = 5_000
KINDS = (
    ("eu_project", "eu_kohesio", "EUR", None),
    ("cz_subsidy", "cz_dotinfo", "CZK", None),
    ("state_aid", "eu_state_aid_tam", "EUR", "GBER"),
)


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]

    return {"n": len(ordered), "p50": at(50), "p95": at(95), "p99": at(99), "mean": statistics.fmean(ordered)}


def ico(i: int) -> str:
    """The i-th valid Czech IČO (mod-11 check digit; those whose digit would be 10 are skipped)."""
    base = f"{i:07d}"
    rest = sum(int(d) * w for d, w in zip(base, range(8, 1, -1), strict=True)) % 11
    check = {0: 1, 1: 0}.get(rest, 11 - rest)
    return base + str(check % 10)


def _batches(engine: Engine, table: Any, rows: Any) -> None:
    chunk: list[dict[str, Any]] = []
    with engine.begin() as conn:
        for row in rows:
            chunk.append(row)
            if len(chunk) >= BATCH:
                conn.execute(insert(table), chunk)
                chunk = []
        if chunk:
            conn.execute(insert(table), chunk)


def fill(engine: Engine, n_companies: int, n_awards: int, n_projects: int, seed: int) -> None:
    rng = random.Random(seed)
    now, start = datetime.now(UTC), date(2015, 1, 1)
    _batches(
        engine,
        companies,
        (
            {
                "country": "CZ",
                "national_id": ico(i),
                "name": f"Firma {i} s.r.o.",
                "name_norm": f"firma {i}",
                "status": "active",
                "source": "bench",
                "updated_at": now,
                "created_at": now,
            }
            for i in range(1, n_companies + 1)
        ),
    )
    common = {
        "record_hash": "x",
        "import_run_id": 0,
        "imported_at": now,
        "match_method": "identifier",
        "match_score": 1.0,
        "beneficiary_country": "CZ",
    }

    def award(i: int) -> dict[str, Any]:
        kind, source, currency, measure_type = KINDS[0 if i % 10 < 6 else 1 if i % 10 < 8 else 2]
        c = rng.randrange(1, n_companies + 1)
        day = start + timedelta(days=rng.randrange(3650))
        return {
            "source": source,
            "record_key": str(i),
            "kind": kind,
            "beneficiary_name": f"Firma {c} s.r.o.",
            "beneficiary_national_id": ico(c),
            "company_id": c,
            "title": f"Projekt {i}",
            "programme": "Programme",
            "fund": "ERDF",
            "measure_type": measure_type,
            "amount": rng.randrange(10_000, 50_000_000),
            "eu_amount": rng.randrange(5_000, 10_000_000),
            "currency": currency,
            "year": day.year,
            "granted_on": day,
            "start_on": day,
            "end_on": day + timedelta(days=700),
            "link": "https://example.invalid",
            **common,
        }

    _batches(engine, fund_awards, (award(i) for i in range(1, n_awards + 1)))
    _batches(
        engine,
        cordis_projects,
        (
            {
                "project_id": str(100_000 + p),
                "acronym": f"P{p}",
                "title": f"Research {p}",
                "framework": "HORIZON",
                "start_on": start + timedelta(days=rng.randrange(3650)),
                "total_cost": 3_000_000,
                "ec_max_contribution": 2_500_000,
                "record_hash": "x",
                "import_run_id": 0,
                "imported_at": now,
            }
            for p in range(n_projects)
        ),
    )
    _batches(
        engine,
        cordis_participants,
        (
            {
                "project_id": str(100_000 + p),
                "organisation_id": str(900_000_000 + k),
                "beneficiary_name": "Org",
                "role": "coordinator" if k == 0 else "participant",
                "ec_contribution": rng.randrange(10_000, 2_000_000),
                "ended": False,
                "company_id": rng.randrange(1, n_companies + 1),
                **common,
            }
            for p in range(n_projects)
            for k in range(3)
        ),
    )
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def timed(engine: Engine, n_companies: int, read: Callable[..., Any], n: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        wanted = ico(rng.randrange(1, n_companies + 1))
        t0 = time.perf_counter()
        with engine.connect() as conn:
            row = resolve_ico(conn, wanted, "cz")
            dumps(read(conn, row))
        out.append((time.perf_counter() - t0) * 1000)
    return percentiles(out)


def import_rates(engine: Engine, data_dir: Path, rows: int, named: int) -> dict[str, float]:
    folder = Path(tempfile.mkdtemp(prefix="funds-import-"))
    dotinfo = folder / "dotinfo.csv"
    with open(dotinfo, "w", encoding="utf-8") as fh:
        fh.write(
            "Evidenční číslo dotace;Název dotace;Účel dotace;Příjemce - obchodní jméno;Příjemce - IČ;"
            "Poskytovatel dotace;Program;Částka požadovaná;Částka schválená;Datum poskytnutí\n"
        )
        for i in range(rows):
            fh.write(
                f"B-{i};Dotace {i};Účel;Firma {i + 1} s.r.o.;{ico(i + 1)};MPO;Program;1 000,00;"
                f"{i % 9000 + 100} 000,00;15.03.2024\n"
            )
    kohesio = folder / "kohesio.csv"
    with open(kohesio, "w", encoding="utf-8") as fh:
        fh.write(
            "Project ID,Project name,Beneficiary,Beneficiary country,Total budget,EU contribution,Start date,"
            "End date,Fund,Programme,Programme CCI,Project URL\n"
        )
        for i in range(named):
            fh.write(
                f"QB{i},Projekt {i},Firma {i + 1} s.r.o.,Czechia,1000.00,850.00,2021-01-01,2022-01-01,ERDF,"
                "Programme,2014CZ16RFOP001,\n"
            )
    out = {}
    for label, source, path, count in (
        ("dotinfo_by_ico", DOTINFO, dotinfo, rows),
        ("kohesio_by_name", KOHESIO, kohesio, named),
    ):
        t0 = time.perf_counter()
        stats = run_import(engine, source, str(path), data_dir)[1]
        out[label] = round(count / (time.perf_counter() - t0))
        out[label + "_inserted"] = stats.inserted
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--companies", type=int, default=100_000)
    parser.add_argument("--awards", type=int, default=100_000)
    parser.add_argument("--projects", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=2_000)
    parser.add_argument("--import-rows", type=int, default=50_000)
    parser.add_argument("--named-rows", type=int, default=2_000)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="funds-bench-"))
    url = args.database_url or f"sqlite:///{folder / 'funds.db'}"
    engine = make_engine(url)
    upgrade(engine)
    t0 = time.perf_counter()
    fill(engine, args.companies, args.awards, args.projects, args.seed)
    fill_seconds = time.perf_counter() - t0
    load_before = os.getloadavg()
    sections: dict[str, Callable[..., Any]] = {
        "eu-projects": lambda conn, row: service.eu_projects(conn, row, 1, 20),
        "cordis-projects": lambda conn, row: service.cordis_projects(conn, row, 1, 20),
        "cz-subsidies": lambda conn, row: service.cz_subsidies(conn, row, 1, 20),
        "gber": lambda conn, row: service.gber_awards(conn, row, 1, 20),
        "public eu-funds (uncached)": service.eu_funds_summary,
    }
    results = {
        name: timed(engine, args.companies, read, args.requests, args.seed) for name, read in sections.items()
    }
    rates = import_rates(engine, folder, args.import_rows, args.named_rows)
    backend = engine.dialect.name
    table = Table(
        title=f"funds reads: {args.companies:,} companies, {args.awards:,} awards, "
        f"{args.projects:,} CORDIS projects × 3 participants ({backend})"
    )
    for column in ("section", "n", "p50 ms", "p95 ms", "p99 ms"):
        table.add_column(column, justify="right")
    for name, r in results.items():
        table.add_row(name, str(r["n"]), f"{r['p50']:.2f}", f"{r['p95']:.2f}", f"{r['p99']:.2f}")
    console.print(table)
    console.print(
        f"import: DotInfo by IČO {rates['dotinfo_by_ico']:,} rows/s ({args.import_rows:,} rows); "
        f"Kohesio by name {rates['kohesio_by_name']:,} rows/s ({args.named_rows:,} rows)"
    )
    out = {
        "benchmark": "funds",
        "backend": backend,
        "companies": args.companies,
        "awards": args.awards,
        "cordis_projects": args.projects,
        "fill_seconds": round(fill_seconds, 1),
        "reads": results,
        "import_rows_per_second": rates,
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "python": platform.python_version(),
        "at": datetime.now(UTC).isoformat(),
    }
    results_dir = BENCH / "results"
    results_dir.mkdir(exist_ok=True)
    path = results_dir / f"funds-{args.companies}-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    path.write_text(json.dumps(out, indent=2))
    console.print(f"saved {path}")


if __name__ == "__main__":
    main()
