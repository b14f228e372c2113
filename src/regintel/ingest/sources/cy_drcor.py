"""Cyprus Department of Registrar of Companies and Intellectual Property (DRCIP / Τμήμα Εφόρου
Εταιρειών) open data on data.gov.cy: `organisations_<date>.csv` (one row per registered organisation,
comma-separated, UTF-8 with BOM), read alone or as the published set in one zip with
`registered_office_<date>.csv` (ADDRESS_SEQ_NO, STREET, BUILDING, TERRITORY), joined by ADDRESS_SEQ_NO,
and `organisation_officials_<date>.csv` (REGISTRATION_NO, ORGANISATION_TYPE_CODE,
PERSON_OR_ORGANISATION_NAME, OFFICIAL_POSITION), whose officials become roles: a director (Διευθυντής /
Director, Σύμβουλος) is a director, every other position (secretary, …) a statutory_body with the
position as title; a name ending in a company suffix (LIMITED, LTD, PLC, …) is held by an organisation,
any other by a natural person (served under the purpose gate).

Identifier: the registration number, digits only in the file, unique only within its organisation
type, so it is written with the prefix the registrar itself uses: `HE` for companies (type C), `AE`
for overseas companies registered in Cyprus (O), `S` for partnerships (P) — "HE123456". Cyprus has no
check digit on it and python-stdnum has no module for it: the shape (prefix and 1 to 8 digits) is
checked. Business names (type N, a trade name registered by a person or firm, not a legal person) and
type B (not described by the publisher) are skipped with that reason.

Status (`ORGANISATION_STATUS`, Greek or English words): registered / active (Εγγεγραμμένη, Ενεργή) is
active; struck off (Διαγραμμένη), dissolved (Διαλυμένη), merged into another (Συγχωνευμένη) or
relocated abroad (Μετοικήσασα) is dissolved; in liquidation (Υπό Εκκαθάριση, voluntary or by the court)
is active with in_liquidation; under examinership (Υπό Εξέταση, the Cypriot court rescue procedure) is
in_restructuring. Cyprus has no bankruptcy of a company (an insolvent company is wound up), so
`in_bankruptcy` is never set. A status none of these words matches keeps the organisation without a
status and is reported.

VAT: the Cypriot VAT number (8 digits and a letter, python-stdnum `cy.vat`) is issued by the Tax
Department and not derived from the registration number: none is derived. The file has no
activities (no NACE). The whole island is one NUTS 3 region (CY000), set when an address is known.
Records that the publisher splits after the name (the name alone on a line, the rest on the next
line, padded to the full width) are joined again.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.csvstream import CsvFile, open_csv
from regintel.ingest.fields import date_in_name, dmy_date, iso_date, join
from regintel.ingest.sources import register
from regintel.ingest.sources.elf_names import elf_code

INFO = SourceInfo(
    id="cy_drcor",
    name="Registrar of Companies – registered organisations (open data)",
    publisher="Department of Registrar of Companies and Intellectual Property, Republic of Cyprus",
    country="CY",
    category="register",
    formats="organisations_*.csv, or a zip with organisations_*.csv and registered_office_*.csv",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: Department of Registrar of Companies and Intellectual Property, data.gov.cy",
    url="https://www.data.gov.cy/node/4006",
    cadence="weekly",
)
REQUIRED = (
    "ORGANISATION_NAME",
    "REGISTRATION_NO",
    "ORGANISATION_TYPE_CODE",
    "ORGANISATION_TYPE",
    "REGISTRATION_DATE",
    "ORGANISATION_STATUS",
)
PREFIX = {"C": "HE", "O": "AE", "P": "S"}
SKIPPED = {
    "N": "business name (a registered trade name, not a legal person)",
    "B": "organisation type B (not described by the publisher)",
}


class _Status:
    def __init__(self, status: str, in_liquidation: bool = False, in_restructuring: bool = False):
        self.status, self.in_liquidation, self.in_restructuring = status, in_liquidation, in_restructuring


# Folded keywords, the most final first ("struck off after liquidation" is struck off).
STATUSES: tuple[tuple[str, _Status], ...] = (
    ("διαγραμ", _Status("dissolved")),
    ("struck", _Status("dissolved")),
    ("διαλυ", _Status("dissolved")),
    ("dissolved", _Status("dissolved")),
    ("συγχωνευ", _Status("dissolved")),
    ("merged", _Status("dissolved")),
    ("μετοικ", _Status("dissolved")),
    ("relocat", _Status("dissolved")),
    ("εκκαθαρ", _Status("active", in_liquidation=True)),
    ("liquidat", _Status("active", in_liquidation=True)),
    ("εξεταση", _Status("active", in_restructuring=True)),
    ("examin", _Status("active", in_restructuring=True)),
    ("εγγεγραμμεν", _Status("active")),
    ("ενεργ", _Status("active")),
    ("registered", _Status("active")),
    ("active", _Status("active")),
)


class DrcorSource:
    info = INFO
    reads_archive = True  # organisations and registered offices are joined by ADDRESS_SEQ_NO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        published = date_in_name(name)
        if not _is_zip(stream):
            yield from _organisations(stream, {}, published)
            return
        archive = zipfile.ZipFile(stream)
        members = {m.filename.rsplit("/", 1)[-1].lower(): m for m in archive.infolist()}
        orgs = next((m for n, m in members.items() if n.startswith("organisations")), None)
        if orgs is None:
            raise SourceAbort("not a Registrar of Companies file set: the zip has no organisations_*.csv")
        published = published or date_in_name(orgs.filename)
        offices = next((m for n, m in members.items() if n.startswith("registered_office")), None)
        addresses: dict[str, str] = {}
        if offices is not None:
            with archive.open(offices) as fh:
                addresses = _addresses(open_csv(fh))
        officials = next((m for n, m in members.items() if n.startswith("organisation_officials")), None)
        people: dict[str, list[RoleRecord]] | None = None
        if officials is not None:
            with archive.open(officials) as fh:
                people = _officials(open_csv(fh))
        with archive.open(orgs) as fh:
            yield from _organisations(fh, addresses, published, people)


def _is_zip(stream: IO[bytes]) -> bool:
    if not getattr(stream, "seekable", lambda: False)():
        return False
    head = stream.read(4)
    stream.seek(0)
    return head.startswith(b"PK")


def _addresses(csv_file: CsvFile) -> dict[str, str]:
    """ADDRESS_SEQ_NO -> "BUILDING, STREET, TERRITORY" (held in memory while organisations are read)."""
    columns = csv_file.index(("ADDRESS_SEQ_NO", "STREET", "BUILDING", "TERRITORY"), "registered_office CSV")
    out: dict[str, str] = {}
    for item in csv_file.rows:
        if isinstance(item, RecordError):
            continue
        row = item[1]
        text = join([row[columns[c]] for c in ("BUILDING", "STREET", "TERRITORY")])
        if text:
            out[row[columns["ADDRESS_SEQ_NO"]].strip()] = " ".join(text.replace("_", " ").split())
    return out


def _officials(csv_file: CsvFile) -> dict[str, list[RoleRecord]]:
    """National id -> the organisation's officials (held in memory while organisations are read)."""
    columns = csv_file.index(
        ("REGISTRATION_NO", "ORGANISATION_TYPE_CODE", "PERSON_OR_ORGANISATION_NAME", "OFFICIAL_POSITION"),
        "organisation_officials CSV",
    )
    out: dict[str, list[RoleRecord]] = {}
    for item in csv_file.rows:
        if isinstance(item, RecordError):
            continue
        row = item[1]
        kind, number = row[columns["ORGANISATION_TYPE_CODE"]].strip(), row[columns["REGISTRATION_NO"]].strip()
        name = " ".join(row[columns["PERSON_OR_ORGANISATION_NAME"]].split())
        if kind not in PREFIX or not number.isdigit() or not name:
            continue
        title = " ".join(row[columns["OFFICIAL_POSITION"]].split()) or None
        folded = fold(title or "")
        role = (
            "director"
            if ("director" in folded or "διευθυντ" in folded or "συμβουλ" in folded)
            else ("statutory_body")
        )
        corporate = bool(_CORPORATE.search(fold(name)))
        out.setdefault(PREFIX[kind] + number.lstrip("0"), []).append(
            RoleRecord(role, name, person=None if corporate else PersonRecord(name), title=title)
        )
    return out


