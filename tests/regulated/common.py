"""Fixture paths, companies and import helpers of the regulated-area tests."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, func, select

from regintel.domain.types import CompanyRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources import get_source
from tests.builders import load_companies

FIXTURES = Path(__file__).parent.parent / "fixtures" / "regulated"
FILES = {
    "sk_nbs": FIXTURES / "sk_nbs" / "register_subjektov.csv",
    "cz_cnb_jerrs": FIXTURES / "cz_cnb_jerrs" / "jerrs.csv",
    "sk_urso": FIXTURES / "sk_urso" / "povolenia.csv",
    "cz_eru": FIXTURES / "cz_eru" / "drzitele_licenci.csv",
    "sk_sak": FIXTURES / "sk_sak" / "advokati.csv",
    "sk_notari": FIXTURES / "sk_notari" / "notari.csv",
    "sk_exekutori": FIXTURES / "sk_exekutori" / "exekutori.csv",
    "sk_znalci": FIXTURES / "sk_znalci" / "znalci.csv",
    "sk_skdp": FIXTURES / "sk_skdp" / "danovi_poradcovia.csv",
}
SK_BANK, SK_INSURER, SK_PAYMENTS, SK_AGENT = "50101013", "50202022", "50303031", "52121216"
CZ_BANK, CZ_INSURER, CZ_EXCHANGE, CZ_EXCHANGE_OFFICE = "50404041", "50505050", "50707078", "50606069"
SK_POWER, SK_HEAT, SK_WATER, CZ_GRID, CZ_HEAT = "50808087", "50909096", "51010101", "51111110", "51212129"
LAW_FIRM, NOTARY_OFFICE, BAILIFF_OFFICE, EXPERT_FIRM, TRANSLATOR = (
    "51313138",
    "52323234",
    "51414147",
    "52424243",
    "52525252",
)
PENSION_NAME = "Horizont Test doplnková dôchodková spoločnosť, a.s."


def companies() -> list[CompanyRecord]:
    sk = [
        (SK_BANK, "Prvá testovacia banka, a.s."),
        (SK_INSURER, "Testovacia poisťovňa, a.s."),
        (SK_PAYMENTS, "Platby Test, s.r.o."),
        (SK_AGENT, "Kapitál Agent Test, s.r.o."),
        (SK_POWER, "Testovacia energetika, a.s."),
        (SK_HEAT, "Mestské teplo Test, s.r.o."),
        (SK_WATER, "Vodárenská spoločnosť Test, a.s."),
        (LAW_FIRM, "Advokátska kancelária Test, s.r.o."),
        (NOTARY_OFFICE, "Notársky úrad JUDr. Mária Notárska-Testová"),
        (BAILIFF_OFFICE, "Exekútorský úrad Mgr. Tomáš Exekučný"),
        (EXPERT_FIRM, "Znalecký ústav Test, s.r.o."),
        (TRANSLATOR, "Mgr. Eva Prekladová"),
        ("52222225", PENSION_NAME),
    ]
    cz = [
        (CZ_BANK, "První testovací banka, a.s."),
        (CZ_INSURER, "Testovací pojišťovna, a.s."),
        (CZ_EXCHANGE_OFFICE, "Směnárna Test s.r.o."),
        (CZ_EXCHANGE, "Burza Test, a.s."),
        (CZ_GRID, "Testovací distribuce, a.s."),
        (CZ_HEAT, "Teplárna Test, s.r.o."),
    ]
    return [CompanyRecord(country="SK", national_id=i, name=n, city="Bratislava") for i, n in sk] + [
        CompanyRecord(country="CZ", national_id=i, name=n) for i, n in cz
    ]


def load(engine: Engine) -> None:
    load_companies(engine, *companies())


def run(engine: Engine, data_dir: Path, source: str, path: Path | None = None) -> object:
    return run_import(engine, get_source(source), str(path or FILES[source]), data_dir)[1]


def import_all(engine: Engine, data_dir: Path) -> dict[str, object]:
    return {name: run(engine, data_dir, name) for name in FILES}


def count(engine: Engine, table: object, **where: object) -> int:
    query = select(func.count()).select_from(table)  # type: ignore[arg-type]
    for column, value in where.items():
        query = query.where(table.c[column] == value)  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return int(conn.execute(query).scalar_one())
