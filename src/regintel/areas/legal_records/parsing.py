"""Shared reading rules of the legal-records sources (ingest/sources/sk_court_decisions.py, sk_pmu.py,
sk_ipkz.py, cz_esbirka.py): JSON records of any shape, and the small conversions each field needs.
Pure: a bad field raises `ValueError`, which the source turns into a rejected record."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.jsonstream import json_objects

from .records import Party


def records(
    stream: IO[bytes], name: str, list_paths: Iterable[str]
) -> Iterator[dict[str, Any] | RecordError]:
    """Every record object of a JSON document, array or JSON-lines file. A document that breaks off is
    malformed as a whole (`SourceAbort`: nothing of it is kept), unlike one broken line of JSON lines."""
    try:
        for item in json_objects(stream, list_paths):
            if isinstance(item, RecordError):
                if item.reason.startswith("the JSON document breaks off"):
                    raise SourceAbort(f"{name}: {item.reason}")
                yield item
            elif not isinstance(item, dict):
                yield RecordError(f"a record is a JSON object, not {type(item).__name__}", item)
            else:
                yield item
    except SourceAbort as exc:
        message = str(exc)
        raise SourceAbort(message if message.startswith(name) else f"{name}: {message}") from None


def text(value: Any, limit: int = 2_000) -> str | None:
    """A trimmed one-line string, or None for missing and empty values."""
    if value is None:
        return None
    if not isinstance(value, (str, int, float)):
        raise ValueError(f"expected text, found {type(value).__name__}")
    out = " ".join(str(value).split())
    if len(out) > limit:
        raise ValueError(f"text longer than {limit} characters")
    return out or None


def day(value: Any) -> date | None:
    """An ISO date (a timestamp's date part is taken)."""
    raw = text(value)
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw[:10])
    except ValueError:
        raise ValueError(f"not an ISO date: {raw!r}") from None


def amount(value: Any) -> Decimal | None:
    raw = text(value)
    if raw is None:
        return None
    try:
        out = Decimal(raw.replace(" ", "").replace(",", "."))
    except InvalidOperation:
        raise ValueError(f"not an amount: {raw!r}") from None
    if not out.is_finite() or out < 0 or out >= 10**15:
        raise ValueError(f"amount out of range: {raw!r}")
    return out


def count(value: Any) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 10**6:
        raise ValueError(f"not a count: {value!r}")
    return value


def national_id(country: str, value: Any) -> str | None:
    """The normalised register number when well-formed for `country`; else None (the party is then
    linked by name, never by a malformed number)."""
    raw = text(value, 40)
    if raw is None:
        return None
    try:
        return parse_national_id(country, raw)
    except InvalidIdentifier:
        return None


def obj(value: Any, what: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} is not an object")
    return value


def items(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a list")
    return value


def party(
    value: Any,
    country: str,
    *,
    name_key: str = "nazov",
    id_key: str = "ico",
    role_key: str | None = None,
    address_key: str | None = None,
) -> Party | None:
    """A legal person of a record; None when it has no name (an anonymised natural person)."""
    node = obj(value, "a party")
    name = text(node.get(name_key), 500)
    if not name:
        return None
    return Party(
        name=name,
        national_id=national_id(country, node.get(id_key)),
        country=country,
        role=text(node.get(role_key), 64) if role_key else None,
        address=text(node.get(address_key), 500) if address_key else None,
    )
