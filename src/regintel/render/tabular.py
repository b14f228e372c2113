"""CSV output. Cells that a spreadsheet would run as a formula are defused (OWASP CSV injection)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        value = ";".join(map(str, value))
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    # Numbers like -12.5 stay numbers; only text that starts like a formula gets the quote.
    if text.startswith(_FORMULA_START) and not _is_number(text):
        return "'" + text
    return text


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def iter_csv(
    rows: Iterable[Mapping[str, Any]], columns: Sequence[str], preamble: Sequence[str] = ()
) -> Iterator[str]:
    """Yield CSV text chunk by chunk (header first), so large exports stream."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    for line in preamble:
        writer.writerow([line])
    writer.writerow(columns)
    for n, row in enumerate(rows, 1):
        writer.writerow([cell(row.get(c)) for c in columns])
        if n % 500 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def to_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], preamble: Sequence[str] = ()) -> str:
    return "".join(iter_csv(rows, columns, preamble))
