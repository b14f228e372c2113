"""Slovenská komora daňových poradcov (Chamber of Tax Advisers): the list of tax advisers, with the tax
advisory company each works through (name and IČO) and contact (https://www.skdp.sk/zoznam-danovych-poradcov).

Read as the list's table (columns `Číslo osvedčenia`, `Titul`, `Meno`, `Priezvisko`, `Spoločnosť`, `IČO
spoločnosti`, `Adresa`, `Telefón`, `E-mail`, `Web`, `Stav`), `;`-separated UTF-8."""

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
    id="sk_skdp",
    name="Chamber of Tax Advisers: list of tax advisers",
    publisher="Slovenská komora daňových poradcov",
    country="SK",
    category="professionals",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 78/1992 Coll. on tax advisers); no licence text found",
    licence_url="https://www.skdp.sk/",
    attribution="Zdroj: Slovenská komora daňových poradcov",
    url="https://www.skdp.sk/zoznam-danovych-poradcov",
    cadence="monthly",
    snapshots=False,
)


class SkdpSource(RegulatedCsvSource):
    info = INFO
    required = ("Číslo osvedčenia", "Meno", "Priezvisko")
    optional = (*CONTACT, "Spoločnosť", "IČO spoločnosti")

    def convert(self, row: dict[str, str]) -> Professional:
        return professional(
            INFO,
            row,
            role="tax_adviser",
            key="Číslo osvedčenia",
            name=person_name(row, "Meno", "Priezvisko"),
            firm="Spoločnosť",
            firm_id="IČO spoločnosti",
        )


SOURCE = register_section(SkdpSource())
