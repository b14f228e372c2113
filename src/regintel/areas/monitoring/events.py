"""Monitoring events (diffs of watched companies, spec 6.2) and cases (spec 4.6)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.service import decode_cursor, encode_cursor, resolve_ico
from regintel.db import events as db
from regintel.domain.monitoring import SEVERITIES, field_value
from regintel.errors import ValidationFailed

MAX_CASE_EVENTS = 500


def _invalid(field: str, message: str, where: str = "query") -> ValidationFailed:
    return ValidationFailed(message, details=[{"field": field, "in": where, "message": message}])


def parse_since(value: str | None) -> datetime | None:
    """ISO 8601 date or date-time; without a zone it is UTC."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise _invalid("since", f"{value!r} is not an ISO 8601 date or date-time") from None
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def parse_severity(value: str | None) -> str | None:
    if value is not None and value.lower() not in SEVERITIES:
        raise _invalid("severity", f"severity must be one of {', '.join(SEVERITIES)}")
    return value.lower() if value else None


def event_record(row: RowMapping) -> dict[str, Any]:
    return {
        "id": row["id"],
        "type": row["event_type"],
        "ico": row["national_id"],
        "country": row["country"],
        "company_name": row["company_name"],
        "field": row["field"],
        "from": field_value(row["field"], row["old_value"]),
        "to": field_value(row["field"], row["new_value"]),
        "severity": row["severity"],
        "source": row["source"],
        "detected_at": row["detected_at"],
        "case_id": row["case_id"],
    }


def list_events(
    conn: Connection,
    api_key_id: int,
    *,
    ico: str | None,
    country: str | None,
    since: str | None,
    severity: str | None,
    cursor: str | None,
    limit: int,
) -> tuple[list[dict[str, Any]], str | None]:
    """The key's events, oldest first; returns (items, next cursor or None at the end)."""
    if country and not ico:
        raise _invalid("country", "`country` qualifies `ico`; give `ico` too")
    company_id = resolve_ico(conn, ico, country)["id"] if ico else None
    rows = db.list_events(
        conn,
        api_key_id,
        company_id=company_id,
        since=parse_since(since),
        severity=parse_severity(severity),
        after_id=decode_cursor(cursor),
        limit=limit + 1,
    )
    items = [event_record(r) for r in rows[:limit]]
    return items, encode_cursor(rows[limit - 1]["id"]) if len(rows) > limit else None


def case_record(row: RowMapping) -> dict[str, Any]:
    return {
        "id": row["id"],
        "title": row["title"],
        "status": row["status"],
        "note": row["note"],
        "event_count": row["event_count"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def attach(
    conn: Connection,
    api_key_id: int,
    event_id: int,
    fields: set[str],
    case_id: int | None,
    title: str | None,
    note: str | None,
) -> dict[str, Any]:
    """Attach the event to the key's case `case_id`, to a new case called `title`, or detach it
    (`case_id` null). Exactly one of `case_id` and `title` is given."""
    if ("case_id" in fields) == ("title" in fields):
        raise _invalid("case_id", "Give either `case_id` (null detaches) or `title` (creates a case)", "body")
    db.get_event(conn, api_key_id, event_id)
    now = datetime.now(UTC)
    if "title" in fields:
        if not title or not title.strip():
            raise _invalid("title", "title must not be empty", "body")
        case_id = db.create_case(conn, api_key_id, title.strip(), note, now)
    elif case_id is not None:
        db.get_case(conn, api_key_id, case_id)
    db.set_event_case(conn, event_id, case_id, now)
    event = event_record(db.get_event(conn, api_key_id, event_id))
    case = case_record(db.get_case(conn, api_key_id, case_id)) if case_id is not None else None
    return event | {"case": case}


def list_cases(
    conn: Connection, api_key_id: int, page: int, per_page: int
) -> tuple[list[dict[str, Any]], int]:
    rows, total = db.list_cases(conn, api_key_id, offset=(page - 1) * per_page, limit=per_page)
    return [case_record(r) for r in rows], total


def get_case(conn: Connection, api_key_id: int, case_id: int) -> dict[str, Any]:
    """A case with its events, newest first (at most 500)."""
    case = case_record(db.get_case(conn, api_key_id, case_id))
    events = [event_record(r) for r in db.list_case_events(conn, api_key_id, case_id, MAX_CASE_EVENTS)]
    return case | {"events": events}
