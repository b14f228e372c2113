"""Fixture paths and import helpers of the public-money tests."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, func, select

from regintel.ingest.runner import run_import
from regintel.ingest.sources.cz_adis_crpdph import SOURCE as ADIS
from regintel.ingest.sources.cz_registr_smluv import SOURCE as REGISTR
from regintel.ingest.sources.ted_eforms import SOURCE as TED

FIXTURES = Path(__file__).parent.parent / "fixtures"
TED_FILES = sorted((FIXTURES / "ted_eforms").glob("*.xml"))
DUMP = FIXTURES / "cz_registr_smluv" / "dump_2025_11_01.xml"
ADIS_DIR = FIXTURES / "cz_adis_crpdph"
ADIS_FILES = sorted(p for p in ADIS_DIR.glob("*.xml") if "maintenance" not in p.name)
MAINTENANCE = ADIS_DIR / "StatusNespolehlivyPlatceResponse_statusCode2_maintenance.xml"
UKRI, FRA, MAXIMAL, VEAT = (
    "75b70657-c146-4b5c-8d66-1ded90cdcd1d",
    "df45f4d1-2208-47cb-bc7a-9c7edcf8d2b8",
    "15377ca1-6cf7-4060-90f0-9290128957a3",
    "6ea164b2-228c-4ae8-b3b5-26f3946b8300",
)


def import_ted(engine: Engine, data_dir: Path) -> list[object]:
    return [run_import(engine, TED, str(path), data_dir)[1] for path in TED_FILES]


def import_registr(engine: Engine, data_dir: Path) -> object:
    return run_import(engine, REGISTR, str(DUMP), data_dir)[1]


def import_adis(engine: Engine, data_dir: Path) -> list[object]:
    return [run_import(engine, ADIS, str(path), data_dir)[1] for path in ADIS_FILES]


def count(engine: Engine, table: object) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]
