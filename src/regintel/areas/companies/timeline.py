"""`/companies/{ico}/timeline` (spec 2.3): one company's events from every source, newest first.

Public contracts the company supplies (TED awards, the Czech register of contracts) are `contract` events,
from the public-money area (docs/public-money.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.public_money import contracts as public_money
from regintel.db import changes as db_changes
from regintel.db import insolvency as db_insolvency
from regintel.domain import timeline as domain
from regintel.errors import ValidationFailed

# A company's newest change rows read for its timeline: the full log stays at `/history`.
MAX_CHANGES = 5_000


def timeline(
    conn: Connection, row: Mapping[str, Any], *, cursor: str | None, limit: int, types: set[str] | None
) -> tuple[list[dict[str, Any]], str | None]:
    """(events, cursor of the next page or None)."""
    position = _cursor(cursor)
    events = [domain.from_notice(r) for r in db_insolvency.list_company_events(conn, row["id"])]
    rows = db_changes.list_company_changes(
        conn, row["id"], domain.CHANGE_TYPES, domain.PREFIX_TYPES, MAX_CHANGES
    )
    events += domain.from_changes(rows, db_changes.insolvency_sources(conn))
    events += domain.from_company(row)
    events += [
        e for e in map(domain.from_lei, db_changes.list_company_leis(conn, row["id"])) if e is not None
    ]
    events += public_money.timeline_events(conn, row)
    items, next_key = domain.page(events, position, limit, types)
    return items, domain.encode_cursor(next_key) if next_key else None


def parse_types(value: str | None) -> set[str] | None:
    """`event_type=bankruptcy,name_change` → a set; 422 naming any unknown type."""
    if not value:
        return None
    wanted = {v.strip() for v in value.split(",") if v.strip()}
    unknown = sorted(wanted - set(domain.EVENT_TYPES))
    if unknown:
        raise ValidationFailed(
            f"Unknown event type(s): {', '.join(unknown)}",
            details=[
                {
                    "field": "event_type",
                    "in": "query",
                    "message": "unknown event type",
                    "allowed": list(domain.EVENT_TYPES),
                }
            ],
        )
    return wanted


def _cursor(cursor: str | None) -> tuple[str, int, int] | None:
    if not cursor:
        return None
    try:
        return domain.decode_cursor(cursor)
    except (ValueError, UnicodeDecodeError):
        raise ValidationFailed(
            "Malformed cursor",
            details=[{"field": "cursor", "in": "query", "message": "not a cursor from this API"}],
        ) from None
