"""Slovenská advokátska komora (Slovak Bar Association): the list of lawyers (advokáti), with the form in
which each practises (alone, in an association, or through a law firm, named with its IČO) and the contact
the Bar publishes (https://www.sak.sk/web/sk/cms/lawyer/search).

Read as the list's table (columns `Evidenčné číslo`, `Titul`, `Meno`, `Priezvisko`, `Stav`, `Dátum zápisu`,
`Obchodné meno`, `IČO`, `Adresa`, `Telefón`, `E-mail`, `Web`), `;`-separated UTF-8. Lawyers are natural
persons: the API shows their contact only with a declared purpose (docs/regulated.md)."""

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
    id="sk_sak",
    name="Slovak Bar Association: list of lawyers",
    publisher="Slovenská advokátska komora",
    country="SK",
    category="professionals",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 586/2003 Coll. on the legal profession); no licence text found",
    licence_url="https://www.sak.sk/",
    attribution="Zdroj: Slovenská advokátska komora",
    url="https://www.sak.sk/web/sk/cms/lawyer/search",
    cadence="monthly",
    snapshots=False,
)


class SakSource(RegulatedCsvSource):
    info = INFO
    required = ("Evidenčné číslo", "Meno", "Priezvisko")
    optional = (*CONTACT, "Dátum zápisu", "Obchodné meno", "IČO")

    def convert(self, row: dict[str, str]) -> Professional:
        return professional(
            INFO,
            row,
            role="lawyer",
            key="Evidenčné číslo",
            name=person_name(row, "Meno", "Priezvisko"),
            firm="Obchodné meno",
            firm_id="IČO",
            since="Dátum zápisu",
        )


SOURCE = register_section(SakSource())
