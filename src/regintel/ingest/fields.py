"""Reading single values out of register rows: text, dates, numbers and VAT ids, each either clean or
refused with a `RecordError` that names the field, so a bad value rejects its row with a reason."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from typing import Any, TypedDict

from regintel.domain.identifiers import parse_vat
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError


class Address(TypedDict, total=False):
    """A company's seat as a parser reads it, passed whole into `CompanyRecord(..., **address)` so the
    record is built in one call; a key left out is a field the source says nothing about."""

    street: str | None
    city: str | None
    postal_code: str | None
    address_text: str | None
    region_code: str | None
    district_code: str | None
    municipality_code: str | None
    nuts3: str | None


def seat(
    street: str | None,
    postal_code: str | None,
    city: str | None,
    *more: str | None,
    region_code: str | None = None,
    district_code: str | None = None,
    municipality_code: str | None = None,
) -> Address:
    """A seat as most registers give it: its street line, postcode and city, the codes of the region,
    district and municipality it lies in, and its one-line text "street, postcode city, more…" (`more`:
    what follows the city there, a county or a country abroad); empty parts are left out of the text."""
    return {
        "street": street,
        "city": city,
        "postal_code": postal_code,
        "address_text": join([street, join([postal_code, city], " "), *more]),
        "region_code": region_code,
        "district_code": district_code,
        "municipality_code": municipality_code,
    }


_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def text(value: Any, name: str = "value") -> str | None:
    """A trimmed string, None for empty; numbers are accepted as their text, anything else refused."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RecordError(f"{name} is not text: {value!r}")
    out = str(value).strip()
    return out or None


def iso_date(value: Any, name: str) -> date | None:
    """`YYYY-MM-DD` (a time part, as in `2019-11-30T20:00:17` or `2001-05-11 08:32:09`, is dropped)."""
    raw = text(value, name)
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw[:10])
    except ValueError:
        raise RecordError(f"{name} is not a date: {raw!r}") from None


def dmy_date(value: Any, name: str) -> date | None:
    """`dd/mm/yyyy`, the date format of the Companies House CSV products."""
    raw = text(value, name)
    if raw is None:
        return None
    match = _DMY.fullmatch(raw)
    try:
        if match is None:
            raise ValueError(raw)
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise RecordError(f"{name} is not a dd/mm/yyyy date: {raw!r}") from None


def integer(value: Any, name: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise RecordError(f"{name} is not a whole number: {value!r}")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise RecordError(f"{name} is not a whole number: {value!r}") from None


def flag(value: Any, name: str) -> bool | None:
    """A JSON boolean (or the strings "true"/"false" of CSV exports)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise RecordError(f"{name} is not true or false: {value!r}")


def vat(value: str | None) -> tuple[str | None, str | None]:
    """(the validated VAT id, None) or (None, the reason it was dropped)."""
    if not value:
        return None, None
    try:
        return parse_vat(value), None
    except InvalidIdentifier as exc:
        return None, exc.message


def join(parts: Iterable[str | None], sep: str = ", ") -> str | None:
    out = sep.join(p.strip() for p in parts if p and p.strip())
    return out or None


_NAME_DATE = re.compile(r"(\d{4})-?(\d{2})-?(\d{2})")


def date_in_name(name: str) -> date | None:
    """The publication date registers put in their file names ("BasicCompanyData-2024-11-01-part1_7")."""
    for match in _NAME_DATE.finditer(name or ""):
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            continue
    return None


def nace_class(value: str, pattern: re.Pattern[str], what: str) -> str | None:
    """The NACE Rev. 2 class (`NN.NN`) of a national activity code that refines NACE below the class (ATECO,
    SKD, …): `pattern` captures the division and class digits; empty is None, anything else a `RecordError`
    naming `what`."""
    value = value.strip()
    if not value:
        return None
    match = pattern.fullmatch(value)
    if match is None:
        raise RecordError(f"{what}: {value!r}")
    return f"{match[1]}.{match[2]}"
