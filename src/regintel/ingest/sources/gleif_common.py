"""What the GLEIF sources share: catalogue facts and reading one record in GLEIF's JSON shape.

Every GLEIF file is read into the shape of GLEIF's own XML-to-JSON conversion (the golden-copy JSON):
an element is a dict, its text is under `"$"`, its attributes under `"@name"`, and a repeated element
is a list. XML records are converted into that shape (`gleif_stream`), so each source maps records
once, whatever flavour the file is in.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Any

from stdnum.iso7064 import mod_97_10

from regintel.domain.identifiers import parse_lei
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError

PUBLISHER = "Global Legal Entity Identifier Foundation (GLEIF)"
LICENCE = "CC0 1.0"
LICENCE_URL = "https://creativecommons.org/publicdomain/zero/1.0/"
ATTRIBUTION = "Contains LEI data from GLEIF (CC0 1.0)"
GOLDEN_COPY_URL = "https://www.gleif.org/en/lei-data/gleif-golden-copy/download-the-golden-copy"

Node = dict[str, Any]
_LEI = re.compile(r"[0-9A-Z]{18}[0-9]{2}")


def child(node: Any, *path: str) -> Any:
    """The element at `path` below `node` (the first one where an element repeats), or None."""
    for name in path:
        if isinstance(node, list):
            node = node[0] if node else None
        if not isinstance(node, dict):
            return None
        node = node.get(name)
    return node[0] if isinstance(node, list) and node else node


def children(node: Any, *path: str) -> list[Any]:
    """Every element at `path` (the JSON flavour always lists repeatable elements, XML only repeats them)."""
    parent = child(node, *path[:-1])
    if isinstance(parent, list):
        parent = parent[0] if parent else None
    found = parent.get(path[-1]) if isinstance(parent, dict) else None
    if found is None:
        return []
    return found if isinstance(found, list) else [found]


def text(node: Any, *path: str) -> str | None:
    """The stripped text at `path`, or None when absent or blank."""
    found = child(node, *path)
    if isinstance(found, dict):
        found = found.get("$")
    if found is None or isinstance(found, (dict, list)):
        return None
    value = str(found).strip()
    return value or None


def code(node: Any, *path: str, width: int) -> str | None:
    """A code-list value (status, category, …), refused when wider than its column."""
    value = text(node, *path)
    if value is not None and len(value) > width:
        raise RecordError(f"{'/'.join(path) or 'value'} is not a code: {value[:60]!r}")
    return value


def timestamp(node: Any, *path: str) -> datetime | None:
    """An ISO 8601 timestamp, converted to UTC (GLEIF mixes `Z` and local offsets)."""
    value = text(node, *path)
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise RecordError(f"{'/'.join(path)} is not an ISO 8601 date: {value[:40]!r}") from None
    return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).astimezone(UTC)


def day(node: Any, *path: str) -> date | None:
    """The calendar date as published (the local date of the timestamp, not shifted to UTC)."""
    value = text(node, *path)
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value).date()
    except ValueError:
        raise RecordError(f"{'/'.join(path)} is not an ISO 8601 date: {value[:40]!r}") from None


def lei(value: str | None, what: str = "LEI") -> str:
    """A checked LEI, or a RecordError saying why not."""
    if not value:
        raise RecordError(f"missing {what}")
    if _LEI.fullmatch(value) and mod_97_10.is_valid(value):  # the common case, without stdnum's cleaning
        return value
    try:
        return parse_lei(value)
    except InvalidIdentifier as exc:
        raise RecordError(f"invalid {what}: {exc.message}") from None
