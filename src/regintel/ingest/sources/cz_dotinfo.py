"""DotInfo (dotinfo.cz): the Czech Ministry of Finance's portal of subsidies granted from the state
budget, state funds, regions and municipalities, with their recipients; its open-data export is a CSV
with one row per subsidy: semicolon-separated, UTF-8, amounts in CZK (requested and approved; the approved
one is stored) with a decimal comma and spaces
between thousands, dates `dd.mm.yyyy`.

The recipient's IČO (`Příjemce - IČ`) is the Czech register number by definition: a recipient whose IČO
no company holds stays unlinked rather than being matched by name to someone else (docs/funds.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register
from regintel.ingest.sources.funds_records import Award, Beneficiary, amount, day, text

INFO = SourceInfo(
    id="cz_dotinfo",
    name="DotInfo: Czech subsidies and their recipients",
    publisher="Ministerstvo financí České republiky",
    country="CZ",
    category="public_money",
    formats="CSV open-data export (one row per subsidy)",
    licence="Open data without restrictions (Act 106/1999 Coll., § 3(11)); attribution requested",
    licence_url="https://opendata.mfcr.cz/",
    attribution="Zdroj: DotInfo, Ministerstvo financí ČR (dotinfo.cz)",
    url="https://www.dotinfo.cz/",
    cadence="monthly",
)
COLUMNS = (
    "Evidenční číslo dotace",
    "Název dotace",
    "Účel dotace",
    "Příjemce - obchodní jméno",
    "Příjemce - IČ",
    "Poskytovatel dotace",
    "Program",
    "Částka schválená",
    "Datum poskytnutí",
)
DATES = ("%d.%m.%Y", "%Y-%m-%d")


class DotInfoSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Award | RecordError]:
        csv_file = open_csv(stream, delimiter=";")
        yield from csv_file.records(csv_file.index(COLUMNS, "DotInfo export"), _award)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.funds.importing import run_funds_import

        return run_funds_import(engine, self, location, data_dir)


def _award(row: dict[str, str]) -> Award:
    number, recipient = text(row["Evidenční číslo dotace"]), text(row["Příjemce - obchodní jméno"])
    if not number or not recipient:
        raise RecordError("row without a subsidy number or a recipient")
    granted = day(row["Datum poskytnutí"], DATES)
    return Award(
        kind="cz_subsidy",
        record_key=number,
        beneficiary=Beneficiary(recipient, "CZ", national_id=text(row["Příjemce - IČ"])),
        title=text(row["Název dotace"]),
        objective=text(row["Účel dotace"]),
        currency="CZK",
        amount=amount(row["Částka schválená"], "cs"),
        programme=text(row["Program"]),
        granting_body=text(row["Poskytovatel dotace"]),
        granted_on=granted,
        year=granted.year if granted else None,
    )


SOURCE = register(cast(Source, DotInfoSource()))
