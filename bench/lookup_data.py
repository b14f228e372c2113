"""Synthetic companies written straight into a migrated regintel database, for the lookup benchmarks.

Loader-free on purpose: the benchmark needs 1M-10M rows in minutes, not the loader's change detection.
Rows follow the real schema and its invariants (valid check digits, bankruptcy and restructuring never
both set, identifiers and provenance rows, statements with `latest_financials` filled as the triggers
would, LEI records). Secondary indexes and the statement triggers are dropped during the load and
recreated from their own definitions afterwards, then the planner statistics are gathered.

    .venv/bin/python bench/lookup_data.py --entities 1000000 --seed 7 --database-url sqlite:////tmp/b.db
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import random
import sys
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from importlib.resources import files
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from stdnum.iso7064 import mod_97_10

sys.path.insert(0, str(Path(__file__).resolve().parent))
from genlib import WORDS, ico, orgnr, siren  # noqa: E402

from regintel.db.engine import make_engine  # noqa: E402
from regintel.db.migrate import MIGRATIONS, upgrade  # noqa: E402
from regintel.domain.names import fold  # noqa: E402
from regintel.ingest.seed import seed_reference_data  # noqa: E402

COUNTRIES = [("FR", 0.30), ("GB", 0.25), ("CZ", 0.20), ("SK", 0.15), ("NO", 0.10)]
SOURCE = {"SK": "bench_sk", "CZ": "bench_cz", "FR": "bench_fr", "GB": "bench_gb", "NO": "bench_no"}
CURRENCY = {"SK": "EUR", "CZ": "CZK", "FR": "EUR", "GB": "GBP", "NO": "NOK"}
FORMS = {
    "SK": [("112", "s.r.o."), ("121", "a.s."), ("101", ""), ("205", "družstvo"), ("701", "o.z.")],
    "CZ": [("112", "s.r.o."), ("121", "a.s."), ("101", ""), ("205", "družstvo"), ("706", "z.s.")],
    "FR": [("5710", "SAS"), ("5499", "SARL"), ("1000", ""), ("9220", "Association"), ("5599", "SA")],
    "GB": [("ltd", "Ltd"), ("plc", "PLC"), ("llp", "LLP"), ("limited-partnership", "LP"), ("ltd", "Limited")],
    "NO": [("AS", "AS"), ("ENK", ""), ("NUF", "NUF"), ("ANS", "ANS"), ("SA", "SA")],
}
CITIES = {
    "SK": ["Bratislava", "Košice", "Žilina", "Nitra", "Prešov"],
    "CZ": ["Praha", "Brno", "Ostrava", "Plzeň"],
    "FR": ["Paris", "Lyon", "Marseille", "Lille", "Nantes"],
    "GB": ["London", "Leeds", "Bristol", "Glasgow"],
    "NO": ["Oslo", "Bergen", "Trondheim", "Tromsø"],
}
BANDS = ["0", "1", "2", "3-4", "5-9", "10-19", "20-49", "50-99", "100-199", "250-499", "1000-1999"]
STREETS = ["Hlavná", "Nádražní", "Rue de la Paix", "High Street", "Storgata", "Mlynská", "Station Road"]
LEI_STATUS = ["ISSUED"] * 16 + ["LAPSED"] * 3 + ["RETIRED"]
COMPANY_COLUMNS = (
    "id",
    "country",
    "national_id",
    "name",
    "name_norm",
    "legal_form",
    "legal_form_name",
    "status",
    "founded_on",
    "dissolved_on",
    "street",
    "city",
    "postal_code",
    "address_text",
    "address_norm",
    "region_code",
    "district_code",
    "municipality_code",
    "nuts3",
    "nace_primary",
    "size_class",
    "employees",
    "vat_id",
    "tax_id",
    "lei",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "source",
    "created_at",
    "updated_at",
)
STATEMENT_COLUMNS = (
    "id",
    "company_id",
    "year",
    "currency",
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "employees",
    "source",
)


def reference() -> tuple[dict[str, list[str]], list[str]]:
    """NUTS 3 codes per market and NACE classes, from the code-list files regintel ships."""
    data = files("regintel").joinpath("data/codelists")
    nuts: dict[str, list[str]] = {}
    for row in csv.DictReader(io.StringIO(data.joinpath("nuts2021.csv").read_text("utf-8")), delimiter=";"):
        code = row["NUTS_ID"]
        if len(code) == 5:
            nuts.setdefault({"UK": "GB", "EL": "GR"}.get(code[:2], code[:2]), []).append(code)
    nace = [
        r["code"]
        for r in csv.DictReader(io.StringIO(data.joinpath("nace_rev2_eurostat.csv").read_text("utf-8")))
        if r["level"] == "4"
    ]
    return nuts, nace


class Ids:
    """Unique valid register numbers per country, by construction (a running index per country)."""

    def __init__(self) -> None:
        self.next = {"SK": 0, "CZ": 4_000_000, "FR": 0, "GB": 0, "NO": 0}

    def take(self, country: str) -> str:
        while True:
            i = self.next[country]
            self.next[country] += 1
            value = {"SK": ico, "CZ": ico, "FR": siren, "NO": orgnr}.get(country, lambda n: f"{n:08d}")(i)
            if value is not None:
                return value


def lei_for(n: int) -> str:
    body = f"9845{n:012d}XX"[:18].replace("XX", "00")
    return body + mod_97_10.calc_check_digits(body)


def nace_code(country: str, klass: str, rng: random.Random) -> str:
    digits = klass.replace(".", "")
    return {"FR": klass + "Z", "GB": digits + str(rng.randint(0, 9)), "NO": klass + "0"}.get(
        country, digits + "0"
    )


def companies(n: int, rng: random.Random, now: datetime) -> Iterator[dict[str, Any]]:
    nuts, nace = reference()
    ids = Ids()
    # 2% of companies sit at one of 100 "registered office" addresses per country.
    shell = {
        cc: [
            (
                rng.choice(STREETS),
                rng.randint(1, 99),
                f"{rng.randint(1000, 99999):05d}",
                rng.choice(CITIES[cc]),
            )
            for _ in range(100)
        ]
        for cc, _ in COUNTRIES
    }
    names = [(w, fold(w)) for w in WORDS]
    weights = [w for _, w in COUNTRIES]
    for cid in range(1, n + 1):
        cc = rng.choices([c for c, _ in COUNTRIES], weights)[0]
        form, suffix = rng.choice(FORMS[cc])
        (w1, n1), (w2, n2) = rng.choice(names), rng.choice(names)
        if rng.random() < 0.02:
            street, number, postal, city = rng.choice(shell[cc])
        else:
            street, number = rng.choice(STREETS), rng.randint(1, 400)
            postal, city = f"{rng.randint(1000, 99999):05d}", rng.choice(CITIES[cc])
        status = rng.choices(["active", "dissolved", "inactive"], [85, 12, 3])[0]
        founded = date(1990, 1, 1) + timedelta(days=rng.randint(0, 12_600))
        flag = rng.random()
        nat = ids.take(cc)
        address = f"{street} {number}, {postal} {city}"
        yield {
            "id": cid,
            "country": cc,
            "national_id": nat,
            "name": f"{w1} {w2} {suffix} {cid % 9973}".strip(),
            "name_norm": f"{n1} {n2} {cid % 9973}",
            "legal_form": form,
            "legal_form_name": suffix or None,
            "status": status,
            "founded_on": founded,
            "dissolved_on": founded + timedelta(days=rng.randint(30, 5000))
            if status == "dissolved"
            else None,
            "street": f"{street} {number}",
            "city": city,
            "postal_code": postal,
            "address_text": address,
            "address_norm": fold(address).replace(",", ""),
            "region_code": str(rng.randint(1, 8)),
            "district_code": str(rng.randint(101, 808)),
            "municipality_code": str(rng.randint(500000, 599999)),
            "nuts3": rng.choice(nuts.get(cc, [None])),
            "nace_primary": nace_code(cc, rng.choice(nace), rng),
            "size_class": rng.choice(BANDS),
            "employees": rng.randint(0, 500) if rng.random() < 0.5 else None,
            "vat_id": (
                "SK" + str(2020000000 + 11 * cid) if cc == "SK" else "CZ" + nat if cc == "CZ" else None
            )
            if rng.random() < 0.5
            else None,
            "tax_id": None,
            "lei": lei_for(cid) if rng.random() < 0.03 else None,
            "in_bankruptcy": flag < 0.005,
            "in_restructuring": 0.005 <= flag < 0.006,
            "in_liquidation": rng.random() < 0.02,
            "source": SOURCE[cc],
            "created_at": now - timedelta(days=rng.randint(1, 900)),
            "updated_at": now - timedelta(seconds=rng.randint(0, 90 * 86400)),
        }


def statements(company: dict[str, Any], rng: random.Random, next_id: list[int]) -> list[dict[str, Any]]:
    if rng.random() >= 0.4:
        return []
    scale = rng.lognormvariate(12, 2)
    rows = []
    for year in range(2023 - rng.randint(0, 2), 2024):
        next_id[0] += 1
        revenue = round(scale * rng.uniform(0.8, 1.2), 2)
        rows.append(
            {
                "id": next_id[0],
                "company_id": company["id"],
                "year": year,
                "currency": CURRENCY[company["country"]],
                "revenue": revenue,
                "profit": round(revenue * rng.uniform(-0.2, 0.2), 2),
                "total_assets": round(revenue * 0.8, 2),
                "equity": round(revenue * rng.uniform(-0.1, 0.5), 2),
                "liabilities": round(revenue * 0.4, 2),
                "employees": company["employees"],
                "source": company["source"],
            }
        )
    return rows


def _migration() -> Any:
    path = MIGRATIONS / "versions" / "0004_filters.py"
    spec = importlib.util.spec_from_file_location("m0004", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def secondary_indexes(engine: Engine) -> list[tuple[str, str]]:
    """(name, CREATE statement) of every non-unique secondary index on the tables we fill."""
    tables = (
        "companies",
        "identifiers",
        "company_sources",
        "financial_statements",
        "latest_financials",
        "lei_records",
    )
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            rows = conn.execute(
                text(
                    "SELECT name, sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL "
                    "AND name LIKE 'ix_%' AND tbl_name IN (" + ",".join(f"'{t}'" for t in tables) + ")"
                )
            ).all()
        else:
            rows = conn.execute(
                text(
                    "SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE 'ix_%' "
                    "AND tablename = ANY(:t)"
                ),
                {"t": list(tables)},
            ).all()
    return [(r[0], r[1]) for r in rows]


class Writer:
    """Batched inserts: executemany on SQLite, COPY on PostgreSQL."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        self.raw = engine.raw_connection()
        self.buffers: dict[str, tuple[tuple[str, ...], list[tuple[Any, ...]]]] = {}
        if self.sqlite:  # the engine's connections run in autocommit mode: one transaction for the load
            self.raw.cursor().execute("BEGIN")

    def add(self, table: str, row: dict[str, Any]) -> None:
        columns, rows = self.buffers.setdefault(table, (tuple(row), []))
        rows.append(tuple(row[c] for c in columns))
        if len(rows) >= 50_000:  # companies first: every other table points at them
            for name in list(self.buffers):
                self.flush(name)

    def flush(self, table: str) -> None:
        columns, rows = self.buffers.get(table, ((), []))
        if not rows:
            return
        cur = self.raw.cursor()
        if self.sqlite:
            cur.executemany(
                f"INSERT INTO {table} ({','.join(columns)}) VALUES ({','.join('?' * len(columns))})", rows
            )
        else:
            with cur.copy(f"COPY {table} ({','.join(columns)}) FROM STDIN") as copy:  # type: ignore[attr-defined]
                for row in rows:
                    copy.write_row(row)
        rows.clear()

    def close(self) -> None:
        for table in list(self.buffers):
            self.flush(table)
        self.raw.commit()
        self.raw.close()


