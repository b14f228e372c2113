"""Public-money benchmark: server-side latency of the area's reads on a filled database, and import rates.

Fills a database (a fresh SQLite file by default, or `--database-url`) with generated companies, TED notices
(with CPV codes, buyers and winners), contracts linked to the companies and VAT payers with bank accounts,
then times each use case in-process as a request runs it (a pooled connection, the service function, the
JSON body) over random inputs: p50/p95/p99 in ms. `ted/search` is timed with three filters (country, CPV,
date range). Import rates (records/s) are measured on the real Registr smluv dump repeated with fresh ids
and on the real TED notices, through `regintel import`'s code path.

    .venv/bin/python bench/bench_public_money.py --notices 100000 --contracts 1000000
    .venv/bin/python bench/bench_public_money.py --database-url sqlite:////big/regintel.db --onto \
        --companies 10000000 --notices 1000000 --contracts 10000000 --payers 1000000 --skip-imports

`--onto` writes onto a `regintel synth` build's companies instead of generating its own.
"""

from __future__ import annotations

import argparse
import csv
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
from schwifty import IBAN
from schwifty.exceptions import SchwiftyException
from sqlalchemy import Engine, insert, select

from regintel.api.envelope import dumps
from regintel.areas.public_money import bank_accounts as accounts_svc
from regintel.areas.public_money import contracts as contracts_svc
from regintel.areas.public_money import ted as ted_svc
from regintel.areas.public_money.tables import (
    bank_accounts,
    contracts,
    ted_buyers,
    ted_notice_cpv,
    ted_notices,
    ted_winners,
    vat_payers,
)
from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.db.schema import companies
from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_registr_smluv import SOURCE as REGISTR
from regintel.ingest.sources.sk_crz import SOURCE as CRZ
from regintel.ingest.sources.sk_fs_dph_iban import SOURCE as SK_IBAN
from regintel.ingest.sources.ted_csv import SOURCE as TED_CSV
from regintel.ingest.sources.ted_eforms import SOURCE as TED

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
console = Console(width=None if sys.stdout.isatty() else 170)
COUNTRIES = ("CZ", "SK", "PL", "AT", "DE", "FR", "HU", "IT", "ES", "NL")
DIVISIONS = ("03", "09", "15", "30", "33", "34", "45", "48", "50", "71", "72", "79", "80", "85", "90")
BATCH = 5_000


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


