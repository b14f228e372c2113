"""Latvian Register of Enterprises (Uzņēmumu reģistrs, UR) open data: `register.csv`, one row per
entity ever registered in any of the registers UR keeps, `;`-separated, UTF-8, dates YYYY-MM-DD.

Identifier: `regcode`, the 11-digit registration number (reģistrācijas numurs). Legal persons'
numbers start with 4 (commercial register), 5 or 9 (other registers) and carry a weighted mod-11
check digit; python-stdnum's `lv.pvn` checks it (the VAT number of a legal person is "LV" + the
same 11 digits). A handful of entities of the enterprise register journal (regtype U) that were
closed before the 11-digit numbering (farms liquidated in 2005, numbers like `680100172`) have a
9-digit number with no check digit: they are skipped with that reason, not rejected.

Status: UR keeps every entity after it ends. `terminated` is the date the entity was struck off
and `closed` says how it ended: `L` likvidēts (liquidated and struck off), `R` reorganizēts (ended by
a merger or division). Either, or a `terminated` date, is `dissolved`; a row with neither is
registered and `active`. register.csv does not say whether a live entity is in liquidation or
insolvency (UR publishes those as separate notices and the insolvency register is kept by the
Insolvency Control Service), so the three flags are left unstated (None). A Latvian company in
liquidation adds "likvidācijā" to its name only in its documents, not in the register name.

VAT: register.csv does not say whether the entity is registered for VAT (the VRS keeps that
register), so no VAT id is derived although it would be "LV" + regcode.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, iso_date
from regintel.ingest.sources import register
from regintel.ingest.sources.lv_ur_codes import legal_form
from regintel.ingest.streams import peek

INFO = SourceInfo(
    id="lv_ur",
    name="Uzņēmumu reģistrs – register.csv (Register of Enterprises open data)",
    publisher="Uzņēmumu reģistrs (Register of Enterprises of the Republic of Latvia)",
    country="LV",
    category="register",
    formats="register.csv (`;`-separated, UTF-8, optional `sep=;` first line), .gz or .zip",
    licence="CC0 1.0",
    licence_url="https://creativecommons.org/publicdomain/zero/1.0/",
    attribution="Source: Register of Enterprises of the Republic of Latvia (Uzņēmumu reģistrs), data.gov.lv",
    url="https://data.gov.lv/dati/lv/dataset/uz",
    cadence="daily",
)
REQUIRED = ("regcode", "name", "regtype", "type", "type_text", "registered", "terminated", "closed")
CLOSED = {"L": "liquidated", "R": "reorganised"}


class UrSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        head, stream = peek(stream)
        if head.lstrip(b"\xef\xbb\xbf").startswith(b"sep="):
            stream.readline()  # Excel's separator hint, which some copies start with
        csv_file = open_csv(stream, delimiter=";")
        columns = csv_file.index(REQUIRED, "UR register.csv")
        published = date_in_name(name)
        yield from csv_file.records(columns, lambda row: to_record(row, published))


def to_record(row: dict[str, str], published: date | None = None) -> CompanyRecord | Skipped:
    code = row["regcode"].strip()
    if code.isdigit() and len(code) == 9:
        return Skipped("9-digit registration number from before the 11-digit numbering (no check digit)")
    closed = row["closed"].strip()
    if closed and closed not in CLOSED:
        raise RecordError(f"closed is not L, R or empty: {closed!r}")
    dissolved_on = iso_date(row["terminated"], "terminated")
    form = row["type"].strip() or None
    name_form, elf = legal_form(form)
    record = CompanyRecord(
        country="LV",
        national_id=code,
        name=row["name"].strip() or None,
        source_record_id=code,
        published_on=published,
        legal_form=form,
        legal_form_name=row["type_text"].strip() or name_form,
        status="dissolved" if closed or dissolved_on else "active",
        founded_on=iso_date(row["registered"], "registered"),
        dissolved_on=dissolved_on,
        address_text=row.get("address", "").strip() or None,
        postal_code=_postcode(row.get("index", "")),
        municipality_code=row.get("atvk", "").strip() or None,
        identifiers=(("elf", elf),) if elf else (),
    )
    return record


def _postcode(value: str) -> str | None:
    """UR writes the 4 digits of the postcode; Latvian addresses write it "LV-1039"."""
    value = value.strip()
    if not value:
        return None
    if not (value.isdigit() and len(value) == 4):
        raise RecordError(f"index is not a 4-digit postcode: {value!r}")
    return f"LV-{value}"


SOURCE = register(UrSource())
