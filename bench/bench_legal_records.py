"""Legal-records benchmark: latency of the area's reads on a filled database, and the import rate.

Fills a database (a fresh SQLite file by default, or `--database-url`) with generated companies, court
decisions (two parties each, one linked), antitrust cases, IPKZ installations and e-Sbírka acts linked to
the companies, then times each use case in-process as a request runs it (a connection, the service
function, the JSON body) over random inputs: p50/p95/p99 in ms. The import rate (records/s) is measured on a
generated court-decisions file through `regintel import`'s code path (parse, link by IČO, write).

    .venv/bin/python bench/bench_legal_records.py --decisions 100000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine, insert, select

from regintel.api.envelope import dumps
from regintel.areas.legal_records import service
from regintel.areas.legal_records.tables import (
    antitrust_cases,
    antitrust_parties,
    court_decision_parties,
    court_decisions,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.db.schema import companies
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_court_decisions import SOURCE as COURTS

BENCH = Path(__file__).resolve().parent
console = Console(width=None if sys.stdout.isatty() else 170)
BATCH = 5_000
COURTS_ = [
    (f"sud_{i}", f"Okresný súd {name}")
    for i, name in enumerate(
        [
            "Bratislava I",
            "Bratislava II",
            "Košice I",
            "Žilina",
            "Nitra",
            "Trnava",
            "Prešov",
            "Banská Bystrica",
        ]
    )
]
AREAS = ["Obchodné právo", "Občianske právo", "Správne právo", "Pracovné právo"]
KINDS = ["cartel", "merger", "abuse", "state_aid"]


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]

    return {"n": len(ordered), "p50": at(50), "p95": at(95), "p99": at(99), "mean": statistics.fmean(ordered)}


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


@cache
def ico(i: int) -> str:
    """A valid Slovak IČO for company `i` (seven digits of `i` and the check digit that fits)."""
    for d in range(10):
        try:
            return parse_national_id("SK", f"{i % 10**7:07d}{d}")
        except InvalidIdentifier:
            continue
    raise ValueError(i)


def _link(c: int) -> dict[str, Any]:
    return {"company_id": c, "match_method": "identifier", "match_score": 1.0}


def fill(engine: Engine, n: dict[str, int], seed: int) -> None:
    rng = random.Random(seed)
    now, start = datetime.now(UTC), date(2015, 1, 1)
    prov = {"record_hash": "x", "imported_at": now}
    nc = n["companies"]
    _batches(
        engine,
        companies,
        (
            {
                "country": "SK",
                "national_id": ico(i),
                "name": f"Firma {i} s.r.o.",
                "name_norm": f"firma {i}",
                "status": "active",
                "source": "bench",
                "city": "Bratislava",
                "street": f"Ulica {i}",
                "updated_at": now,
                "created_at": now,
            }
            for i in range(1, nc + 1)
        ),
    )
    _batches(
        engine,
        court_decisions,
        (
            {
                "id": i,
                "guid": f"bench-{i}",
                "court_id": court[0],
                "court_name": court[1],
                "court_norm": court[1].lower(),
                "file_ref": f"{i % 40}Cb/{i}/2023",
                "ecli": f"ECLI:SK:OS:2023:{i}.1",
                "decided_on": start + timedelta(days=i % 3600),
                "form": "Rozsudok",
                "area": rng.choice(AREAS),
                "regulations": [],
                "source": "sk_court_decisions",
                "search_text": f"{court[1].lower()} {i % 40}cb {i} 2023 firma {c} {c:08d}",
                **prov,
            }
            for i in range(1, n["decisions"] + 1)
            for court, c in [(rng.choice(COURTS_), rng.randrange(1, nc + 1))]
        ),
    )
    _batches(
        engine,
        court_decision_parties,
        (
            row
            for i in range(1, n["decisions"] + 1)
            for c in [rng.randrange(1, nc + 1)]
            for row in (
                {
                    "decision_pk": i,
                    "position": 1,
                    "name": f"Firma {c} s.r.o.",
                    "national_id": ico(c),
                    "country": "SK",
                    "role": "žalobca",
                    **_link(c),
                },
                {
                    "decision_pk": i,
                    "position": 2,
                    "name": f"Iná firma {i}",
                    "national_id": None,
                    "country": "SK",
                    "role": "žalovaný",
                    "company_id": None,
                    "match_method": None,
                    "match_score": None,
                },
            )
        ),
    )
    _batches(
        engine,
        antitrust_cases,
        (
            {
                "id": i,
                "case_ref": f"{2015 + i % 10}/KH/{i}",
                "kind": rng.choice(KINDS),
                "title": f"Vec {i}",
                "decided_on": start + timedelta(days=i % 3600),
                "verdict": "Pokuta.",
                "fine": rng.randrange(10**6),
                "currency": "EUR",
                "rulings": [
                    {"instance": "Rada", "decided_on": None, "outcome": "potvrdené", "reference": None}
                ],
                "source": "sk_pmu",
                **prov,
            }
            for i in range(1, n["cases"] + 1)
        ),
    )
    _batches(
        engine,
        antitrust_parties,
        (
            {
                "case_pk": i,
                "position": 1,
                "name": f"Firma {c} s.r.o.",
                "national_id": ico(c),
                "country": "SK",
                "address": f"Ulica {c}, 811 01 Bratislava",
                **_link(c),
            }
            for i in range(1, n["cases"] + 1)
            for c in [rng.randrange(1, nc + 1)]
        ),
    )
    _batches(
        engine,
        ipkz_installations,
        (
            {
                "installation_id": f"IPKZ-{i}",
                "name": f"Prevádzka {i}",
                "operator_name": f"Firma {c} s.r.o.",
                "operator_national_id": ico(c),
                "municipality": "Bratislava",
                "activity_code": "1.1",
                "latitude": 48.1 + rng.random() / 10,
                "longitude": 17.1 + rng.random() / 10,
                "inspections": 5,
                "inspections_with_findings": 1,
                "permits": [
                    {
                        "number": f"P-{i}",
                        "kind": "IP",
                        "issued_on": "2010-01-01",
                        "final_on": None,
                        "link": None,
                    }
                ],
                "source": "sk_ipkz",
                **_link(c),
                **prov,
            }
            for i in range(1, n["installations"] + 1)
            for c in [rng.randrange(1, nc + 1)]
        ),
    )
    _batches(
        engine,
        sbirka_acts,
        (
            {
                "id": i,
                "iri": f"https://opendata.eselpoint.cz/eli/cz/sb/{2000 + i % 25}/{i}",
                "number": i,
                "year": 2000 + i % 25,
                "act_type": "Nařízení vlády",
                "title": f"Nařízení {i}",
                "promulgated_on": start + timedelta(days=i % 3600),
                "link": "https://www.e-sbirka.cz/",
                "source": "cz_esbirka",
                **prov,
            }
            for i in range(1, n["acts"] + 1)
        ),
    )
    _batches(
        engine,
        sbirka_mentions,
        (
            {
                "act_pk": i,
                "position": 1,
                "name": f"Firma {c} s.r.o.",
                "national_id": ico(c),
                "excerpt": "…",
                **_link(c),
            }
            for i in range(1, n["acts"] + 1)
            for c in [rng.randrange(1, nc + 1)]
        ),
    )
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")


def timed(engine: Engine, fn: Callable[[Any], Any], n: int) -> dict[str, float]:
    """Wall and CPU (this process: on PostgreSQL the server's CPU is not in it) ms per call: on a shared
    machine the wall time waits for a core, the CPU time does not."""
    wall, cpu = [], []
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.process_time()
        with engine.connect() as conn:
            dumps(fn(conn))
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    cpu_p = percentiles(cpu)
    return percentiles(wall) | {"cpu_p50": cpu_p["p50"], "cpu_p95": cpu_p["p95"], "cpu_mean": cpu_p["mean"]}


def reads(
    engine: Engine, n: dict[str, int], requests: int, seed: int, only: str | None = None
) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)

    def company(conn: Any) -> Any:
        return (
            conn.execute(select(companies).where(companies.c.id == rng.randrange(1, n["companies"] + 1)))
            .mappings()
            .one()
        )

    def decisions(**kw: Any) -> Callable[[Any], Any]:
        def run(conn: Any) -> Any:
            args = {"ico": None, "court": None, "date_from": None, "date_to": None, "q": None} | {
                k: v() for k, v in kw.items()
            }
            return service.search_decisions(conn, service.decision_filters(conn, **args), 1, 20)

        return run

    day = lambda: date(2015, 1, 1) + timedelta(days=rng.randrange(3300))  # noqa: E731
    cases: dict[str, Callable[[Any], Any]] = {
        "justice/decisions (no filter)": decisions(),
        "justice/decisions ?ico": decisions(ico=lambda: ico(rng.randrange(1, n["companies"] + 1))),
        "justice/decisions ?court&date_from&date_to": decisions(
            court=lambda: rng.choice(COURTS_)[0], date_from=day, date_to=lambda: date(2025, 1, 1)
        ),
        "justice/decisions ?q (a file ref)": decisions(
            q=lambda: f"{rng.randrange(1, n['decisions'] + 1)} 2023"
        ),
        "justice/decision/{guid}": lambda conn: service.decision_detail(
            conn, f"bench-{rng.randrange(1, n['decisions'] + 1)}"
        ),
        "companies/{ico}/amo-cases": lambda conn: service.amo_cases(conn, company(conn)),
        "companies/{ico}/environmental": lambda conn: service.environmental(conn, company(conn)),
        "companies/{ico}/cz-sbirka": lambda conn: service.cz_sbirka(conn, company(conn)),
        "companies/{ico}/locations": lambda conn: service.locations(conn, company(conn)),
        "public/stats/amo-cases (100)": lambda conn: service.amo_feed(conn, 100),
        "public/stats/ipkz-companies (100)": lambda conn: service.ipkz_feed(conn, 100),
    }
    return {name: timed(engine, fn, requests) for name, fn in cases.items() if not only or only in name}


def import_rate(records: int, folder: Path) -> dict[str, float]:
    """Court decisions through `regintel import`'s path into a database holding the named companies."""
    engine = make_engine(f"sqlite:///{folder}/imports.db", pool=False)
    upgrade(engine)
    now = datetime.now(UTC)
    _batches(
        engine,
        companies,
        (
            {
                "country": "SK",
                "national_id": ico(i),
                "name": f"Firma {i} s.r.o.",
                "name_norm": f"firma {i}",
                "status": "active",
                "source": "bench",
                "updated_at": now,
                "created_at": now,
            }
            for i in range(1, 10_001)
        ),
    )
    path = folder / "rozhodnutia.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(records):
            fh.write(
                json.dumps(
                    {
                        "guid": f"g-{i}",
                        "sud": {"guid": "sud_1", "nazov": "Okresný súd Nitra"},
                        "spisovaZnacka": f"5Cb/{i}/2024",
                        "datumVydania": "2024-01-02",
                        "formaRozhodnutia": "Rozsudok",
                        "oblast": "Obchodné právo",
                        "ucastnici": [
                            {
                                "nazov": f"Firma {i % 10_000 + 1} s.r.o.",
                                "ico": ico(i % 10_000 + 1),
                                "typ": "žalobca",
                            }
                        ],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    t0 = time.perf_counter()
    _, stats, _ = run_import(engine, COURTS, str(path), folder)
    seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    _, again, _ = run_import(engine, COURTS, str(path), folder)
    return {
        "records": stats.inserted,
        "seconds": seconds,
        "per_second": stats.inserted / seconds,
        "reimport_seconds": time.perf_counter() - t0,
        "reimport_unchanged": again.unchanged,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url")
    parser.add_argument("--companies", type=int, default=100_000)
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--installations", type=int, default=20_000)
    parser.add_argument("--acts", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--import-records", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--only", help="time only the reads whose name holds this text")
    parser.add_argument("--no-import", action="store_true", help="skip the import-rate run")
    parser.add_argument("--existing", action="store_true", help="the database is already filled (same sizes)")
    args = parser.parse_args()
    sizes = {k: getattr(args, k) for k in ("companies", "decisions", "cases", "installations", "acts")}
    folder = Path(tempfile.mkdtemp(prefix="bench-lr-"))
    engine = make_engine(args.database_url or f"sqlite:///{folder}/bench.db")
    upgrade(engine)
    t0 = time.perf_counter()
    if not args.existing:
        fill(engine, sizes, args.seed)
    fill_s = time.perf_counter() - t0
    load_before = os.getloadavg()
    results = reads(engine, sizes, args.requests, args.seed, args.only)
    load_after = os.getloadavg()
    rate = None if args.no_import else import_rate(args.import_records, folder)
    table = Table(
        "read",
        "n",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "CPU p50 ms",
        "CPU p95 ms",
        title=f"{engine.dialect.name}: "
        + ", ".join(f"{v:,} {k}" for k, v in sizes.items())
        + f" (filled in {fill_s:.0f} s)",
    )
    for name, r in results.items():
        table.add_row(
            name,
            str(r["n"]),
            *(f"{r[k]:.2f}" for k in ("p50", "p95", "p99", "cpu_p50", "cpu_p95")),
        )
    console.print(table)
    console.print("load average (1, 5, 15 min) before the reads {:.1f} {:.1f} {:.1f}".format(*load_before))
    console.print("load average after the reads {:.1f} {:.1f} {:.1f}".format(*load_after))
    if rate is not None:
        console.print(
            f"import sk_court_decisions (SQLite): {rate['records']:,} records in {rate['seconds']:.1f} s = "
            f"{rate['per_second']:,.0f}/s; re-import {rate['reimport_seconds']:.1f} s, "
            f"{rate['reimport_unchanged']:,} unchanged"
        )
    out = BENCH / "results" / f"legal_records-{engine.dialect.name}-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "args": vars(args),
                "dialect": engine.dialect.name,
                "fill_seconds": fill_s,
                "load_before": load_before,
                "load_after": load_after,
                "reads": results,
                "import": rate,
            },
            indent=2,
        )
    )
    console.print(f"saved {out}")


if __name__ == "__main__":
    main()
