"""UK Companies House "Free Company Data Product" (BasicCompanyData): one CSV row per live or
recently dissolved company, 55 columns, dates dd/mm/yyyy, all values quoted. The monthly product is
a zip of one CSV or of several parts; `open_input` hands over the largest member."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import Address, date_in_name, dmy_date, join
from regintel.ingest.sources import register
from regintel.ingest.sources.gb_companies_house_codes import category_code, state_of

PUBLISHER = "Companies House"
LICENCE = "Open Government Licence v3.0"
LICENCE_URL = "https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/"
ATTRIBUTION = (
    "Contains public sector information licensed under the Open Government Licence v3.0 (Companies House)"
)

INFO = SourceInfo(
    id="gb_companies_house",
    name="Companies House – Free Company Data Product (BasicCompanyData)",
    publisher=PUBLISHER,
    country="GB",
    category="register",
    formats="BasicCompanyData CSV (55 columns), plain, .gz or the published .zip",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url="https://download.companieshouse.gov.uk/en_output.html",
    cadence="monthly",
)
REQUIRED = ("CompanyName", "CompanyNumber", "CompanyStatus", "CompanyCategory", "IncorporationDate")
SIC_COLUMNS = tuple(f"SICCode.SicText_{i}" for i in range(1, 5))
_SIC = re.compile(r"(\d{4,5})\s*-")


class CompaniesHouseSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        csv_file = open_csv(stream)
        columns = csv_file.index(REQUIRED, "Companies House BasicCompanyData CSV")
        published = date_in_name(name)
        yield from csv_file.records(columns, lambda row: to_record(row, published))


def to_record(row: dict[str, str], published: date | None = None) -> CompanyRecord:
    number = row["CompanyNumber"].strip()
    state = state_of(row["CompanyStatus"])
    category = row["CompanyCategory"].strip() or None
    sic = sic_codes(row)
    record = CompanyRecord(
        country="GB",
        national_id=number,
        name=row["CompanyName"].strip() or None,
        source_record_id=number,
        published_on=published,
        legal_form=category_code(category),
        legal_form_name=category,
        status=state.status,
        founded_on=dmy_date(row["IncorporationDate"], "IncorporationDate"),
        dissolved_on=dmy_date(row.get("DissolutionDate"), "DissolutionDate"),
        nace_primary=sic[0] if sic else None,
        nace_codes=tuple(sic) or None,
        in_bankruptcy=state.in_bankruptcy,
        in_restructuring=state.in_restructuring,
        in_liquidation=state.in_liquidation,
        **_address(row),
    )
    return record


def sic_codes(row: dict[str, str]) -> list[str]:
    """UK SIC 2007 codes from "78300 - Human resources provision …" (kept as the national 5 digits)."""
    codes = []
    for column in SIC_COLUMNS:
        match = _SIC.match(row.get(column, "").strip())
        if match and match[1] not in codes:
            codes.append(match[1])
    return codes


def _address(row: dict[str, str]) -> Address:
    def get(column: str) -> str | None:
        return row.get(f"RegAddress.{column}", "").strip() or None

    po_box = get("POBox")
    street = join([get("AddressLine1"), get("AddressLine2")])
    city = get("PostTown")
    postal_code = get("PostCode")
    # CareOf is left out: it names a person or an agent, not a place.
    address_text = join(
        [po_box and f"PO Box {po_box}", street, city, get("County"), postal_code, get("Country")]
    )
    return {"street": street, "city": city, "postal_code": postal_code, "address_text": address_text}


SOURCE = register(CompaniesHouseSource())
