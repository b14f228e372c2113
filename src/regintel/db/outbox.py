"""The monitoring change hook: inside the loader's batch transaction, turn change-log rows into
monitoring events, webhook deliveries and watch e-mails (the outbox), so that they exist if and only
if the data change committed (DESIGN.md section 4, step 5)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
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
from regintel.domain.monitoring import (
    INSOLVENCY_CHANGED,
    INSOLVENCY_FIELDS,
    Change,
    event_type,
    matches,
    severity,
    webhook_body,
)

LIVE = ("active", "paused")  # paused subscriptions keep queueing: nothing is lost while paused
CHUNK = 2_000  # companies per look-up (SQLite allows 32,766 bound parameters)


def new_message_id() -> str:
    """The delivery's `webhook-id`: the same for every attempt, so receivers can drop duplicates."""
    return "msg_" + uuid.uuid4().hex


def encode_body(body: Mapping[str, Any]) -> str:
    return orjson.dumps(body, option=orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC).decode()


def _key_is_live(now: datetime) -> Any:
    return and_(
        api_keys.c.revoked_at.is_(None), or_(api_keys.c.expires_at.is_(None), api_keys.c.expires_at > now)
    )


def _subscribers(conn: Connection, company_ids: list[int], now: datetime) -> list[dict[str, Any]]:
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


def _unscoped(conn: Connection, now: datetime) -> list[dict[str, Any]]:
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


def _wants(sub: Mapping[str, Any], change: Change) -> bool:
    if sub["scoped_to"] is not None and change.company_id not in sub["scoped_to"]:
        return False
    if sub["kind"] == "monitoring":
        return event_type(change.field) == INSOLVENCY_CHANGED
    return matches(event_type(change.field), change.country, sub["event_types"], sub["countries"])


def _changes(conn: Connection, rows: Sequence[Mapping[str, Any]], company_ids: list[int]) -> list[Change]:
    keys = {
        r.id: (r.country, r.national_id)
        for r in conn.execute(
            select(companies.c.id, companies.c.country, companies.c.national_id).where(
                companies.c.id.in_(company_ids)
            )
        )
    }
    return [
        Change(
            r.get("id"),
            r["company_id"],
            *keys[r["company_id"]],
            r["field"],
            r["old_value"],
            r["new_value"],
            r["source"],
            r["detected_at"],
        )
        for r in rows
        if r["company_id"] in keys
    ]


def record_monitoring(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """The loader's default `on_changes` hook (see `ingest.loader.default_hooks`)."""
    now = datetime.now(UTC)
    company_ids = sorted({r["company_id"] for r in rows})
    unscoped = _unscoped(conn, now)
    for start in range(0, len(company_ids), CHUNK):
        chunk = company_ids[start : start + CHUNK]
        in_chunk = set(chunk)
        subs = _subscribers(conn, chunk, now) + unscoped
        flipped = sorted(
            {r["company_id"] for r in rows if r["company_id"] in in_chunk and r["field"] in INSOLVENCY_FIELDS}
        )
        watchers = _watchers(conn, flipped) if flipped else {}
        if not subs and not watchers:
            continue
        changes = _changes(conn, [r for r in rows if r["company_id"] in in_chunk], chunk)
        _write_events(conn, subs, changes)
        _write_deliveries(conn, subs, changes, now)
        _write_watch_mails(conn, watchers, changes, now)


def _write_events(conn: Connection, subs: Iterable[Mapping[str, Any]], changes: list[Change]) -> None:
    """One monitoring event per (key, change) for the companies a key monitors (spec 6.2)."""
    keys_by_company: dict[int, set[int]] = {}
    for sub in subs:
        if sub["kind"] == "monitoring":
            keys_by_company.setdefault(sub["company_id"], set()).add(sub["api_key_id"])
    rows = [
        {
            "api_key_id": key,
            "company_id": c.company_id,
            "change_id": c.change_id,
            "event_type": event_type(c.field),
            "field": c.field,
            "old_value": c.old_value,
            "new_value": c.new_value,
            "severity": severity(c.field),
            "source": c.source,
            "detected_at": c.detected_at,
        }
        for c in changes
        for key in sorted(keys_by_company.get(c.company_id, ()))
    ]
    if rows:
        conn.execute(insert_for(conn, monitoring_events).on_conflict_do_nothing(), rows)


def _write_deliveries(
    conn: Connection, subs: list[dict[str, Any]], changes: list[Change], now: datetime
) -> None:
    # Candidates by company, so a batch costs changes × (its company's subscribers + unscoped ones).
    unscoped = [sub for sub in subs if sub["scoped_to"] is None]
    by_company: dict[int, list[dict[str, Any]]] = {}
    for sub in subs:
        for company_id in sub["scoped_to"] or ():
            by_company.setdefault(company_id, []).append(sub)
    rows = [
        delivery_row(sub["id"], event_type(c.field), webhook_body(c), c.detected_at, now, c.change_id)
        for c in changes
        for sub in [*by_company.get(c.company_id, ()), *unscoped]
        if _wants(sub, c)
    ]
    if rows:
        conn.execute(insert_for(conn, deliveries).on_conflict_do_nothing(), rows)


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


def _watchers(conn: Connection, company_ids: list[int]) -> dict[int, list[RowMapping]]:
    out: dict[int, list[RowMapping]] = {}
    query = select(watches.c.id, watches.c.email, watches.c.company_id).where(
        watches.c.company_id.in_(company_ids), watches.c.status == "confirmed"
    )
    for row in conn.execute(query).mappings():
        out.setdefault(row["company_id"], []).append(row)
    return out


def _write_watch_mails(
    conn: Connection, watchers: Mapping[int, list[RowMapping]], changes: list[Change], now: datetime
) -> None:
    """An alert e-mail per confirmed watch and insolvency flip; the worker renders and sends it."""
    rows = [
        {
            "kind": "watch_alert",
            "to_addr": w["email"],
            "watch_id": w["id"],
            "change_id": c.change_id,
            "status": "pending",
            "attempts": 0,
            "next_attempt_at": now,
            "created_at": now,
        }
        for c in changes
        if c.field in INSOLVENCY_FIELDS
        for w in watchers.get(c.company_id, ())
    ]
    if rows:
        conn.execute(insert_for(conn, email_outbox).on_conflict_do_nothing(), rows)