def fill(
    engine: Engine,
    n_companies: int,
    n_notices: int,
    n_contracts: int,
    seed: int,
    onto: bool = False,
    n_payers: int | None = None,
) -> dict[str, float]:
    """Fills the tables; returns the seconds each took (wall), so a larger run can be extrapolated. With
    `onto` the companies are those of the database (ids 1 to `n_companies`, as a `regintel synth` build
    numbers them) and only the public-money rows are written, linked to them; `n_payers` VAT payers (all
    companies by default) get a bank account each."""
    rng = random.Random(seed)
    now = datetime.now(UTC)
    took: dict[str, float] = {}
    t0 = time.perf_counter()
    if not onto:
        _batches(
            engine,
            companies,
            (
                {
                    "country": "CZ",
                    "national_id": f"{i:08d}",
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
    took["companies"] = time.perf_counter() - t0
    start = date(2018, 1, 1)

    def notice(i: int) -> dict[str, Any]:
        cpv = rng.choice(DIVISIONS) + f"{rng.randrange(10**6):06d}"
        value = rng.randrange(10_000, 50_000_000)
        return {
            "id": i,
            "notice_id": f"bench-{i}",
            "form": "ContractAwardNotice",
            "notice_type": "can-standard",
            "issue_date": start + timedelta(days=rng.randrange(2900)),
            "title": f"Tender {i}",
            "cpv_main": cpv,
            "country": rng.choice(COUNTRIES),
            "value": value,
            "currency": "EUR",
            "total_value": value,
            "total_currency": "EUR",
            "content_hash": "x",
            "imported_at": now,
        }

    t0 = time.perf_counter()
    notices = [notice(i) for i in range(1, n_notices + 1)]
    _batches(engine, ted_notices, iter(notices))
    _batches(
        engine,
        ted_notice_cpv,
        (
            {
                "notice_pk": n["id"],
                "cpv": n["cpv_main"],
                "division": n["cpv_main"][:2],
                "country": n["country"],
                "issue_date": n["issue_date"],
            }
            for n in notices
        ),
    )
    _batches(
        engine,
        ted_buyers,
        (
            {
                "notice_pk": n["id"],
                "org_ref": "ORG-0001",
                "name": f"Buyer {n['id'] % 5000}",
                "name_norm": f"buyer {n['id'] % 5000}",
                "country": n["country"],
            }
            for n in notices
        ),
    )
    _batches(
        engine,
        ted_winners,
        (
            {
                "notice_pk": n["id"],
                "lot_id": "LOT-0001",
                "org_ref": "ORG-0002",
                "name": f"Firma {c} s.r.o.",
                "name_norm": f"firma {c}",
                "country": "CZ",
                "company_id": c,
                "match_method": "identifier",
                "match_score": 1.0,
            }
            for n in notices
            for c in [rng.randrange(1, n_companies + 1)]
        ),
    )
    took["ted"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    _batches(
        engine,
        contracts,
        (
            {
                "source": "cz_registr_smluv",
                "record_key": str(i),
                "party_ref": "1",
                "role": "supplier",
                "party_name": "x",
                # onto a synth build the company is known by id only (its own national id is not
                # looked up for each of millions of rows), so the party's identifier is left empty
                "party_national_id": None if onto else f"{c:08d}",
                "party_country": None if onto else "CZ",
                "company_id": c,
                "match_method": "identifier",
                "match_score": 1.0,
                "buyer_name": f"Buyer {i % 5000}",
                "title": f"Smlouva {i}",
                "value": rng.randrange(1_000, 10_000_000),
                "currency": "CZK",
                "value_basis": "net",
                "signed_on": start + timedelta(days=rng.randrange(2900)),
                "record_hash": "x",
            }
            for i in range(1, n_contracts + 1)
            for c in [rng.randrange(1, n_companies + 1)]
        ),
    )
    took["contracts"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    payers = n_companies if n_payers is None else min(n_payers, n_companies)
    _batches(
        engine,
        vat_payers,
        (
            {
                "id": c,
                "country": "CZ",
                "vat_id": f"CZ{c:08d}",
                "national_id": f"{c:08d}",
                "company_id": c,
                "status": "reliable",
                "source": "cz_adis_crpdph",
                "record_hash": "x",
                "imported_at": now,
            }
            for c in range(1, payers + 1)
        ),
    )
    _batches(
        engine,
        bank_accounts,
        ({"payer_id": c, "iban": iban(c), "account": f"{c}/0800"} for c in range(1, payers + 1)),
    )
    took["vat_payers"] = time.perf_counter() - t0
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE")
    return took


@cache
def iban(c: int) -> str:
    """A valid Czech IBAN for company `c` (the account number passes ČNB's mod-11 weights)."""
    for k in range(100):
        number = c * 100 + k
        # ČNB's weights pre-screen the candidates (one in eleven passes), so schwifty, which decides,
        # builds one IBAN per company instead of eleven: the fill's payer step was mostly this loop.
        digits = f"{number:010d}"
        if sum(int(d) * w for d, w in zip(digits, (6, 3, 7, 9, 10, 5, 8, 4, 2, 1), strict=True)) % 11:
            continue
        candidate = IBAN.generate("CZ", bank_code="0800", account_code=str(number))
        try:
            return IBAN(candidate.compact, validate_bban=True).compact
        except SchwiftyException:
            continue
    raise ValueError(c)


def timed(engine: Engine, fn: Callable[[Any], Any], n: int) -> dict[str, float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        with engine.connect() as conn:
            dumps(fn(conn))
        out.append((time.perf_counter() - t0) * 1000)
    return percentiles(out)


def reads(
    engine: Engine, n_companies: int, n_notices: int, n: int, seed: int, n_payers: int | None = None
) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)

    def company(conn: Any) -> Any:
        return (
            conn.execute(select(companies).where(companies.c.id == rng.randrange(1, n_companies + 1)))
            .mappings()
            .one()
        )

    def search3(conn: Any) -> Any:
        day = date(2018, 1, 1) + timedelta(days=rng.randrange(2500))
        f = ted_svc.filters(
            conn,
            country=rng.choice(COUNTRIES),
            cpv_code=rng.choice(DIVISIONS),
            date_from=day,
            date_to=day + timedelta(days=365),
            value_min=None,
            value_max=None,
            currency=None,
            buyer=None,
            winner=None,
        )
        return ted_svc.search(conn, f, 1, 20)

    def search_winner(conn: Any) -> Any:
        f = ted_svc.filters(
            conn,
            country="CZ",
            cpv_code=None,
            date_from=None,
            date_to=None,
            value_min=None,
            value_max=None,
            currency=None,
            buyer=None,
            winner=None,
        )
        return ted_svc.search(conn, f, 1, 20)

    return {
        "ted/search country+cpv+dates": timed(engine, search3, n),
        "ted/search country only": timed(engine, search_winner, n),
        "ted/notice/{pub}": timed(
            engine, lambda c: ted_svc.notice(c, f"bench-{rng.randrange(1, n_notices + 1)}"), n
        ),
        "companies/{ico}/contracts": timed(
            engine, lambda c: contracts_svc.company_contracts(c, company(c), 1, 20), n
        ),
        "timeline contract events": timed(engine, lambda c: contracts_svc.timeline_events(c, company(c)), n),
        "companies/{ico}/bank-accounts": timed(
            engine, lambda c: accounts_svc.company_accounts(c, company(c)), n
        ),
        "bank-accounts/lookup": timed(
            engine, lambda c: accounts_svc.lookup(c, iban(rng.randrange(1, n_payers or n_companies))), n
        ),
    }


def crz_rate(engine: Engine, copies: int, folder: Path) -> dict[str, float]:
    """Records/s of the CRZ importer on the fixture's six good records repeated with fresh ids."""
    export = (ROOT / "tests/fixtures/sk_crz/2026-11-20.xml").read_text(encoding="utf-8")
    records = [r for r in export.split("\n") if r.startswith("<zmluva><ID>91000") and "91000" in r][:6]
    big = folder / "crz_big.xml"
    with open(big, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="utf-8"?>\n<zmluvy>\n')
        for k in range(copies):
            for r in records:
                out.write(r.replace("<ID>91000", f"<ID>{k + 1}91000") + "\n")
        out.write("</zmluvy>\n")
    t0 = time.perf_counter()
    _, stats, _ = run_import(engine, CRZ, str(big), folder / "data")
    elapsed = time.perf_counter() - t0
    return {
        "records": stats.read,
        "seconds": elapsed,
        "per_second": stats.read / elapsed,
        "file_mb": big.stat().st_size / 1e6,
    }


def ted_csv_rate(engine: Engine, copies: int, folder: Path) -> dict[str, float]:
    """Notices/s of the TED CSV importer on the fixture's three good notices (five rows) repeated with
    fresh ids (and no notice URL, so each copy's publication number comes from its id); wall and CPU."""
    with open(
        ROOT / "tests/fixtures/ted_csv/export_CAN_2019_fixture.csv", encoding="utf-8", newline=""
    ) as fh:
        header, *rows = list(csv.reader(fh))
    good = [r for r in rows if r[0] in ("2019104501", "2019215377", "2019301122")]
    key, url = header.index("ID_NOTICE_CAN"), header.index("TED_NOTICE_URL")
    big = folder / "export_CAN_big.csv"
    with open(big, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for k in range(copies):
            for r in good:
                copy = list(r)
                copy[key] = f"2019{k:06d}{r[0][-1]}"
                copy[url] = ""
                writer.writerow(copy)
    t0, c0 = time.perf_counter(), time.process_time()
    _, stats, _ = run_import(engine, TED_CSV, str(big), folder / "data")
    elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "records": stats.inserted,
        "rows": copies * len(good),
        "seconds": elapsed,
        "cpu_seconds": cpu,
        "per_second": stats.inserted / elapsed,
        "file_mb": big.stat().st_size / 1e6,
    }


def sk_iban_rate(engine: Engine, payers: int, folder: Path) -> dict[str, float]:
    """Rows/s of the Slovak account list importer on a generated export of `payers` payers with two
    accounts each (valid IČ DPH and IBANs), read twice: the first import writes, the second is the same
    list again (unchanged throughout); wall and CPU."""
    from stdnum.sk import dph

    big = folder / "ds_dph_iban.xml"
    with open(big, "w", encoding="utf-8") as out:
        out.write("<Z><DatumAktualizacieZoznamu>01122026</DatumAktualizacieZoznamu><DS_DPH_IBAN>\n")
        written, number = 0, 2020000000
        while written < payers:
            number += 1
            if not dph.is_valid(str(number)):
                continue
            written += 1
            for k in (0, 1):
                code = iban(written * 2 + k)  # valid Czech IBANs: the list has foreign accounts too
                out.write(f"<ITEM><IC_DPH>SK{number}</IC_DPH><IBAN>{code}</IBAN></ITEM>\n")
        out.write("</DS_DPH_IBAN></Z>\n")
    result: dict[str, float] = {"payers": payers, "rows": payers * 2, "file_mb": big.stat().st_size / 1e6}
    for run in ("first", "again"):
        t0, c0 = time.perf_counter(), time.process_time()
        run_import(engine, SK_IBAN, str(big), folder / "data")
        result[f"{run}_seconds"] = time.perf_counter() - t0
        result[f"{run}_cpu_seconds"] = time.process_time() - c0
        result[f"{run}_rows_per_cpu_second"] = payers * 2 / result[f"{run}_cpu_seconds"]
    return result


def import_rates(copies: int, ted_copies: int, crz_copies: int, folder: Path) -> dict[str, dict[str, float]]:
    """Records/s of the XML importers on fresh databases (no companies: linking finds nothing)."""
    dump = (ROOT / "tests/fixtures/cz_registr_smluv/dump_2025_11_01.xml").read_text(encoding="utf-8")
    head, _, rest = dump.partition("<zaznam>")
    body, _, tail = ("<zaznam>" + rest).rpartition("</zaznam>")
    body += "</zaznam>"
    big = folder / "dump_big.xml"
    with open(big, "w", encoding="utf-8") as out:
        out.write(head)
        for k in range(copies):
            out.write(body.replace("<idSmlouvy>", f"<idSmlouvy>{k}0").replace("<idVerze>", f"<idVerze>{k}0"))
        out.write(tail)
    out_rates = {}
    engine = make_engine(f"sqlite:///{folder}/imports.db", pool=False)
    upgrade(engine)
    t0 = time.perf_counter()
    _, stats, _ = run_import(engine, REGISTR, str(big), folder / "data")
    elapsed = time.perf_counter() - t0
    out_rates["cz_registr_smluv"] = {
        "records": stats.read,
        "seconds": elapsed,
        "per_second": stats.read / elapsed,
        "file_mb": big.stat().st_size / 1e6,
    }
    package = folder / "ted_package"  # a daily package unpacked: one notice a file, each with its own id
    package.mkdir()
    samples = sorted((ROOT / "tests/fixtures/ted_eforms").glob("c*.xml"))
    for k in range(ted_copies):
        for path in samples:
            text = path.read_text(encoding="utf-8")
            (package / f"{k:06d}-{path.name}").write_text(
                text.replace('<cbc:ID schemeName="notice-id">', f'<cbc:ID schemeName="notice-id">{k:06d}-'),
                encoding="utf-8",
            )
    files = len(samples) * ted_copies
    t0 = time.perf_counter()
    run_import(engine, TED, str(package), folder / "data")
    elapsed = time.perf_counter() - t0
    out_rates["ted_eforms (folder, one notice a file)"] = {
        "records": files,
        "seconds": elapsed,
        "per_second": files / elapsed,
        "file_mb": 0.0,
    }
    out_rates["sk_crz"] = crz_rate(engine, crz_copies, folder)
    out_rates["ted_csv"] = ted_csv_rate(engine, max(1, crz_copies // 2), folder)
    return out_rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url")
    parser.add_argument("--companies", type=int, default=100_000)
    parser.add_argument("--notices", type=int, default=100_000)
    parser.add_argument("--contracts", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument(
        "--dump-copies", type=int, default=200, help="copies of the 258-record dump to import"
    )
    parser.add_argument(
        "--ted-copies", type=int, default=200, help="copies of the 6 sample notices to import"
    )
    parser.add_argument("--crz-copies", type=int, default=10_000, help="copies of the 6 CRZ fixture records")
    parser.add_argument("--ted-csv-copies", type=int, default=30_000, help="copies of the 3 TED CSV notices")
    parser.add_argument(
        "--ted-csv-only", action="store_true", help="only the TED CSV import rate (no fill, no reads)"
    )
    parser.add_argument(
        "--sk-iban-only", type=int, metavar="PAYERS", help="only the Slovak account list import rate"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--existing", action="store_true", help="the database is already filled (same sizes)")
    parser.add_argument("--skip-imports", action="store_true", help="only fill and reads (no import rates)")
    parser.add_argument(
        "--onto",
        action="store_true",
        help="the database already holds --companies companies (a synth build, ids 1 to N): write only the "
        "public-money rows, linked to them",
    )
    parser.add_argument("--payers", type=int, help="VAT payers with a bank account (default: every company)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-pm-"))
    engine = make_engine(args.database_url or f"sqlite:///{folder}/bench.db")
    upgrade(engine)
    if args.ted_csv_only:
        before = os.getloadavg()
        rate = ted_csv_rate(engine, args.ted_csv_copies, folder)
        console.print(
            f"{engine.dialect.name}: ted_csv {rate['records']:,} notices ({rate['rows']:,} rows, "
            f"{rate['file_mb']:.1f} MB) in {rate['seconds']:.1f} s wall, {rate['cpu_seconds']:.1f} s CPU = "
            f"{rate['per_second']:,.0f} notices/s; load average before {before}, after {os.getloadavg()}"
        )
        return
    if args.sk_iban_only:
        before = os.getloadavg()
        rate = sk_iban_rate(engine, args.sk_iban_only, folder)
        console.print(
            f"{engine.dialect.name}: sk_fs_dph_iban {rate}; load average {before} → {os.getloadavg()}"
        )
        return
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    fill_steps: dict[str, float] = {}
    if not args.existing:
        fill_steps = fill(
            engine, args.companies, args.notices, args.contracts, args.seed, args.onto, args.payers
        )
    fill_s = time.perf_counter() - t0
    console.print(f"filled in {fill_s:.0f} s: {fill_steps}; load average {os.getloadavg()}")
    results = reads(engine, args.companies, args.notices, args.requests, args.seed, args.payers)
    load_reads = os.getloadavg()
    rates = (
        {} if args.skip_imports else import_rates(args.dump_copies, args.ted_copies, args.crz_copies, folder)
    )
    load_after = os.getloadavg()
    table = Table(
        "read",
        "n",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        title=f"{engine.dialect.name}: {args.companies:,} "
        f"companies, {args.notices:,} notices, {args.contracts:,} contracts (filled in {fill_s:.0f} s)",
    )
    for name, r in results.items():
        table.add_row(name, str(r["n"]), f"{r['p50']:.2f}", f"{r['p95']:.2f}", f"{r['p99']:.2f}")
    console.print(table)
    imports = Table("importer", "records", "seconds", "records/s", title="import rates (SQLite)")
    for name, r in rates.items():
        imports.add_row(name, f"{r['records']:,}", f"{r['seconds']:.1f}", f"{r['per_second']:,.0f}")
    console.print(imports)
    console.print(
        f"load average (1, 5, 15 min): before {load_before}, after the reads {load_reads}, "
        f"after the imports {load_after}"
    )
    out = BENCH / "results" / f"public_money-{datetime.now(UTC):%Y%m%dT%H%M%S}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "args": vars(args),
                "dialect": engine.dialect.name,
                "fill_seconds": fill_s,
                "fill_steps": fill_steps,
                "reads": results,
                "imports": rates,
                "load": {"before": load_before, "after_reads": load_reads, "after_imports": load_after},
            },
            indent=2,
        )
    )
    console.print(f"saved {out}")


if __name__ == "__main__":
    main()
