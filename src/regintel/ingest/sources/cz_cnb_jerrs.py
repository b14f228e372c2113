"""Česká národní banka, list of regulated and registered financial-market entities (JERRS, Seznam
regulovaných a registrovaných subjektů finančního trhu, https://apl.cnb.cz/apljerrsdad/JERRS.WEB07.INTRO_PAGE):
one row per authorisation, with the type of entity (bank, insurer, payment institution, investment firm
...), the authorisation, its state and dates.

Read as the list's table (columns `ID subjektu`, `Název`, `IČO`, `Sídlo`, `Typ subjektu`, `Oprávnění`,
`Stav oprávnění`, `Datum vzniku oprávnění`, `Datum zániku oprávnění`), `;`-separated UTF-8. The entity type
(else the authorisation) decides the category and so the DORA and NIS2 flags (areas/regulated/rules.py)."""

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
    id="cz_cnb_jerrs",
    name="ČNB list of regulated financial-market entities (JERRS)",
    publisher="Česká národní banka",
    country="CZ",
    category="supervision",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 6/1993 Coll. on the Czech National Bank); no licence text found",
    licence_url="https://www.cnb.cz/cs/dohled-financni-trh/seznamy/",
    attribution="Zdroj: Česká národní banka, JERRS",
    url="https://apl.cnb.cz/apljerrsdad/JERRS.WEB07.INTRO_PAGE",
    cadence="weekly",
    snapshots=False,
)


class JerrsSource(RegulatedCsvSource):
    info = INFO
    required = ("ID subjektu", "Název", "IČO", "Typ subjektu", "Oprávnění", "Stav oprávnění")
    optional = ("Sídlo", "Datum vzniku oprávnění", "Datum zániku oprávnění")

    def convert(self, row: dict[str, str]) -> Authorisation:
        kind = need(row, "Typ subjektu")
        category = financial_category(kind)
        if category == "other":
            category = financial_category(row.get("Oprávnění") or "")
        ended, published = day(row, "Datum zániku oprávnění"), text(row, "Stav oprávnění")
        address = text(row, "Sídlo")
        licence = need(row, "Oprávnění")
        return Authorisation(
            source=INFO.id,
            country="CZ",
            sector="financial",
            record_key=f"{need(row, 'ID subjektu')}/{licence}"[:200],
            name=need(row, "Název"),
            national_id=national_id(row, "IČO", "CZ"),
            address=address,
            city=city_of(address),
            licence_type=kind,
            licence_number=licence,
            category=category,
            status=status(published, ended),
            status_text=published,
            granted_on=day(row, "Datum vzniku oprávnění"),
            ended_on=ended,
        )


SOURCE = register_section(JerrsSource())