def fill(engine: Engine, n: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    now = datetime.now(UTC).replace(microsecond=0)
    writer = Writer(engine)
    counts = {"companies": 0, "statements": 0, "leis": 0}
    statement_id = [0]
    for c in companies(n, rng, now):
        writer.add("companies", {k: c[k] for k in COMPANY_COLUMNS})
        counts["companies"] += 1
        pairs = []
        if c["country"] in ("SK", "CZ"):
            pairs.append(("ico", c["national_id"]))
        if c["vat_id"]:
            pairs.append(("ic_dph" if c["country"] == "SK" else "vat", c["vat_id"]))
        if c["lei"]:
            pairs.append(("lei", c["lei"]))
            counts["leis"] += 1
            writer.add(
                "lei_records",
                {
                    "lei": c["lei"],
                    "company_id": c["id"],
                    "legal_name": c["name"],
                    "registration_status": rng.choice(LEI_STATUS),
                    "entity_status": "ACTIVE",
                    "legal_form": None,
                    "country": c["country"],
                    "source": "bench_gleif",
                    "next_renewal": now + timedelta(days=rng.randint(-400, 365)),
                },
            )
        for kind, value in pairs:
            writer.add(
                "identifiers", {"type": kind, "value": value, "company_id": c["id"], "source": c["source"]}
            )
        writer.add(
            "company_sources",
            {
                "company_id": c["id"],
                "source": c["source"],
                "source_record_id": None,
                "published_on": None,
                "first_seen": c["created_at"],
                "last_seen": now - timedelta(days=rng.randint(0, 30)),
                "run_id": None,
            },
        )
        rows = statements(c, rng, statement_id)
        for row in rows:
            writer.add("financial_statements", row)
        if rows:
            counts["statements"] += len(rows)
            latest = rows[-1]
            writer.add(
                "latest_financials",
                {
                    "company_id": c["id"],
                    "country": c["country"],
                    "statement_id": latest["id"],
                    **{k: latest[k] for k in STATEMENT_COLUMNS[2:]},
                },
            )
    writer.close()
    return counts


def catalogue(engine: Engine, now: datetime) -> None:
    with engine.begin() as conn:
        for cc, source in [*SOURCE.items(), ("", "bench_gleif")]:
            conn.execute(
                text(
                    "INSERT INTO data_sources (id, name, publisher, country, category, formats, licence, "
                    "attribution, url, cadence, last_import_at, row_count) VALUES (:id, :name, 'regintel "
                    "bench', :cc, 'synthetic', 'generated', 'CC0 1.0', 'Synthetic benchmark data', NULL, "
                    "'on-demand', :at, 0)"
                ),
                {
                    "id": source,
                    "name": f"Synthetic {cc or 'LEI'} register (benchmark)",
                    "cc": cc or None,
                    "at": now,
                },
            )
            conn.execute(
                text(
                    "INSERT INTO import_runs (source, status, started_at, finished_at, stats) VALUES "
                    "(:s, 'succeeded', :at, :at, NULL)"
                ),
                {"s": source, "at": now},
            )


def load(database_url: str, n: int, seed: int) -> dict[str, Any]:
    engine = make_engine(database_url, pool=False)
    upgrade(engine)
    sqlite = engine.dialect.name == "sqlite"
    migration = _migration()
    indexes = secondary_indexes(engine)
    started = time.perf_counter()
    with engine.begin() as conn:
        for name, _ in indexes:
            conn.execute(text(f"DROP INDEX {name}"))
        if sqlite:
            for kind in ("insert", "update", "delete"):
                conn.execute(text(f"DROP TRIGGER trg_latest_financials_{kind}"))
        else:
            conn.execute(text("ALTER TABLE financial_statements DISABLE TRIGGER trg_latest_financials"))
    counts = fill(engine, n, seed)
    loaded = time.perf_counter()
    with engine.begin() as conn:
        for _, ddl in indexes:
            conn.execute(text(ddl))
        if sqlite:
            for ddl in migration.SQLITE_TRIGGERS:
                conn.execute(text(ddl))
        else:
            conn.execute(text("ALTER TABLE financial_statements ENABLE TRIGGER trg_latest_financials"))
    catalogue(engine, datetime.now(UTC))
    seed_reference_data(engine)  # the code lists, as `regintel serve` loads them at start-up
    with engine.connect() as conn:
        conn.execute(text("ANALYZE"))
        conn.commit()
    engine.dispose()
    return {**counts, "load_s": round(loaded - started, 1), "index_s": round(time.perf_counter() - loaded, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database-url", required=True, help="an empty database (it is migrated first)")
    args = parser.parse_args()
    print(load(args.database_url, args.entities, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
