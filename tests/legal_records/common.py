"""Fixture paths, the companies the fixtures name, and import helpers of the legal-records tests."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, func, select

from regintel.domain.types import CompanyRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_esbirka import SOURCE as ESBIRKA
from regintel.ingest.sources.sk_court_decisions import SOURCE as COURTS
from regintel.ingest.sources.sk_ipkz import SOURCE as IPKZ
from regintel.ingest.sources.sk_pmu import SOURCE as PMU
from tests.builders import load_companies

FIXTURES = Path(__file__).parent.parent / "fixtures" / "legal_records"
FILES = {
    "sk_court_decisions": FIXTURES / "sk_court_decisions" / "rozhodnutia_2024-03.json",
    "sk_pmu": FIXTURES / "sk_pmu" / "rozhodnutia.json",
    "sk_ipkz": FIXTURES / "sk_ipkz" / "prevadzky.jsonl",
    "cz_esbirka": FIXTURES / "cz_esbirka" / "akty.json",
}
SOURCES = {"sk_court_decisions": COURTS, "sk_pmu": PMU, "sk_ipkz": IPKZ, "cz_esbirka": ESBIRKA}

SLOVNAFT, DUSLO, USS, ORANGE, TELEKOM, SE = (
    "31322832",
    "35826487",
    "36199222",
    "35697270",
    "35763469",
    "35829052",
)
CEPS, CEZ, LETISTE = "25702556", "45274649", "28244532"
COMPANIES = [
    CompanyRecord(
        country="SK",
        national_id=SLOVNAFT,
        name="SLOVNAFT, a.s.",
        street="Vlčie hrdlo 1",
        city="Bratislava",
        postal_code="82412",
    ),
    CompanyRecord(country="SK", national_id=DUSLO, name="Duslo, a.s.", city="Šaľa", postal_code="92703"),
    CompanyRecord(country="SK", national_id=USS, name="U. S. Steel Košice, s.r.o.", city="Košice"),
    CompanyRecord(country="SK", national_id=ORANGE, name="Orange Slovensko, a.s.", city="Bratislava"),
    CompanyRecord(country="SK", national_id=TELEKOM, name="Slovak Telekom, a.s.", city="Bratislava"),
    CompanyRecord(country="SK", national_id=SE, name="Slovenské elektrárne, a.s.", city="Bratislava"),
    CompanyRecord(country="CZ", national_id=CEPS, name="ČEPS, a.s.", city="Praha"),
    CompanyRecord(country="CZ", national_id=CEZ, name="ČEZ, a. s.", city="Praha"),
    CompanyRecord(country="CZ", national_id=LETISTE, name="Letiště Praha, a. s.", city="Praha"),
]


def load_fixture_companies(engine: Engine) -> None:
    load_companies(engine, *COMPANIES)


def import_one(engine: Engine, data_dir: Path, source_id: str, path: Path | None = None) -> object:
    return run_import(engine, SOURCES[source_id], str(path or FILES[source_id]), data_dir)[1]


def import_all(engine: Engine, data_dir: Path) -> dict[str, object]:
    return {sid: import_one(engine, data_dir, sid) for sid in FILES}


def count(engine: Engine, table: object) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]
