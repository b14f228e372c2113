"""Úrad pre reguláciu sieťových odvetví (ÚRSO), the Slovak network-industries regulator: the list of
permits to do business in energy (electricity, gas, heat) and of regulated water-sector entities
(https://www.urso.gov.sk/), one row per permit.

Read as the list's table (columns `Číslo povolenia`, `Obchodné meno`, `IČO`, `Sídlo`, `Druh činnosti`,
`Dátum vydania`, `Platnosť do`, `Stav`), `;`-separated UTF-8. The activity (`Druh činnosti`, in the act's
wording) decides the NIS2 Annex I subsector (areas/regulated/rules.py)."""

from __future__ import annotations

from regintel.areas.regulated.records import Authorisation
from regintel.areas.regulated.rules import energy_activity
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
    id="sk_urso",
    name="ÚRSO energy permits and regulated water entities",
    publisher="Úrad pre reguláciu sieťových odvetví",
    country="SK",
    category="supervision",
    formats="CSV (the list's table, ;-separated)",
    licence="Public list (Act 250/2012 Coll. on regulation in network industries); no licence text found",
    licence_url="https://www.urso.gov.sk/",
    attribution="Zdroj: Úrad pre reguláciu sieťových odvetví",
    url="https://www.urso.gov.sk/",
    cadence="monthly",
    snapshots=False,
)


class UrsoSource(RegulatedCsvSource):
    info = INFO
    required = ("Číslo povolenia", "Obchodné meno", "IČO", "Druh činnosti")
    optional = ("Sídlo", "Dátum vydania", "Platnosť do", "Stav")

    def convert(self, row: dict[str, str]) -> Authorisation:
        kind, until = need(row, "Druh činnosti"), day(row, "Platnosť do")
        published, address, number = text(row, "Stav"), text(row, "Sídlo"), need(row, "Číslo povolenia")
        return Authorisation(
            source=INFO.id,
            country="SK",
            sector="energy",
            record_key=f"{number}/{kind}"[:200],
            name=need(row, "Obchodné meno"),
            national_id=national_id(row, "IČO", "SK"),
            address=address,
            city=city_of(address),
            licence_type=kind,
            licence_number=number,
            category=energy_activity(kind),
            status=status(published, until),
            status_text=published,
            granted_on=day(row, "Dátum vydania"),
            valid_until=until,
        )


SOURCE = register_section(UrsoSource())
