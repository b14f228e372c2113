"""NACE codes as companies carry them, in every national spelling: `62.01` (Eurostat), `62010` (SK and
CZ NACE, UK SIC 2007), `62.01Z` (French NAF), `62.010` (Norwegian SN2007). All start with the same digits
as the EU class, so a filter works on the digits alone: `replace(nace_primary, '.', '')`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from regintel.errors import ValidationFailed

_SECTION = re.compile(r"[A-U]")
_DIGITS = re.compile(r"[0-9]{2,6}")  # ASCII only: \d also takes other scripts' digits


@dataclass(frozen=True)
class NaceQuery:
    """A NACE filter value: a section letter, or a digit prefix of 2 (division) to 6 (national) digits."""

    section: str | None = None
    prefix: str | None = None


def parse_nace_query(value: str) -> NaceQuery:
    """`J`, `62`, `62.0`, `62.01`, `6201`, `62010`, `62.01.0` … (dots and spaces ignored, any case)."""
    compact = re.sub(r"[\s.]", "", value or "").upper()
    if _SECTION.fullmatch(compact):
        return NaceQuery(section=compact)
    if _DIGITS.fullmatch(compact):
        return NaceQuery(prefix=compact)
    raise ValidationFailed(
        f"{value!r} is not a NACE code: give a section letter (A-U) or 2 to 6 digits such as 62, 62.01, "
        "62010",
        details=[{"field": "nace", "in": "query", "message": "not a NACE section, division, group or class"}],
    )


def prefix_range(prefix: str) -> tuple[str, str]:
    """[low, high) bounds of the strings starting with `prefix`, for an index range scan (LIKE is not
    index-assisted in PostgreSQL under a non-C collation, and needs a NOCASE index in SQLite)."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def section_range(divisions: list[str]) -> tuple[str, str]:
    """A section's divisions are consecutive numbers (J is 58-63), so [first, last + 1) covers it."""
    first, last = min(divisions), max(divisions)
    return first, f"{int(last) + 1:02d}"


def digits(code: str | None) -> str | None:
    """The digits of a stored code (`62.01Z` → `6201`), or None when it has fewer than two."""
    found = re.sub(r"[^0-9]", "", code or "")
    return found if len(found) >= 2 else None


def eu_class(code: str | None) -> str | None:
    """The EU NACE class (`62.01`) a national code belongs to, when it has four digits."""
    d = digits(code)
    return f"{d[:2]}.{d[2:4]}" if d and len(d) >= 4 else None
