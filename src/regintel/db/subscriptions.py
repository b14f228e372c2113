"""Subscriptions (monitoring and generic webhook ones): rows of one API key, never another's."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import desc, func, select, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import companies, deliveries, subscription_companies, subscriptions
from regintel.errors import NotFound

_COLUMNS = [
    *subscriptions.c,
    companies.c.country,
    companies.c.national_id,
    companies.c.name.label("company_name"),
]


def _query(api_key_id: int, kind: str) -> Any:
    return (
        select(*_COLUMNS)
        .join(companies, companies.c.id == subscriptions.c.company_id, isouter=True)
        .where(
            subscriptions.c.api_key_id == api_key_id,
            subscriptions.c.kind == kind,
            subscriptions.c.status != "deleted",
        )
    )


def insert_subscription(
    conn: Connection,
    *,
    kind: str,
    api_key_id: int,
    url: str,
    secret: str,
    event_types: Sequence[str],
    now: datetime,
    company_id: int | None = None,
    countries: Sequence[str] | None = None,
    description: str | None = None,
    scope: Sequence[int] = (),
) -> int:
    sub_id = conn.execute(
        subscriptions.insert()
        .values(
            kind=kind,
            api_key_id=api_key_id,
            company_id=company_id,
            url=url,
            secret=secret,
            event_types=list(event_types),
            countries=list(countries) if countries else None,
            description=description,
            status="active",
            created_at=now,
            updated_at=now,
        )
        .returning(subscriptions.c.id)
    ).scalar_one()
    if scope:
        conn.execute(
            subscription_companies.insert(), [{"subscription_id": sub_id, "company_id": c} for c in scope]
        )
    return int(sub_id)


def get_subscription(conn: Connection, sub_id: int, api_key_id: int, kind: str) -> RowMapping:
    """The key's live subscription `sub_id` of `kind`; 404 for another key's, a deleted or unknown one."""
    row = conn.execute(_query(api_key_id, kind).where(subscriptions.c.id == sub_id)).mappings().first()
    if row is None:
        raise NotFound(f"No subscription {sub_id}")
    return row


def list_subscriptions(
    conn: Connection, api_key_id: int, kind: str, *, status: str | None, offset: int, limit: int
) -> tuple[list[RowMapping], int]:
    query = _query(api_key_id, kind)
    if status:
        query = query.where(subscriptions.c.status == status)
    total = conn.execute(select(func.count()).select_from(query.subquery())).scalar_one()
    rows = conn.execute(query.order_by(desc(subscriptions.c.id)).offset(offset).limit(limit)).mappings()
    return list(rows), int(total)


def find_duplicate(conn: Connection, api_key_id: int, company_id: int, url: str) -> int | None:
    return conn.execute(
        select(subscriptions.c.id).where(
            subscriptions.c.api_key_id == api_key_id,
            subscriptions.c.kind == "monitoring",
            subscriptions.c.company_id == company_id,
            subscriptions.c.url == url,
            subscriptions.c.status != "deleted",
        )
    ).scalar()


def list_scope(conn: Connection, sub_ids: Sequence[int]) -> dict[int, list[tuple[str, str]]]:
    """The companies each generic subscription is scoped to, as (country, national id)."""
    out: dict[int, list[tuple[str, str]]] = {i: [] for i in sub_ids}
    rows = conn.execute(
        select(subscription_companies.c.subscription_id, companies.c.country, companies.c.national_id)
        .join(companies, companies.c.id == subscription_companies.c.company_id)
        .where(subscription_companies.c.subscription_id.in_(list(sub_ids)))
        .order_by(companies.c.country, companies.c.national_id)
    )
    for row in rows:
        out[row.subscription_id].append((row.country, row.national_id))
    return out


def delete_subscription(conn: Connection, sub_id: int, now: datetime) -> int:
    """Mark deleted (kept for the delivery log) and cancel what it still had queued; returns that count."""
    conn.execute(
        update(subscriptions)
        .where(subscriptions.c.id == sub_id)
        .values(status="deleted", deleted_at=now, updated_at=now)
    )
    result = conn.execute(
        update(deliveries)
        .where(deliveries.c.subscription_id == sub_id, deliveries.c.status.in_(("pending", "delivering")))
        .values(status="cancelled", lease_until=None)
    )
    return int(result.rowcount)


def rotate_secret(
    conn: Connection, sub: RowMapping, secret: str, grace_until: datetime | None, now: datetime
) -> None:
    conn.execute(
        update(subscriptions)
        .where(subscriptions.c.id == sub["id"])
        .values(
            secret=secret,
            previous_secret=sub["secret"] if grace_until else None,
            previous_secret_until=grace_until,
            updated_at=now,
        )
    )


def resume(conn: Connection, sub_id: int, retry_failed: bool, now: datetime) -> int:
    """Back to `active`; with `retry_failed`, deliveries that exhausted their retries are queued again
    (in their original order). Returns how many were re-queued."""
    conn.execute(
        update(subscriptions)
        .where(subscriptions.c.id == sub_id)
        .values(status="active", paused_at=None, pause_reason=None, consecutive_failures=0, updated_at=now)
    )
    requeued = 0
    if retry_failed:
        requeued = conn.execute(
            update(deliveries)
            .where(deliveries.c.subscription_id == sub_id, deliveries.c.status == "failed")
            .values(status="pending", attempts=0, next_attempt_at=now, lease_until=None)
        ).rowcount
    conn.execute(
        update(deliveries)
        .where(deliveries.c.subscription_id == sub_id, deliveries.c.status == "pending")
        .values(next_attempt_at=now)
    )
    return int(requeued)
