"""Energetický regulační úřad (ERÚ), the Czech energy regulator: holders of licences under the Energy Act
(458/2000 Coll., § 4) and the Heat Act, https://www.eru.cz/licence, one row per licence.

Read as the list of licence holders (columns `Číslo licence`, `Druh licence`, `Držitel licence`, `IČ`,
`Sídlo`, `Datum udělení`, `Datum zániku`, `Stav`), `;`-separated UTF-8. `Druh licence` starts with the
licence group code (11 electricity generation ... 32 heat distribution; rules.ERU_CODES), which decides the
NIS2 Annex I subsector. Drinking and waste water are not licensed by ERÚ (docs/regulated.md)."""

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
    id="cz_eru",
    name="ERÚ licence holders (energy and heat)",
    publisher="Energetický regulační úřad",
    country="CZ",
    category="supervision",
    formats="CSV (the list of licence holders, ;-separated)",
    licence="Public list (Act 458/2000 Coll., Energy Act, § 4); no licence text found",
    licence_url="https://www.eru.cz/licence",
    attribution="Zdroj: Energetický regulační úřad",
    url="https://www.eru.cz/licence",
    cadence="monthly",
    snapshots=False,
)


class EruSource(RegulatedCsvSource):
    info = INFO
    required = ("Číslo licence", "Druh licence", "Držitel licence", "IČ")
    optional = ("Sídlo", "Datum udělení", "Datum zániku", "Stav")

    def convert(self, row: dict[str, str]) -> Authorisation:
        kind, number, ended = need(row, "Druh licence"), need(row, "Číslo licence"), day(row, "Datum zániku")
        published, address = text(row, "Stav"), text(row, "Sídlo")
        return Authorisation(
            source=INFO.id,
            country="CZ",
            sector="energy",
            record_key=number[:200],
            name=need(row, "Držitel licence"),
            national_id=national_id(row, "IČ", "CZ"),
            address=address,
            city=city_of(address),
            licence_type=kind,
            licence_number=number,
            category=energy_activity(kind),
            status=status(published, ended),
            status_text=published,
            granted_on=day(row, "Datum udělení"),
            ended_on=ended,
        )


SOURCE = register_section(EruSource())
