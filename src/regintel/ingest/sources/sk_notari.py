"""Notárska komora Slovenskej republiky (Chamber of Notaries): the list of notaries with their office
(notársky úrad), its IČO where published, and contact (https://www.notar.sk/zoznam-notarov/).

Read as the list's table (columns `Číslo`, `Titul`, `Meno a priezvisko`, `Notársky úrad`, `IČO`, `Adresa`,
`Telefón`, `E-mail`, `Stav`), `;`-separated UTF-8. A notary is a natural person; the office's IČO links
the notary to the office's entry in the business registers."""

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
    id="sk_notari",
    name="Chamber of Notaries: list of notaries",
    publisher="Notárska komora Slovenskej republiky",
    country="SK",
    category="professionals",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 323/1992 Coll., Notarial Code); no licence text found",
    licence_url="https://www.notar.sk/",
    attribution="Zdroj: Notárska komora Slovenskej republiky",
    url="https://www.notar.sk/zoznam-notarov/",
    cadence="monthly",
    snapshots=False,
)


class NotariSource(RegulatedCsvSource):
    info = INFO
    required = ("Číslo", "Meno a priezvisko", "Notársky úrad")
    optional = (*CONTACT, "IČO")

    def convert(self, row: dict[str, str]) -> Professional:
        return professional(
            INFO,
            row,
            role="notary",
            key="Číslo",
            name=person_name(row, "Meno a priezvisko"),
            firm="Notársky úrad",
            firm_id="IČO",
        )


SOURCE = register_section(NotariSource())
