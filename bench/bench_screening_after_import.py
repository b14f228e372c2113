"""What an import costs the screening after it (issue 17): load N new companies through the loader, as
`regintel import` does (its default hooks queue `screening.changed_companies` in the batch transactions),
then run that job's handler and time it. The lists are imported first when the database has none (the
full OFAC SDN list and the UN list from shared/data by default).

It writes N companies, their change rows and their screenings into the database: run it on a scratch copy.

    .venv/bin/python bench/bench_screening_after_import.py --db /tmp/x/synth1m.db -n 10000
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from sqlalchemy import func, select

from regintel.areas.screening import queries
from regintel.areas.screening.hits import screen_changed_companies
from regintel.areas.screening.importer import import_list
from regintel.db.engine import make_engine
from regintel.db.jobs import SCREEN_CHANGED
from regintel.db.schema import companies, jobs
from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader
from regintel.ingest.runner import sync_catalogue

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
SOURCE = SourceInfo(
    id="bench_screening",
    name="benchmark companies",
    publisher="regintel bench",
    country="SK",
    category="synthetic",
    formats="generated",
    licence="none",
    attribution="generated",
    url="https://example.invalid",
    cadence="on-demand",
)
WORDS = "Tatra Dunaj Horský Potok Zelená Lúka Kamenný Most Biely Vrch Nový Dvor Stavby Obchod Servis".split()


def new_icos(engine, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    with engine.connect() as conn:
        taken = {
            r[0] for r in conn.execute(select(companies.c.national_id).where(companies.c.country == "SK"))
        }
    out: set[str] = set()
    while len(out) < count:
        ico = f"{rng.randrange(10_000_000, 99_999_999):08d}"
        if ico not in taken and is_valid_national_id("SK", ico):
            out.add(ico)
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True, help="A scratch SQLite file (written)")
    parser.add_argument("-n", type=int, default=10_000, help="New companies to import")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    engine = make_engine(f"sqlite:///{args.db.resolve()}")
    with engine.connect() as conn:
        lists = queries.all_lists(conn)
        total = conn.execute(select(func.count()).select_from(companies)).scalar_one()
    if not lists:
        t = time.perf_counter()
        import_list(engine, "sanctions_ofac", SHARED / "sanctions_ofac" / "ofac_sdn.csv")
        import_list(
            engine, "sanctions_un", SHARED / "sanctions_un" / "un_sc_consolidated_list_2026-02-27.xml"
        )
        print(f"lists imported in {time.perf_counter() - t:.1f} s")
    with engine.connect() as conn:
        entries = sum(queries.count_entries(conn, str(r["id"])) for r in queries.all_lists(conn))
    rng = random.Random(args.seed)
    records = [
        CompanyRecord(country="SK", national_id=ico, name=f"{' '.join(rng.sample(WORDS, 3))} s.r.o.")
        for ico in new_icos(engine, args.n, args.seed)
    ]
    sync_catalogue(engine, [SOURCE])
    load0 = os.getloadavg()[0]
    t, c = time.perf_counter(), time.process_time()
    loader = Loader(engine, SOURCE)
    with loader.holding_connection():
        for rec in records:
            loader.add(rec)
        loader.flush()
    load_s, load_cpu = time.perf_counter() - t, time.process_time() - c
    with engine.connect() as conn:
        queued = conn.execute(
            select(jobs.c.id, jobs.c.payload).where(jobs.c.kind == SCREEN_CHANGED, jobs.c.status == "queued")
        ).all()
    assert len(queued) == 1, f"expected one waiting screening job, found {len(queued)}"
    t, c = time.perf_counter(), time.process_time()
    result = screen_changed_companies(engine, int(queued[0][1]["from_change"]))
    job_s, job_cpu = time.perf_counter() - t, time.process_time() - c
    print(
        f"{total:,} companies, {entries:,} listed entries; imported {loader.stats.inserted:,} new in "
        f"{load_s:.1f} s (CPU {load_cpu:.1f} s); screening job: {result['companies']:,} companies, "
        f"{result['hits']} hits, {job_s:.1f} s wall, {job_cpu:.1f} s CPU "
        f"({1000 * job_cpu / max(result['companies'], 1):.2f} ms CPU a company); "
        f"load average {load0:.1f} / {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
