"""Reading the value shapes of the RPO API (api.statistics.sk/rpo/v1).

Every attribute of an RPO entity is a time series: a list of entries with `validFrom` and, once
superseded, `validTo`. Code-list values are `{"value", "code", "codelistCode"}`. A value of the
wrong JSON type raises `RecordError`, which rejects the entity with the attribute's name.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

import pycountry

from regintel.ingest.base import RecordError

Json = dict[str, Any]


def series(entity: Json, key: str) -> list[Json]:
    """The entries of a time-series attribute (an absent attribute is an empty series)."""
    value = entity.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RecordError(f"{key} is not a list of objects")
    return value


def current(entity: Json, key: str) -> Json | None:
    """The entry in force: the one without `validTo`, else (all ended, as for a dissolved entity's
    name) the one that started last."""
    entries = series(entity, key)
    open_ = [e for e in entries if not e.get("validTo")]
    pool = open_ or entries
    return max(pool, key=lambda e: str(e.get("validFrom") or "")) if pool else None


def in_force(entity: Json, key: str) -> list[Json]:
    """Every entry of a series that has not ended (several statutory bodies serve at once)."""
    return [e for e in series(entity, key) if not e.get("validTo")]


def text(node: Json | None, key: str, what: str | None = None) -> str | None:
    """A string field, stripped; a number is accepted as its text (RPO sends some numbers unquoted)."""
    if node is None:
        return None
    value = node.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RecordError(f"{what or key} is not text: {str(value)[:60]!r}")
    return str(value).strip() or None


def item(node: Json | None, key: str) -> Json | None:
    """A nested object (a code-list item such as `legalForms[].value`), or None."""
    if node is None or node.get(key) is None:
        return None
    value = node[key]
    if not isinstance(value, dict):
        raise RecordError(f"{key} is not an object")
    return value


def day(value: Any, what: str) -> date | None:
    """An ISO 8601 date (RPO writes `YYYY-MM-DD`)."""
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        raise RecordError(f"{what} is not an ISO 8601 date: {str(value)[:40]!r}") from None


def amount(value: Any, what: str) -> Decimal | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise RecordError(f"{what} is not a number")
    try:
        return Decimal(str(value).replace(" ", "").replace(",", "."))
    except InvalidOperation:
        raise RecordError(f"{what} is not a number: {str(value)[:40]!r}") from None


def country_code(address: Json | None) -> str | None:
    """ISO 3166-1 alpha-2 of an address; RPO codes countries by ISO numeric (703 = Slovakia)."""
    country = item(address, "country")
    numeric = text(country, "code", "country.code")
    if numeric is None or not numeric.isdigit():
        return None
    found = pycountry.countries.get(numeric=numeric.zfill(3))
    return found.alpha_2 if found is not None else None
