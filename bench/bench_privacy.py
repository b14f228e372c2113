"""Privacy benchmark (issue 23): what withholding natural persons costs, on SQLite files. Loads N companies
with 3 natural persons each through the real loader into a fresh database, with the ingest's suppression
look-up (`ingest/sections.py::_withheld_keys`) and with it switched off, alternately, `--rounds` times each (a
new database every time), which gives the look-up's share of an import; times the look-up alone over all the
holder keys; then times `privacy.withhold_person` (delete roles and the person, redact the change log, record
the key) for persons of the register, and `traders.withhold_company` / `lift_company` (a sole trader's
company row and every row hanging on it kept aside and deleted, then put back) for sole traders; wall and
CPU time.

    .venv/bin/python bench/bench_privacy.py --companies 5000 --rounds 3
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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from sqlalchemy import select

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from bench_lookup import percentiles  # noqa: E402

from regintel.areas.accounts import privacy, traders  # noqa: E402
from regintel.areas.accounts.tables import privacy_person_suppressions  # noqa: E402
from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.migrate import upgrade  # noqa: E402
from regintel.db.schema import companies, people  # noqa: E402
from regintel.domain.identifiers import parse_national_id  # noqa: E402
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord  # noqa: E402
from regintel.errors import InvalidIdentifier  # noqa: E402
from regintel.ingest import sections  # noqa: E402
from regintel.ingest.base import SourceInfo  # noqa: E402
from regintel.ingest.loader import Loader  # noqa: E402
from regintel.ingest.runner import sync_catalogue  # noqa: E402


def _source(name: str) -> SourceInfo:
    return SourceInfo(
        id=name,
        name=name,
        publisher="bench",
        country="SK",
        category="register",
        formats="records",
        licence="CC0 1.0",
        attribution="bench",
        url="https://example.invalid",
        cadence="on-demand",
    )


def _records(n: int, rng: random.Random) -> list[CompanyRecord]:
    out = []
    for i in range(n):
        persons = [
            PersonRecord(
                f"Osoba {rng.randrange(10**6)} Priezvisko{j}",
                birth_date=f"19{rng.randrange(40, 99)}-0{rng.randrange(1, 9)}-1{rng.randrange(0, 9)}",
                nationality="SK",
            )
            for j in range(3)
        ]
        out.append(
            CompanyRecord(
                country="SK",
                national_id=f"{50_000_000 + i}",
                name=f"BENCH {i} s.r.o.",
                roles=[RoleRecord("director", p.name, person=p) for p in persons],
            )
        )
    return out


def _valid_icos(start: int, n: int) -> list[str]:
    """`n` Slovak IČOs with valid check digits from `start` on (the loader refuses the others)."""
    out: list[str] = []
    candidate = start
    while len(out) < n:
        try:
            out.append(parse_national_id("SK", str(candidate)))
        except InvalidIdentifier:
            pass
        candidate += 1
    return out


def _load(engine: Any, source: SourceInfo, records: list[CompanyRecord]) -> float:
    sync_catalogue(engine, [source])
    loader = Loader(engine, source)
    started = time.perf_counter()
    for record in records:
        loader.add(record)
    loader.flush()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--companies", type=int, default=5000)
    parser.add_argument("--withhold", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--traders", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(7)
    records = _records(args.companies, rng)
    original = sections._withheld_keys
    runs: dict[bool, list[float]] = {True: [], False: []}
    inside: list[float] = []  # seconds spent in the look-up during each checked load

    def timed(conn: Any, keys: set[str]) -> set[str]:
        started = time.perf_counter()
        try:
            return original(conn, keys)
        finally:
            inside[-1] += time.perf_counter() - started

    for _ in range(args.rounds):
        for check in (True, False):
            engine = make_engine(f"sqlite:///{tempfile.mkdtemp(prefix='benchpriv-')}/p.db")
            upgrade(engine)
            if check:
                inside.append(0.0)
            sections._withheld_keys = timed if check else (lambda conn, keys: set())  # type: ignore[assignment]
            try:
                runs[check].append(_load(engine, _source("bench_a"), records))
            finally:
                sections._withheld_keys = original
            engine.dispose()
    with_check, without = statistics.median(runs[True]), statistics.median(runs[False])
    engine = make_engine(f"sqlite:///{tempfile.mkdtemp(prefix='benchpriv-')}/p.db")
    upgrade(engine)
    _load(engine, _source("bench_a"), records)
    # the look-up alone, over the whole batch, with 100 keys suppressed
    with engine.begin() as conn:
        keys = [k for k in conn.execute(select(people.c.person_key).limit(args.withhold + 100)).scalars()]
    now = datetime.now(UTC)
    timings = []
    with engine.begin() as conn:
        for key in keys[args.withhold :]:
            conn.execute(
                privacy_person_suppressions.insert().values(
                    person_key=key, request_id=None, reason="object", roles_removed=0, created_at=now
                )
            )
    holder_keys = {sections._role_row(r)["holder_key"] for rec in records for r in rec.roles or []}
    with engine.connect() as conn:
        started = time.perf_counter()
        hits = original(conn, holder_keys)
        lookup = time.perf_counter() - started
    for key in keys[: args.withhold]:
        with engine.begin() as conn:
            started = time.perf_counter()
            privacy.withhold_person(conn, key, None, "erase", now)
            timings.append((time.perf_counter() - started) * 1000)
    p = percentiles(timings)
    sole = [
        CompanyRecord(
            country="SK",
            national_id=national_id,
            name=f"Osoba {i} - BENCH",
            legal_form="101",  # a sole trader
            roles=[
                RoleRecord("owner", f"Osoba {i}", person=PersonRecord(f"Osoba {i}", birth_date="1970-01"))
            ],
        )
        for i, national_id in enumerate(_valid_icos(60_000_000, args.traders))
    ]
    _load(engine, _source("bench_b"), sole)
    with engine.connect() as conn:  # those the loader took (identifiers without valid check digits are not)
        loaded = list(
            conn.execute(select(companies.c.national_id).where(companies.c.legal_form == "101")).scalars()
        )
    held, lifted, cpu_started = [], [], time.process_time()
    for national_id in loaded:
        with engine.begin() as conn:
            started = time.perf_counter()
            traders.withhold_company(conn, "SK", national_id, None, "erase", now)
            held.append((time.perf_counter() - started) * 1000)
    for national_id in loaded:
        with engine.begin() as conn:
            started = time.perf_counter()
            traders.lift_company(conn, traders.company_key("SK", national_id))
            lifted.append((time.perf_counter() - started) * 1000)
    trader_cpu = time.process_time() - cpu_started
    ph, pl = percentiles(held), percentiles(lifted)
    rows = [
        (
            "load with the suppression look-up",
            f"{with_check:.2f} s",
            f"median of {args.rounds}; "
            f"{args.companies} companies, {3 * args.companies} person roles; of it in the look-up "
            f"{statistics.median(inside) * 1000:.1f} ms (nobody withheld)",
        ),
        ("load without it", f"{without:.2f} s", f"median of {args.rounds}"),
        (
            "the look-up alone",
            f"{lookup * 1000:.1f} ms",
            f"{len(holder_keys)} keys in one call, {len(hits)} of 100 suppressed found",
        ),
        ("withhold_person p50 / p95", f"{p['p50']:.1f} / {p['p95']:.1f} ms", f"{args.withhold} persons"),
        (
            "withhold_company p50 / p95",
            f"{ph['p50']:.1f} / {ph['p95']:.1f} ms",
            f"{len(loaded)} sole traders among {args.companies + len(loaded)} companies",
        ),
        (
            "lift_company p50 / p95",
            f"{pl['p50']:.1f} / {pl['p95']:.1f} ms",
            f"CPU for both: {trader_cpu:.2f} s",
        ),
    ]
    table = Table("case", "time", "note", title=f"privacy ({engine.dialect.name})")
    for row in rows:
        table.add_row(*row)
    Console().print(table)
    load = os.getloadavg()
    result = {
        "dialect": engine.dialect.name,
        "companies": args.companies,
        "load_with_check_s": with_check,
        "load_without_check_s": without,
        "runs_with_s": runs[True],
        "runs_without_s": runs[False],
        "lookup_during_load_s": inside,
        "lookup_ms": lookup * 1000,
        "withhold_ms": p,
        "withhold_company_ms": ph,
        "lift_company_ms": pl,
        "traders_cpu_s": trader_cpu,
        "machine": platform.platform(),
        "load_avg": load,
        "at": now.isoformat(),
    }
    out = BENCH / "results" / f"privacy_{engine.dialect.name}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=2))
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; saved {out}")


if __name__ == "__main__":
    main()
