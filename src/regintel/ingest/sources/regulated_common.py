"""The supervisory and licensing registers of the regulated area (national banks, energy regulators,
professional chambers): each publishes a table, read here as CSV with the publisher's column names.

A source module declares its catalogue entry, its columns and `convert(row)`; this module reads the
file (`ingest.csvstream`; UTF-8 or Windows-1250, `;` or `,` as the header shows), checks the header
(a file without the required columns is the wrong file and is rejected whole), and hands each row to
`convert`, which returns an `Authorisation` or a `Professional` (areas/regulated/records.py), a
`Skipped`, or raises `RecordError` for a row it cannot read. The rows are stored by the area
(`areas.regulated.importing`), not by the company loader.

The column layouts were written from each register's published fields with no real download at hand
(tests/fixtures/regulated/README.md): a real export's header is checked against `required` on import,
so a layout that differs is refused whole rather than misread."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import IO, Any, cast

from regintel.areas.regulated.records import Authorisation, Professional
from regintel.domain.identifiers import parse_national_id
from regintel.domain.names import fold
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.sources import register

Parsed = Authorisation | Professional | Skipped
MAX_BYTES = 256 << 20  # a register list is tens of MB at most; read whole to tell its encoding


class RegulatedCsvSource:
    """A register table in CSV. Subclasses set `info`, `required` and `optional` (column names as the
    publisher writes them) and `convert`."""

    info: SourceInfo
    suffixes: tuple[str, ...] = (".csv",)
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()

    def convert(self, row: dict[str, str]) -> Parsed:
        raise NotImplementedError

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Parsed | RecordError]:
        raw = stream.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise SourceAbort(f"{name} is larger than {MAX_BYTES >> 20} MB: not a register list")
        table = open_csv(io.BytesIO(raw), delimiter=_delimiter(raw), encoding=_encoding(raw))
        columns = table.index(self.required, f"{self.info.name} ({name})")
        present = {c: columns[c] for c in (*self.required, *self.optional) if c in columns}
        yield from table.records(present, self._convert)

    def _convert(self, row: dict[str, str]) -> Parsed:
        return self.convert({k: v.strip() for k, v in row.items()})

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.regulated.importing import run_regulated_import

        return run_regulated_import(engine, self, location, data_dir)


def _encoding(raw: bytes) -> str:
    """UTF-8 when the bytes are UTF-8, else Windows-1250 (what Czech and Slovak office exports write)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1250"
    return "utf-8-sig"


def _delimiter(raw: bytes) -> str:
    """`;` (the Czech and Slovak spreadsheet default) unless the header has more commas."""
    header = raw.split(b"\n", 1)[0]
    return "," if header.count(b",") > header.count(b";") else ";"


def register_section(source: RegulatedCsvSource) -> Source:
    """Register a section source: the runner hands it to the area (`import_into`), never to the company
    loader, so its records need not be company records."""
    return register(cast(Source, source))


def text(row: dict[str, str], column: str) -> str | None:
    value = " ".join((row.get(column) or "").split())
    return value or None


def need(row: dict[str, str], column: str) -> str:
    value = text(row, column)
    if value is None:
        raise RecordError(f"{column} is empty")
    return value


def day(row: dict[str, str], column: str) -> date | None:
    """A date as the Czech and Slovak registers write it (`1.2.2024`, `01.02.2024`) or ISO 8601."""
    value = text(row, column)
    if value is None:
        return None
    for fmt in ("%d.%m.%Y", "%Y-%m-%d", "%d. %m. %Y"):
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise RecordError(f"{column} {value!r} is not a date (d.m.yyyy or yyyy-mm-dd)")


def national_id(row: dict[str, str], column: str, country: str) -> str | None:
    """The IČO, zero-padded and checked; empty is None (foreign entities and branches have none)."""
    value = text(row, column)
    if value is None:
        return None
    compact = re.sub(r"\s", "", value)
    if compact.isdigit() and len(compact) < 8:
        compact = compact.zfill(8)
    try:
        return parse_national_id(country, compact)
    except InvalidIdentifier as exc:
        raise RecordError(f"{column} {value!r}: {exc}") from None


def status(published: str | None, ended_on: date | None) -> str:
    """active | suspended | ended, from the published status text, else from an end date in the past."""
    folded = fold(published or "")
    if any(w in folded for w in ("pozastav", "suspend")):
        return "suspended"
    if any(w in folded for w in ("zanik", "odnat", "zrus", "vyciark", "ukonc", "neplat", "skoncen", "revok")):
        return "ended"
    if ended_on is not None and ended_on <= date.today():
        return "ended"
    return "active"


def city_of(address: str | None) -> str | None:
    """The town of a Czech or Slovak one-line address ("Hlavná 1, 811 01 Bratislava" → "Bratislava")."""
    if not address:
        return None
    last = address.split(",")[-1].strip()
    town = re.sub(r"^\d{3}\s?\d{2}\s+", "", last).strip()
    return town or None


def person_name(row: dict[str, str], *columns: str) -> str:
    """The name as published, from one column ("Meno a priezvisko") or several ("Meno", "Priezvisko")."""
    name = " ".join(v for v in (text(row, c) for c in columns) if v)
    if not name:
        raise RecordError(f"{' / '.join(columns)} empty")
    return name


def professional(
    source: SourceInfo,
    row: dict[str, str],
    *,
    role: str,
    key: str,
    name: str,
    firm: str | None = None,
    firm_id: str | None = None,
    specialisation: str | None = None,
    since: str | None = None,
) -> Professional:
    """One professional of a Slovak list; the contact columns are the same in every list."""
    address, published = text(row, "Adresa"), text(row, "Stav")
    return Professional(
        source=source.id,
        country="SK",
        role=role,
        record_key=need(row, key)[:200],
        name=name,
        title=text(row, "Titul"),
        specialisation=text(row, specialisation) if specialisation else None,
        status=status(published, None),
        since=day(row, since) if since else None,
        firm_name=text(row, firm) if firm else None,
        firm_national_id=national_id(row, firm_id, "SK") if firm_id else None,
        address=address,
        city=city_of(address),
        phone=text(row, "Telefón"),
        email=text(row, "E-mail"),
        website=text(row, "Web"),
    )


CONTACT = ("Adresa", "Telefón", "E-mail", "Web", "Stav", "Titul")
