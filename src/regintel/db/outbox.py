"""The outbox's SQL: who listens to which companies, and the rows of monitoring events, webhook
deliveries and watch e-mails. Which change goes to whom is the monitoring area's policy
(`areas/monitoring/outbox.py`, the loader's change hook)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import and_, or_, select
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.engine import insert_for
from regintel.db.schema import (
    api_keys,
    companies,
    deliveries,
    email_outbox,
    monitoring_events,
    subscription_companies,
    subscriptions,
    watches,
)

LIVE = ("active", "paused")  # paused subscriptions keep queueing: nothing is lost while paused


def new_message_id() -> str:
    """The delivery's `webhook-id`: the same for every attempt, so receivers can drop duplicates."""
    return "msg_" + uuid.uuid4().hex


def encode_body(body: Mapping[str, Any]) -> str:
    return orjson.dumps(body, option=orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC).decode()


def _key_is_live(now: datetime) -> Any:
    return and_(
        api_keys.c.revoked_at.is_(None), or_(api_keys.c.expires_at.is_(None), api_keys.c.expires_at > now)
    )


def subscribers(conn: Connection, company_ids: list[int], now: datetime) -> list[dict[str, Any]]:
    """Live subscriptions on these companies: monitoring ones, and generic ones scoped to them
    (`scoped_to`: the matched companies)."""
    base = (
        select(
            subscriptions.c.id,
            subscriptions.c.kind,
            subscriptions.c.api_key_id,
            subscriptions.c.company_id,
            subscriptions.c.event_types,
            subscriptions.c.countries,
        )
        .join(api_keys, api_keys.c.id == subscriptions.c.api_key_id)
        .where(subscriptions.c.status.in_(LIVE), _key_is_live(now))
    )
    found: dict[int, dict[str, Any]] = {}
    monitoring = base.where(subscriptions.c.kind == "monitoring", subscriptions.c.company_id.in_(company_ids))
    for row in conn.execute(monitoring).mappings():
        found[row["id"]] = dict(row) | {"scoped_to": {row["company_id"]}}
    scoped = (
        base.add_columns(subscription_companies.c.company_id.label("scoped_company"))
        .join(subscription_companies, subscription_companies.c.subscription_id == subscriptions.c.id)
        .where(subscription_companies.c.company_id.in_(company_ids))
    )
    for row in conn.execute(scoped).mappings():
        entry = found.setdefault(row["id"], dict(row) | {"scoped_to": set()})
        entry["scoped_to"].add(row["scoped_company"])
    return list(found.values())


def unscoped_subscribers(conn: Connection, now: datetime) -> list[dict[str, Any]]:
    """Live generic subscriptions without a company scope (they see every company)."""
    query = (
        select(
            subscriptions.c.id,
            subscriptions.c.kind,
            subscriptions.c.api_key_id,
            subscriptions.c.company_id,
            subscriptions.c.event_types,
            subscriptions.c.countries,
        )
        .join(api_keys, api_keys.c.id == subscriptions.c.api_key_id)
        .where(
            subscriptions.c.status.in_(LIVE),
            _key_is_live(now),
            subscriptions.c.kind == "webhook",
            ~subscriptions.c.id.in_(select(subscription_companies.c.subscription_id)),
        )
    )
    return [dict(row) | {"scoped_to": None} for row in conn.execute(query).mappings()]


def company_keys(conn: Connection, company_ids: list[int]) -> dict[int, tuple[str, str]]:
    """(country, national_id) of each company, by id."""
    query = select(companies.c.id, companies.c.country, companies.c.national_id).where(
        companies.c.id.in_(company_ids)
    )
    return {r.id: (r.country, r.national_id) for r in conn.execute(query)}


def confirmed_watchers(conn: Connection, company_ids: list[int]) -> dict[int, list[RowMapping]]:
    """Confirmed e-mail watches on these companies, by company."""
    out: dict[int, list[RowMapping]] = {}
    query = select(watches.c.id, watches.c.email, watches.c.company_id).where(
        watches.c.company_id.in_(company_ids), watches.c.status == "confirmed"
    )
    for row in conn.execute(query).mappings():
        out.setdefault(row["company_id"], []).append(row)
    return out


def insert_events(conn: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        conn.execute(insert_for(conn, monitoring_events).on_conflict_do_nothing(), rows)


def insert_deliveries(conn: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        conn.execute(insert_for(conn, deliveries).on_conflict_do_nothing(), rows)


def insert_watch_mails(conn: Connection, rows: list[dict[str, Any]]) -> None:
    if rows:
        conn.execute(insert_for(conn, email_outbox).on_conflict_do_nothing(), rows)


def delivery_row(
    subscription_id: int,
    event: str,
    body: Mapping[str, Any],
    detected_at: datetime,
    now: datetime,
    change_id: int | None = None,
) -> dict[str, Any]:
    return {
        "message_id": new_message_id(),
        "subscription_id": subscription_id,
        "change_id": change_id,
        "event_type": event,
        "body": encode_body(body),
        "status": "pending",
        "attempts": 0,
        "detected_at": detected_at,
        "next_attempt_at": now,
        "created_at": now,
    }
