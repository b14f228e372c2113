"""State aid awards from the European Commission's State Aid Transparency public search (the Transparency
Award Module, TAM: webgate.ec.europa.eu/competition/transparency/public): each award a member state
published under Article 9 of the General Block Exemption Regulation (GBER, Regulation (EU) No 651/2014),
ABER, FIBER or a notified measure, as the search exports it to CSV: comma-separated, UTF-8, amounts in
full units of the award's currency with a decimal point, dates `dd/mm/yyyy`.

The beneficiary's `National ID` is the identifier the granting authority entered: a register number or a
VAT number. The funds area tries it as the country's register number, then as a VAT number, then links by
name and country (docs/funds.md, "Linking"). `Aid measure type` says under which legal basis the award
was granted; `/companies/{ico}/gber` shows the GBER ones."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.ingest.base import RecordError, Source, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register
from regintel.ingest.sources.funds_records import Award, Beneficiary, amount, country, currency, day, text

INFO = SourceInfo(
    id="eu_state_aid_tam",
    name="State Aid Transparency: individual aid awards (TAM)",
    publisher="European Commission, DG Competition (data entered by the member states)",
    country=None,
    category="public_money",
    formats="CSV export of the State Aid Transparency public search",
    licence="CC-BY-4.0 (Commission Decision 2011/833/EU on the reuse of Commission documents)",
    licence_url="https://commission.europa.eu/legal-notice_en",
    attribution="Source: State Aid Transparency Public Search, European Commission",
    url="https://webgate.ec.europa.eu/competition/transparency/public",
    cadence="monthly",
)
COLUMNS = (
    "Country",
    "SA.Number",
    "Ref-no.",
    "National ID",
    "Name of the beneficiary",
    "Region",
    "Sector (NACE)",
    "Aid instrument",
    "Objectives of the aid",
    "Nominal amount",
    "Aid element",
    "Currency",
    "Date of granting",
    "Granting authority",
    "Aid measure title",
    "Aid measure type",
)
DATES = ("%d/%m/%Y", "%Y-%m-%d")
CASE_URL = "https://competition-cases.ec.europa.eu/cases/{sa}"


class StateAidSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Award | RecordError]:
        csv_file = open_csv(stream)
        yield from csv_file.records(csv_file.index(COLUMNS, "State Aid Transparency export"), _award)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.funds.importing import run_funds_import

        return run_funds_import(engine, self, location, data_dir)


def _award(row: dict[str, str]) -> Award:
    ref, name = text(row["Ref-no."]), text(row["Name of the beneficiary"])
    if not ref or not name:
        raise RecordError("award without a reference number or a beneficiary")
    granted = day(row["Date of granting"], DATES)
    sa = (text(row["SA.Number"]) or "").replace(" ", "") or None
    measure_type = text(row["Aid measure type"])
    return Award(
        kind="state_aid",
        record_key=ref,
        beneficiary=Beneficiary(name, country(row["Country"]), national_id=text(row["National ID"])),
        title=text(row["Aid measure title"]),
        currency=currency(row["Currency"], "EUR"),
        amount=amount(row["Nominal amount"], "en"),
        aid_element=amount(row["Aid element"], "en"),
        fund=text(row["Aid instrument"]),
        objective=text(row["Objectives of the aid"]),
        region=text(row["Region"]),
        nace=text(row["Sector (NACE)"]),
        granting_body=text(row["Granting authority"]),
        measure=sa,
        measure_type=measure_type.upper() if measure_type else None,
        granted_on=granted,
        year=granted.year if granted else None,
        link=CASE_URL.format(sa=sa) if sa else None,
    )


SOURCE = register(cast(Source, StateAidSource()))
