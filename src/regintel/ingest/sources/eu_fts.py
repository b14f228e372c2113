"""The EU Financial Transparency System (FTS, ec.europa.eu/budget/financial-transparency-system): the
recipients of funds the Commission manages directly (grants, procurement, prizes) and of the European
Development Fund, published once a year as a download per financial year. The CSV download has one row
per (legal commitment, recipient): comma-separated, UTF-8, the recipient's country as an English name,
amounts in euro with a decimal point.

A recipient carries its VAT number when it has one (`VAT Number of beneficiary`): the funds area links
by it first, then by name and country (docs/funds.md, "Linking"). The Commission does not publish
natural persons' names (they read "Natural person"): such rows are skipped, not stored."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import IO, Any, cast

from regintel.ingest.base import RecordError, Skipped, Source, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register
from regintel.ingest.sources.funds_records import Award, Beneficiary, amount, country, text

INFO = SourceInfo(
    id="eu_fts",
    name="Financial Transparency System (recipients of EU funds managed by the Commission)",
    publisher="European Commission, DG Budget",
    country=None,
    category="public_money",
    formats="CSV download per financial year (one row per legal commitment and recipient)",
    licence="CC-BY-4.0 (Commission Decision 2011/833/EU on the reuse of Commission documents)",
    licence_url="https://commission.europa.eu/legal-notice_en",
    attribution="Source: Financial Transparency System, European Commission",
    url="https://ec.europa.eu/budget/financial-transparency-system/",
    cadence="yearly",
)
COLUMNS = (
    "Year",
    "Reference of the Legal Commitment (LC)",
    "Name of beneficiary",
    "VAT Number of beneficiary",
    "City",
    "Beneficiary country",
    "Subject of grant or contract",
    "Responsible Department",
    "Programme name",
    "Funding type",
    "Beneficiary's contracted amount (EUR)",
)
LINK = "https://ec.europa.eu/budget/financial-transparency-system/analysis.html"


class FtsSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Award | RecordError | Skipped]:
        csv_file = open_csv(stream)
        yield from csv_file.records(csv_file.index(COLUMNS, "Financial Transparency System"), _award)

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.funds.importing import run_funds_import

        return run_funds_import(engine, self, location, data_dir)


def _award(row: dict[str, str]) -> Award | Skipped:
    commitment, name = text(row["Reference of the Legal Commitment (LC)"]), text(row["Name of beneficiary"])
    if not commitment or not name:
        raise RecordError("row without a legal commitment reference or a recipient")
    if name.lower() == "natural person":
        return Skipped("natural person (the Commission publishes no name)")
    vat = (text(row["VAT Number of beneficiary"]) or "").replace(" ", "").upper() or None
    year = text(row["Year"])
    if year is not None and not (year.isdigit() and len(year) == 4):
        raise RecordError(f"{year!r} is not a year")
    contracted = amount(row["Beneficiary's contracted amount (EUR)"], "en")
    who = hashlib.sha1(f"{name.lower()}|{vat or ''}".encode(), usedforsecurity=False).hexdigest()[:12]
    return Award(
        kind="eu_project",
        record_key=f"{commitment}:{who}",
        beneficiary=Beneficiary(name, country(row["Beneficiary country"]), vat=vat, city=text(row["City"])),
        title=text(row["Subject of grant or contract"]),
        currency="EUR",
        amount=contracted,
        eu_amount=contracted,
        programme=text(row["Programme name"]),
        fund=text(row["Funding type"]),
        granting_body=text(row["Responsible Department"]),
        year=int(year) if year else None,
        link=LINK,
    )


SOURCE = register(cast(Source, FtsSource()))
