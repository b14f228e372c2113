"""Irish Companies Registration Office (CRO) open data, "Companies" dataset (opendata.cro.ie): one
CSV row per company, comma-separated, UTF-8, dates YYYY-MM-DD (a time part is dropped).

Identifier: `company_num`, the CRO company number, 1 to 7 digits with no check digit, so it is only
checked for its shape (python-stdnum has no Irish company-number module). The CRO file is the
register's own; the number is written without leading zeros.

Status (`company_status`, only in the full file): "Normal" is a company on the register; "Strike
Off Listed" is still a company until it is struck off; "Liquidation" is a winding-up under way
(`in_liquidation`; Irish law has no bankruptcy of a company: an insolvent company is wound up, so
`in_bankruptcy` is never set); "Examinership" is the court rescue procedure (`in_restructuring`);
"Dissolved" (and "Deregistered", "Struck Off") is dissolved. See `ie_cro_codes.STATES`. A file
without the status column (an extract such as the sample) states no status and no flags; the loader
then records a new company as active (its rule for every source), and a dissolution date alone
makes it dissolved.

VAT: an Irish VAT number (IE + 7 digits + letters) is issued by Revenue and is not derived from the
CRO number, so none is derived. NACE: `nace_v2_code` is a NACE Rev. 2 class written as 4 digits
(leading zero lost when the publisher stored it as a number); stored as `62.02`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, iso_date, join
from regintel.ingest.sources import register
from regintel.ingest.sources.ie_cro_codes import ELF, STATES, State

INFO = SourceInfo(
    id="ie_cro",
    name="CRO – Companies (open data)",
    publisher="Companies Registration Office Ireland",
    country="IE",
    category="register",
    formats="CRO companies CSV (company_num, company_name, company_type, company_reg_date, addresses, "
    "eircode, nace_v2_code, and the status columns when present), .gz or .zip",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: Companies Registration Office (CRO), opendata.cro.ie, CC BY 4.0",
    url="https://opendata.cro.ie/dataset/companies",
    cadence="weekly",
)
REQUIRED = ("company_num", "company_name", "company_type", "company_reg_date")
ADDRESS = tuple(f"company_address_{i}" for i in range(1, 5))
_TYPE = re.compile(r"\s*([A-Z][A-Z-]*)\s+-\s+(.+?)\s*")


class CroSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        csv_file = open_csv(stream)
        columns = csv_file.index(REQUIRED, "CRO companies CSV")
        published = date_in_name(name)
        yield from csv_file.records(columns, lambda row: to_record(row, published))


def to_record(row: dict[str, str], published: date | None = None) -> CompanyRecord:
    number = row["company_num"].strip()
    if not number:
        raise RecordError("company_num is empty")
    form, form_name = _company_type(row.get("company_type_code", ""), row["company_type"])
    state = _state(row.get("company_status"))
    nace = _nace(row.get("nace_v2_code", ""))
    elf = ELF.get(f"{form}-G" if form == "DAC" and "guarantee" in (form_name or "").lower() else form or "")
    parts = [row.get(c, "").strip() for c in ADDRESS]
    postal_code = _eircode(row.get("eircode", ""))
    founded_on = iso_date(row["company_reg_date"], "company_reg_date")
    dissolved_on = iso_date(row.get("comp_dissolved_date"), "comp_dissolved_date")
    status = state.status if state is not None else "dissolved" if dissolved_on else None
    record = CompanyRecord(
        country="IE",
        national_id=number,
        name=row["company_name"].strip() or None,
        source_record_id=number,
        published_on=published,
        legal_form=form,
        legal_form_name=form_name,
        status=status,
        founded_on=founded_on,
        dissolved_on=dissolved_on,
        street=join(parts[:2]),
        postal_code=postal_code,
        address_text=join([*(p.strip(" ,") for p in parts), postal_code]),
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        in_bankruptcy=state.in_bankruptcy if state is not None else None,
        in_restructuring=state.in_restructuring if state is not None else None,
        in_liquidation=state.in_liquidation if state is not None else None,
        identifiers=(("elf", elf),) if elf else (),
    )
    return record


def _company_type(code: str, text: str) -> tuple[str | None, str | None]:
    """("LTD", "Private Company Limited by Shares") from "LTD - Private Company Limited by Shares"."""
    text = " ".join(text.split())
    match = _TYPE.fullmatch(text)
    if match:
        return match[1], match[2]
    return (code.strip() or None), (text or None)


def _state(value: str | None) -> State | None:
    if value is None or not value.strip():
        return None
    state = STATES.get(" ".join(value.lower().split()))
    if state is None:
        raise RecordError(f"company_status is not a known CRO status: {value!r}")
    return state


def _nace(value: str) -> str | None:
    value = value.strip().removesuffix(".0")
    if not value:
        return None
    if not value.isdigit() or len(value) > 4:
        raise RecordError(f"nace_v2_code is not a 4-digit NACE class: {value!r}")
    value = value.zfill(4)
    return f"{value[:2]}.{value[2:]}"


def _eircode(value: str) -> str | None:
    """An Eircode as "A65 F4E2" (routing key, space, unique identifier)."""
    compact = re.sub(r"\s", "", value).upper()
    if not compact:
        return None
    if len(compact) != 7 or not compact.isalnum():
        raise RecordError(f"eircode is not an Eircode: {value!r}")
    return f"{compact[:3]} {compact[3:]}"


SOURCE = register(CroSource())