_CORPORATE = re.compile(r"\b(limited|ltd|λιμιτεδ|plc|llc|inc|s\.?a|gmbh|b\.?v)\b\.?$")


def _organisations(
    stream: IO[bytes],
    addresses: dict[str, str],
    published: date | None,
    people: dict[str, list[RoleRecord]] | None = None,
) -> Iterator[CompanyRecord | RecordError | Skipped]:
    csv_file = open_csv(stream)
    columns = csv_file.index(REQUIRED, "Registrar of Companies organisations CSV")
    if csv_file.header[0] != "ORGANISATION_NAME":
        raise SourceAbort("organisations CSV: ORGANISATION_NAME must be the first column (split records)")
    csv_file.rows = _rejoined(csv_file.rows, len(csv_file.header), columns["ORGANISATION_TYPE_CODE"])
    for item in csv_file.records(columns, lambda row: to_record(row, addresses, published, people)):
        if isinstance(item, tuple):
            yield from item
        else:
            yield item


def _rejoined(
    rows: Iterator[tuple[int, list[str]] | RecordError], width: int, type_column: int
) -> Iterator[tuple[int, list[str]] | RecordError]:
    """Rows with a record the publisher split after its name put back together: the name alone on
    one line, the rest right-aligned (padded with empty cells at the end) on the next."""
    pending: tuple[int, str] | None = None
    for item in rows:
        if isinstance(item, RecordError):
            yield item
            continue
        line, cells = item
        if cells[0].strip() and not any(c.strip() for c in cells[1:]):
            if pending is not None:
                yield RecordError(
                    f"record split after its name on line {pending[0]} is incomplete",
                    {"ORGANISATION_NAME": pending[1]},
                )
            pending = (line, cells[0])
            continue
        if pending is not None:
            joined = _join(pending[1], cells, width)
            start, pending = pending[0], None
            if joined is not None and joined[type_column].strip() in (*PREFIX, *SKIPPED):
                yield line, joined
                continue
            yield RecordError(f"record split after its name on line {start} cannot be joined")
        yield line, cells
    if pending is not None:
        yield RecordError(
            f"record split after its name on line {pending[0]} is incomplete",
            {"ORGANISATION_NAME": pending[1]},
        )


