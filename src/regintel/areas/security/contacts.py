"""KBO/BCE Open Data contact file → company domains (`regintel import be_kbo_contacts PATH`).

`contact.csv` (full extract) or `contact_delete.csv` + `contact_insert.csv` (daily update set) list per
entity its e-mail (`EMAIL`), website (`WEB`), telephone and fax. Enterprise rows (`EntityContact` ENT) with
a WEB or EMAIL value become domains; telephone and fax rows and establishment units (EST: not legal
entities) are skipped and counted. The input is a folder (the unpacked set), the KBO zip, or one contact
CSV. KBO's update procedure is "delete, then insert": an enterprise named in the delete or insert file has
exactly the inserted domains afterwards; a full extract replaces every domain of this source.

Only differences are written (a second import of the same set writes nothing), in one transaction with
the run record; a malformed file (wrong header) stops the import with nothing written. The local part of
an e-mail address is not kept (`@domain` only): KBO forbids re-using its personal data for marketing.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import partial
from pathlib import Path
from typing import IO

from regintel.areas.security.names import NotAHost, email_host, website_host
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.csvstream import open_csv

INFO = SourceInfo(
    id="be_kbo_contacts",
    name="KBO/BCE Open Data: contact details (websites and e-mail domains)",
    publisher="FOD Economie, K.M.O., Middenstand en Energie / SPF Economie",
    country="BE",
    category="register",
    formats="KBO Open Data contact.csv, or contact_delete.csv + contact_insert.csv (folder, zip or file)",
    licence="KBO Open Data licence (free re-use, commercial use allowed; no re-use of personal data for "
    "direct marketing)",
    licence_url="https://economie.fgov.be/en/themes/enterprises/crossroads-bank-enterprises/services-everyone/"
    "public-data-available-reuse/cbe-open-data",
    attribution="Source: Crossroads Bank for Enterprises (KBO/BCE), FPS Economy, KBO Open Data",
    url="https://kbopub.economie.fgov.be/kbo-open-data",
    cadence="daily",
)
KINDS = {"WEB": "website", "EMAIL": "email"}
COLUMNS = ("EntityNumber", "EntityContact", "ContactType", "Value")


@dataclass(frozen=True)
class DomainRow:
    national_id: str
    host: str
    registered_domain: str
    kind: str
    value: str
    record: str


@dataclass
class ContactSet:
    """What one input says: the enterprises it replaces (all, for a full extract) and their domains."""

    full: bool = False
    touched: set[str] = field(default_factory=set)
    rows: list[DomainRow] = field(default_factory=list)
    published_on: date | None = None
    rejects: list[RecordError] = field(default_factory=list)
    skips: dict[str, int] = field(default_factory=dict)
    read: int = 0

    def skip(self, reason: str) -> None:
        self.skips[reason] = self.skips.get(reason, 0) + 1


def read_set(location: str) -> ContactSet:
    """Parse a folder, zip or CSV file (no database access). Raises `SourceAbort` on a malformed input."""
    members = dict(_members(Path(location)))
    out = ContactSet()
    if "meta.csv" in members:
        out.published_on = _snapshot_date(members["meta.csv"]())
    names = [n for n in ("contact_delete.csv", "contact_insert.csv", "contact.csv") if n in members]
    if not names:
        raise SourceAbort(f"{location}: no contact.csv, contact_delete.csv or contact_insert.csv")
    out.full = "contact.csv" in names
    for name in names:
        with members[name]() as stream:
            if name == "contact_delete.csv":
                _read_deletes(stream, out)
            else:
                _read_contacts(stream, out)
    return out


Opener = Callable[[], IO[bytes]]


def _file_opener(path: Path) -> Opener:
    def opener() -> IO[bytes]:
        return path.open("rb")

    return opener


def _members(path: Path) -> Iterator[tuple[str, Opener]]:
    """(lower-case file name, opener) of each file of a folder, a zip, or the one file given (named by its
    role: a file that is not `contact.csv`, `contact_delete.csv` or `meta.csv` is read as an insert file)."""
    if path.is_dir():
        for p in sorted(path.iterdir()):
            yield p.name.lower(), _file_opener(p)
    elif path.is_file() and zipfile.is_zipfile(path):
        archive = zipfile.ZipFile(path)
        for info in archive.infolist():
            yield Path(info.filename).name.lower(), partial(archive.open, info)
    elif path.is_file():
        name = path.name.lower()
        role = name if name in ("contact.csv", "contact_delete.csv", "meta.csv") else "contact_insert.csv"
        yield role, _file_opener(path)
    else:
        raise SourceAbort(f"no such file or folder: {path}")


def _snapshot_date(stream: IO[bytes]) -> date | None:
    with stream:
        for row in csv.reader(io.TextIOWrapper(stream, encoding="utf-8-sig", errors="replace")):
            if len(row) == 2 and row[0] == "SnapshotDate":
                try:
                    return datetime.strptime(row[1], "%d-%m-%Y").date()
                except ValueError:
                    return None
    return None


def _enterprise(raw: str) -> str:
    try:
        return parse_national_id("BE", raw)
    except InvalidIdentifier as exc:
        raise RecordError(f"invalid enterprise number {raw!r}: {exc}") from None


def _read_deletes(stream: IO[bytes], out: ContactSet) -> None:
    table = open_csv(stream)
    cols = table.index(("EntityNumber",), "KBO contact_delete")
    for item in table.records({"EntityNumber": cols["EntityNumber"]}, lambda r: r["EntityNumber"].strip()):
        out.read += 1
        if isinstance(item, RecordError):
            out.rejects.append(item)
        elif item[:1] in ("0", "1"):
            try:
                out.touched.add(_enterprise(item))
            except RecordError as exc:
                exc.raw = {"EntityNumber": item}
                out.rejects.append(exc)
        else:
            out.skip("establishment unit (not a legal entity)")


def _read_contacts(stream: IO[bytes], out: ContactSet) -> None:
    table = open_csv(stream)
    cols = table.index(COLUMNS, "KBO contact")
    for item in table.records({c: cols[c] for c in COLUMNS}, _convert):
        out.read += 1
        if isinstance(item, RecordError):
            out.rejects.append(item)
        elif isinstance(item, str):
            out.skip(item)
        else:
            out.touched.add(item.national_id)
            out.rows.append(item)


def _convert(row: dict[str, str]) -> DomainRow | str:
    """A domain row, or the reason the row is skipped."""
    kind = KINDS.get(row["ContactType"].strip().upper())
    if row["EntityContact"].strip().upper() != "ENT":
        return "establishment or branch contact (not a legal entity)"
    if kind is None:
        return f"contact type {row['ContactType'].strip() or '(empty)'} (not a domain)"
    national_id = _enterprise(row["EntityNumber"].strip())
    value = row["Value"].strip()
    try:
        host = website_host(value) if kind == "website" else email_host(value)
    except NotAHost as exc:
        raise RecordError(str(exc)) from None
    shown = value if kind == "website" else "@" + value.rpartition("@")[2]
    return DomainRow(
        national_id,
        host.host,
        host.registered_domain,
        kind,
        shown,
        f"{row['EntityNumber'].strip()} {row['ContactType'].strip().upper()}",
    )


def now() -> datetime:
    return datetime.now(UTC)
