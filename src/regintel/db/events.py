"""Monitoring events (spec 6.2) and the cases a key groups them in: rows of one key, never another's."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import desc, func, select, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import cases, companies, monitoring_events
from regintel.errors import NotFound

_EVENT_COLUMNS = [
    *monitoring_events.c,
    companies.c.country,
    companies.c.national_id,
    companies.c.name.label("company_name"),
]


def _events(api_key_id: int) -> Any:
    return (
        select(*_EVENT_COLUMNS)
        .join(companies, companies.c.id == monitoring_events.c.company_id)
        .where(monitoring_events.c.api_key_id == api_key_id)
    )


def list_events(
    conn: Connection,
    api_key_id: int,
    *,
    company_id: int | None,
    since: datetime | None,
    severity: str | None,
    after_id: int | None,
    limit: int,
) -> list[RowMapping]:
    """The key's events in the order they were recorded, keyset-paginated on the id."""
    query = _events(api_key_id)
    if company_id is not None:
        query = query.where(monitoring_events.c.company_id == company_id)
    if since is not None:
        query = query.where(monitoring_events.c.detected_at >= since)
    if severity is not None:
        query = query.where(monitoring_events.c.severity == severity)
    if after_id is not None:
        query = query.where(monitoring_events.c.id > after_id)
    return list(conn.execute(query.order_by(monitoring_events.c.id).limit(limit)).mappings())


def get_event(conn: Connection, api_key_id: int, event_id: int) -> RowMapping:
    row = conn.execute(_events(api_key_id).where(monitoring_events.c.id == event_id)).mappings().first()
    if row is None:
        raise NotFound(f"No monitoring event {event_id}")
    return row


def set_event_case(conn: Connection, event_id: int, case_id: int | None, now: datetime) -> None:
    conn.execute(update(monitoring_events).where(monitoring_events.c.id == event_id).values(case_id=case_id))
    if case_id is not None:
        conn.execute(update(cases).where(cases.c.id == case_id).values(updated_at=now))


def create_case(conn: Connection, api_key_id: int, title: str, note: str | None, now: datetime) -> int:
    return int(
        conn.execute(
            cases.insert()
            .values(
                api_key_id=api_key_id, title=title, note=note, status="open", created_at=now, updated_at=now
            )
            .returning(cases.c.id)
        ).scalar_one()
    )


def _counted() -> Any:
    count = (
        select(func.count())
        .where(monitoring_events.c.case_id == cases.c.id)
        .correlate(cases)
        .scalar_subquery()
    )
    return select(cases, count.label("event_count"))


def get_case(conn: Connection, api_key_id: int, case_id: int) -> RowMapping:
    row = (
        conn.execute(_counted().where(cases.c.id == case_id, cases.c.api_key_id == api_key_id))
        .mappings()
        .first()
    )
    if row is None:
        raise NotFound(f"No case {case_id}")
    return row


def list_cases(conn: Connection, api_key_id: int, *, offset: int, limit: int) -> tuple[list[RowMapping], int]:
    total = conn.execute(select(func.count()).where(cases.c.api_key_id == api_key_id)).scalar_one()
    rows = conn.execute(
        _counted()
        .where(cases.c.api_key_id == api_key_id)
        .order_by(desc(cases.c.updated_at), desc(cases.c.id))
        .offset(offset)
        .limit(limit)
    ).mappings()
    return list(rows), int(total)


def list_case_events(conn: Connection, api_key_id: int, case_id: int, limit: int) -> list[RowMapping]:
    query = _events(api_key_id).where(monitoring_events.c.case_id == case_id)
    return list(conn.execute(query.order_by(desc(monitoring_events.c.id)).limit(limit)).mappings())
