"""Fixture paths, the companies the funds fixtures name, and import helpers of the funds tests."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, func, select

from regintel.domain.types import CompanyRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_dotinfo import SOURCE as DOTINFO
from regintel.ingest.sources.eu_cordis import SOURCE as CORDIS
from regintel.ingest.sources.eu_fts import SOURCE as FTS
from regintel.ingest.sources.eu_kohesio import SOURCE as KOHESIO
from regintel.ingest.sources.eu_state_aid_tam import SOURCE as TAM
from tests.builders import load_companies

FIXTURES = Path(__file__).parent.parent / "fixtures" / "funds"
FILES = {
    "eu_kohesio": [FIXTURES / "kohesio_projects.csv"],
    "eu_fts": [FIXTURES / "fts_2023.csv"],
    "eu_cordis": [FIXTURES / "cordis_project.csv", FIXTURES / "cordis_organization.csv"],
    "cz_dotinfo": [FIXTURES / "dotinfo.csv"],
    "eu_state_aid_tam": [FIXTURES / "tam_awards.csv"],
}
SOURCES = {
    "eu_kohesio": KOHESIO,
    "eu_fts": FTS,
    "eu_cordis": CORDIS,
    "cz_dotinfo": DOTINFO,
    "eu_state_aid_tam": TAM,
}
SLOVNAFT, CEZ, CUNI, ALZA = "31322832", "45274649", "00216208", "27082440"


def load_fund_companies(engine: Engine) -> None:
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=SLOVNAFT,
            name="SLOVNAFT, a.s.",
            vat_id="SK2020372640",
            city="Bratislava",
        ),
        CompanyRecord(country="CZ", national_id=CEZ, name="ČEZ, a. s.", city="Praha"),
        CompanyRecord(country="CZ", national_id=CUNI, name="Univerzita Karlova", city="Praha"),
        CompanyRecord(country="CZ", national_id=ALZA, name="Alza.cz a.s.", city="Praha"),
    )


def import_source(engine: Engine, data_dir: Path, source: str) -> list[object]:
    return [run_import(engine, SOURCES[source], str(path), data_dir)[1] for path in FILES[source]]


def import_all(engine: Engine, data_dir: Path) -> dict[str, list[object]]:
    return {name: import_source(engine, data_dir, name) for name in FILES}


def count(engine: Engine, table: object) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]
