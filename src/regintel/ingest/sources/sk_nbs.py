"""Národná banka Slovenska, register of financial-market entities (Register subjektov,
https://subjekty.nbs.sk/): every entity NBS authorised or registered, one row per authorisation, with the
sector (banking, insurance, capital market, pension saving, payment services, financial intermediation,
consumer credit) and the kind of authorisation, its state and dates.

Read as the table the register shows (columns `ID subjektu`, `Názov`, `IČO`, `Sídlo`, `Sektor`, `Druh
povolenia`, `Stav`, `Dátum udelenia`, `Dátum zániku`), `;`-separated UTF-8. The kind of authorisation
(else the sector) decides the category and so the DORA and NIS2 flags (areas/regulated/rules.py)."""

from __future__ import annotations

from regintel.areas.regulated.records import Authorisation
from regintel.areas.regulated.rules import financial_category
from regintel.ingest.base import SourceInfo
from regintel.ingest.sources.regulated_common import (
    RegulatedCsvSource,
    city_of,
    day,
    national_id,
    need,
    register_section,
    status,
    text,
)

INFO = SourceInfo(
    id="sk_nbs",
    name="NBS register of financial-market entities (Register subjektov)",
    publisher="Národná banka Slovenska",
    country="SK",
    category="supervision",
    formats="CSV (the register's table, ;-separated)",
    licence="Public register (Act 747/2004 Coll. on financial-market supervision); no licence text found",
    licence_url="https://subjekty.nbs.sk/",
    attribution="Zdroj: Národná banka Slovenska, Register subjektov",
    url="https://subjekty.nbs.sk/",
    cadence="weekly",
    snapshots=False,
)


class NbsSource(RegulatedCsvSource):
    info = INFO
    required = ("ID subjektu", "Názov", "IČO", "Sektor", "Druh povolenia", "Stav")
    optional = ("Sídlo", "Dátum udelenia", "Dátum zániku")

    def convert(self, row: dict[str, str]) -> Authorisation:
        kind = need(row, "Druh povolenia")
        category = financial_category(kind)
        if category == "other":
            category = financial_category(row.get("Sektor") or "")
        ended, published = day(row, "Dátum zániku"), text(row, "Stav")
        address = text(row, "Sídlo")
        return Authorisation(
            source=INFO.id,
            country="SK",
            sector="financial",
            record_key=f"{need(row, 'ID subjektu')}/{kind}"[:200],
            name=need(row, "Názov"),
            national_id=national_id(row, "IČO", "SK"),
            address=address,
            city=city_of(address),
            licence_type=kind,
            category=category,
            status=status(published, ended),
            status_text=published,
            granted_on=day(row, "Dátum udelenia"),
            ended_on=ended,
        )


SOURCE = register_section(NbsSource())
