"""Slovenská komora exekútorov (Chamber of Bailiffs): the list of bailiffs with their office (exekútorský
úrad), its IČO, and contact (https://www.ske.sk/zoznam-exekutorov/).

Read as the list's table (columns `Evidenčné číslo`, `Titul`, `Meno a priezvisko`, `Exekútorský úrad`,
`IČO`, `Adresa`, `Telefón`, `E-mail`, `Stav`), `;`-separated UTF-8."""

from __future__ import annotations

from regintel.areas.regulated.records import Professional
from regintel.ingest.base import SourceInfo
from regintel.ingest.sources.regulated_common import (
    CONTACT,
    RegulatedCsvSource,
    person_name,
    professional,
    register_section,
)

INFO = SourceInfo(
    id="sk_exekutori",
    name="Chamber of Bailiffs: list of bailiffs",
    publisher="Slovenská komora exekútorov",
    country="SK",
    category="professionals",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 233/1995 Coll., Enforcement Code); no licence text found",
    licence_url="https://www.ske.sk/",
    attribution="Zdroj: Slovenská komora exekútorov",
    url="https://www.ske.sk/zoznam-exekutorov/",
    cadence="monthly",
    snapshots=False,
)


class ExekutoriSource(RegulatedCsvSource):
    info = INFO
    required = ("Evidenčné číslo", "Meno a priezvisko", "Exekútorský úrad")
    optional = (*CONTACT, "IČO")

    def convert(self, row: dict[str, str]) -> Professional:
        return professional(
            INFO,
            row,
            role="bailiff",
            key="Evidenčné číslo",
            name=person_name(row, "Meno a priezvisko"),
            firm="Exekútorský úrad",
            firm_id="IČO",
        )


SOURCE = register_section(ExekutoriSource())
