"""The monitoring change hook: inside the loader's batch transaction, turn change-log rows into
monitoring events, webhook deliveries and watch e-mails (the outbox), so that they exist if and only
if the data change committed (DESIGN.md section 4, step 5). Who gets which change is decided here;
the look-ups and inserts are `db/outbox.py`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection, RowMapping

from regintel.db import outbox as db
from regintel.domain.monitoring import (
    INSOLVENCY_CHANGED,
    INSOLVENCY_FIELDS,
    Change,
    event_type,
    matches,
    severity,
    webhook_body,
)

CHUNK = 2_000  # companies per look-up (SQLite allows 32,766 bound parameters)


def record_monitoring(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """The loader's default `on_changes` hook (see `ingest.loader.default_hooks`)."""
    now = datetime.now(UTC)
    company_ids = sorted({r["company_id"] for r in rows})
    unscoped = db.unscoped_subscribers(conn, now)
    for start in range(0, len(company_ids), CHUNK):
        chunk = company_ids[start : start + CHUNK]
        in_chunk = set(chunk)
        subs = db.subscribers(conn, chunk, now) + unscoped
        flipped = sorted(
            {r["company_id"] for r in rows if r["company_id"] in in_chunk and r["field"] in INSOLVENCY_FIELDS}
        )
        watchers = db.confirmed_watchers(conn, flipped) if flipped else {}
        if not subs and not watchers:
            continue
        changes = _changes(conn, [r for r in rows if r["company_id"] in in_chunk], chunk)
        db.insert_events(conn, _event_rows(subs, changes))
        db.insert_deliveries(conn, _delivery_rows(subs, changes, now))
        db.insert_watch_mails(conn, _watch_mail_rows(watchers, changes, now))


def wants(sub: Mapping[str, Any], change: Change) -> bool:
    """Whether a subscription is told of a change: a monitoring subscription of its company's insolvency
    flips, a webhook subscription of the event types and countries it asked for, in its company scope."""
    if sub["scoped_to"] is not None and change.company_id not in sub["scoped_to"]:
        return False
    if sub["kind"] == "monitoring":
        return event_type(change.field) == INSOLVENCY_CHANGED
    return matches(event_type(change.field), change.country, sub["event_types"], sub["countries"])


def _changes(conn: Connection, rows: Sequence[Mapping[str, Any]], company_ids: list[int]) -> list[Change]:
    keys = db.company_keys(conn, company_ids)
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


def _event_rows(subs: Iterable[Mapping[str, Any]], changes: list[Change]) -> list[dict[str, Any]]:
    """One monitoring event per (key, change) for the companies a key monitors (spec 6.2)."""
    keys_by_company: dict[int, set[int]] = {}
    for sub in subs:
        if sub["kind"] == "monitoring":
            keys_by_company.setdefault(sub["company_id"], set()).add(sub["api_key_id"])
    return [
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


def _delivery_rows(subs: list[dict[str, Any]], changes: list[Change], now: datetime) -> list[dict[str, Any]]:
    # Candidates by company, so a batch costs changes × (its company's subscribers + unscoped ones).
    unscoped = [sub for sub in subs if sub["scoped_to"] is None]
    by_company: dict[int, list[dict[str, Any]]] = {}
    for sub in subs:
        for company_id in sub["scoped_to"] or ():
            by_company.setdefault(company_id, []).append(sub)
    return [
        db.delivery_row(sub["id"], event_type(c.field), webhook_body(c), c.detected_at, now, c.change_id)
        for c in changes
        for sub in [*by_company.get(c.company_id, ()), *unscoped]
        if wants(sub, c)
    ]


def _watch_mail_rows(
    watchers: Mapping[int, list[RowMapping]], changes: list[Change], now: datetime
) -> list[dict[str, Any]]:
    """An alert e-mail per confirmed watch and insolvency flip; the worker renders and sends it."""
    return [
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