def _join(name: str, cells: list[str], width: int) -> list[str] | None:
    tail = list(cells)
    while tail and not tail[-1].strip():
        tail.pop()
    pad = width - len(tail) - 1
    return [name, *[""] * pad, *tail] if pad >= 0 else None


def to_record(
    row: dict[str, str],
    addresses: dict[str, str],
    published: date | None = None,
    people: dict[str, list[RoleRecord]] | None = None,
) -> tuple[CompanyRecord | RecordError | Skipped, ...]:
    kind = row["ORGANISATION_TYPE_CODE"].strip().upper()
    if kind in SKIPPED:
        return (Skipped(SKIPPED[kind]),)
    if kind not in PREFIX:
        raise RecordError(f"ORGANISATION_TYPE_CODE is not C, O, P, N or B: {kind!r}")
    number = row["REGISTRATION_NO"].strip()
    if not number:
        raise RecordError("REGISTRATION_NO is empty")
    national_id = PREFIX[kind] + number.lstrip("0") if number.isdigit() else number
    form_type = row["ORGANISATION_TYPE"].strip()
    sub_type = row.get("ORGANISATION_SUB_TYPE", "").strip()
    form_name = sub_type or form_type or None
    elf = elf_code("CY", sub_type) or elf_code("CY", form_type)
    address = addresses.get(row.get("ADDRESS_SEQ_NO", "").strip())
    founded_on = _date(row["REGISTRATION_DATE"], "REGISTRATION_DATE")
    status_text = row["ORGANISATION_STATUS"].strip()
    status = _status(status_text) if status_text else None
    gone = status is not None and status.status == "dissolved"
    record = CompanyRecord(
        country="CY",
        national_id=national_id,
        name=" ".join(row["ORGANISATION_NAME"].split()) or None,
        source_record_id=national_id,
        published_on=published,
        legal_form=kind,
        legal_form_name=form_name,
        status=status.status if status else None,
        founded_on=founded_on,
        dissolved_on=(
            _date(row.get("ORGANISATION_STATUS_DATE", ""), "ORGANISATION_STATUS_DATE") if gone else None
        ),
        address_text=address,
        nuts3="CY000" if address else None,
        in_restructuring=status.in_restructuring and not gone if status else None,
        in_liquidation=status.in_liquidation and not gone if status else None,
        identifiers=(("elf", elf),) if elf else (),
        roles=None if people is None else tuple(people.get(national_id, ())),
    )
    if status_text and status is None:
        return record, RecordError(
            f"unknown ORGANISATION_STATUS kept out (company kept): {status_text!r}",
            {"REGISTRATION_NO": national_id},
        )
    return (record,)


def _status(value: str) -> _Status | None:
    folded = fold(value)
    return next((s for key, s in STATUSES if key in folded), None)


_DOTTED = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}")


def _date(value: str, name: str) -> date | None:
    value = value.strip()
    if "/" in value:
        return dmy_date(value[:10].strip(), name)
    if _DOTTED.fullmatch(value):
        return dmy_date(value.replace(".", "/"), name)
    return iso_date(value, name)


SOURCE = register(DrcorSource())
