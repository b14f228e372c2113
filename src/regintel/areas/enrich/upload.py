"""A CSV upload as the input of an enrichment job: the file's rows become the job's entries.

The file needs a header row naming its columns (any case, spaces, dashes and underscores ignored): an
identifier column (`id`, `ico`, `national_id`, `identifier`, `company_number`, `registration_number`,
`siren`, `orgnr`, …) and/or a `name` column, with optional `country` and `city`. A row with an
identifier is looked up by it (`{"country"?, "id"}`); a row with only a name is resolved by name, with
its city and country as evidence (`{"name", "city"?, "country"?}`). A file of a single column that has no
known header is read as identifiers, its first line included.

Decoding is strict: UTF-8 (a byte-order mark is dropped), UTF-16 when the file starts with its mark, or
the `encoding` the caller names (`windows-1250`, `iso-8859-2`, …). The separator (comma, semicolon, tab or
pipe) is the one the header row uses, and the standard library's `csv` reads the rows (RFC 4180 quoting,
quoted separators and line breaks). Every refusal is a 422 naming the line, before anything is queued."""

from __future__ import annotations

import codecs
import csv
import io
import re
import unicodedata
from typing import Any

from regintel.errors import ValidationFailed

MAX_BYTES = 16 * 1024 * 1024
ID_LENGTH, NAME_LENGTH, CITY_LENGTH = 64, 300, 100
SEPARATORS = ",;\t|"
COLUMNS = {
    "id": (
        "id",
        "ico",
        "ičo",
        "nationalid",
        "identifier",
        "companyid",
        "companynumber",
        "registrationnumber",
        "regnumber",
        "siren",
        "orgnr",
        "organisationsnummer",
        "krs",
        "kvk",
        "cro",
        "ipo",
    ),
    "name": ("name", "companyname", "company", "legalname", "firma", "nazov", "název", "nazev"),
    "country": ("country", "countrycode", "cc", "krajina", "země", "zeme"),
    "city": ("city", "town", "municipality", "location", "obec", "mesto", "město"),
}
_BY_LABEL = {label: column for column, labels in COLUMNS.items() for label in labels}


def _fail(message: str, line: int | None = None, **details: Any) -> ValidationFailed:
    where = {"field": "file", "in": "body", "message": message} | ({"line": line} if line else {}) | details
    return ValidationFailed(message if line is None else f"Line {line}: {message}", details=[where])


def decode(data: bytes, encoding: str | None) -> str:
    """The file's text; 422 for an unknown encoding or bytes that are not in it."""
    if encoding:
        try:
            name = codecs.lookup(encoding).name
        except (LookupError, ValueError):  # ValueError: a NUL in the name (codecs cannot look it up)
            raise _fail(f"Unknown encoding {encoding!r} (e.g. utf-8, windows-1250, iso-8859-2)") from None
    else:
        name = "utf-16" if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) else "utf-8-sig"
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise _fail(
            f"the file is not valid {name} (byte 0x{data[exc.start]:02x}): save it as UTF-8 or give "
            "`encoding` (e.g. windows-1250)",
            line,
        ) from None
    return text.removeprefix("\ufeff")


def _separator(text: str) -> str:
    """The separator the header row uses most (comma when it has none: a single column). The header names
    the columns, so it is the one line whose separators are not inside values; `csv.Sniffer` guessed wrong
    on files with empty cells (`00177041;CZ;`)."""
    header = text.split("\n", 1)[0]
    counts = {sep: header.count(sep) for sep in SEPARATORS}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ","


def _label(cell: str) -> str:
    return re.sub(r"[\s_\-.]+", "", cell.strip().lower())


def _columns(header: list[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for i, cell in enumerate(header):
        column = _BY_LABEL.get(_label(cell))
        if column is not None:
            found.setdefault(column, i)
    return found


def _cell(row: list[str], index: int | None, limit: int, line: int, column: str) -> str | None:
    if index is None or index >= len(row):
        return None
    value = row[index].strip()
    if any(unicodedata.category(ch) == "Cc" for ch in value):  # NUL and other control characters
        raise _fail(f"`{column}` holds a control character", line, column=column)
    if len(value) > limit:
        raise _fail(f"`{column}` is longer than {limit} characters", line, column=column)
    return value or None


def _entry(row: list[str], cols: dict[str, int], line: int) -> Any:
    ident = _cell(row, cols.get("id"), ID_LENGTH, line, "id")
    country = _cell(row, cols.get("country"), 64, line, "country")
    if ident is not None:
        return {"country": country, "id": ident} if country else ident
    name = _cell(row, cols.get("name"), NAME_LENGTH, line, "name")
    if name is not None:
        city = _cell(row, cols.get("city"), CITY_LENGTH, line, "city")
        return {"name": name} | ({"city": city} if city else {}) | ({"country": country} if country else {})
    return {"id": ""}  # answered `invalid` on its own line of the result, as an empty identifier is


def parse(data: bytes, encoding: str | None, max_rows: int) -> list[Any]:
    """The job's entries, in the file's order (blank lines skipped)."""
    if not data.strip():
        raise _fail("The file is empty")
    text = decode(data, encoding)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_separator(text), strict=True)
    entries: list[Any] = []
    try:
        header = next(reader, [])
        cols = _columns(header)
        if "id" not in cols and "name" not in cols:
            if len(header) != 1:
                raise _fail(
                    "no identifier or name column in the header row " + repr(header[:10])[:200] + "; name "
                    "one `id` (or ico, national_id, company_number, …) or `name`",
                    1,
                    accepted=sorted(_BY_LABEL),
                )
            cols = {"id": 0}
            entries.append(_entry(header, cols, 1))
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            if len(entries) >= max_rows:
                raise _fail(f"more than {max_rows:,} rows: split the file", reader.line_num)
            entries.append(_entry(row, cols, reader.line_num))
    except csv.Error as exc:
        raise _fail(f"malformed CSV ({exc})", reader.line_num) from None
    if not entries:
        raise _fail("The file has a header row but no data rows")
    return entries
