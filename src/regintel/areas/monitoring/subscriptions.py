"""Subscription use cases: create (company and URL checked), list, delete, rotate, resume, test.

Secrets follow the Standard Webhooks format (`whsec_` + base64 of 32 random bytes). They must be
kept to sign, so they are stored as they are, and shown to the caller only when created or rotated.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.service import resolve_ico
from regintel.areas.monitoring import queries
from regintel.areas.monitoring.webhook_targets import check_webhook_url
from regintel.config import Settings
from regintel.db import deliveries as db_deliveries
from regintel.db import subscriptions as db
from regintel.db.outbox import delivery_row
from regintel.domain.monitoring import INSOLVENCY_CHANGED, TEST_EVENT, build_test_body
from regintel.errors import Conflict, ValidationFailed

STATS = (
    "status",
    "pause_reason",
    "created_at",
    "updated_at",
    "paused_at",
    "last_delivery_at",
    "last_status",
    "last_error",
    "consecutive_failures",
    "total_deliveries",
    "total_failures",
)


def make_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def monitoring_record(row: RowMapping) -> dict[str, Any]:
    return {
        "id": row["id"],
        "ico": row["national_id"],
        "country": row["country"],
        "company_name": row["company_name"],
        "webhook_url": row["url"],
        "event_types": list(row["event_types"]),
        **{k: row[k] for k in STATS},
    }


def webhook_record(row: RowMapping, scope: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "url": row["url"],
        "event_types": list(row["event_types"]),
        "countries": row["countries"] or [],
        "companies": [{"country": c, "ico": n} for c, n in scope],
        "description": row["description"],
        **{k: row[k] for k in STATS},
    }


def with_secret(record: dict[str, Any], row: RowMapping) -> dict[str, Any]:
    """The record plus its signing secret: only in create and rotate-secret answers."""
    return record | {"secret": row["secret"], "previous_secret_valid_until": row["previous_secret_until"]}


def create_monitoring(
    conn: Connection, api_key_id: int, ico: str, country: str | None, webhook_url: str, settings: Settings
) -> dict[str, Any]:
    """A subscription to one company's insolvency flips (spec 4.6). 422 for a malformed id or an
    unsafe URL, 404 for an unknown company, 409 when this key already sends that company there."""
    company = resolve_ico(conn, ico, country)
    url = check_webhook_url(webhook_url, settings.allow_private_webhooks)
    existing = db.find_duplicate(conn, api_key_id, company["id"], url)
    if existing is not None:
        raise Conflict(
            f"Subscription {existing} already sends this company's events to this URL",
            details={"id": existing},
        )
    sub_id = db.insert_subscription(
        conn,
        kind="monitoring",
        api_key_id=api_key_id,
        company_id=company["id"],
        url=url,
        secret=make_secret(),
        event_types=[INSOLVENCY_CHANGED],
        now=datetime.now(UTC),
    )
    row = db.get_subscription(conn, sub_id, api_key_id, "monitoring")
    return with_secret(monitoring_record(row), row)


def get_monitoring(conn: Connection, api_key_id: int, sub_id: int) -> dict[str, Any]:
    row = db.get_subscription(conn, sub_id, api_key_id, "monitoring")
    return monitoring_record(row) | {"queued_deliveries": db_deliveries.count_queued(conn, sub_id)}


def list_monitoring(
    conn: Connection, api_key_id: int, *, status: str | None, page: int, per_page: int
) -> tuple[list[dict[str, Any]], int]:
    rows, total = db.list_subscriptions(
        conn, api_key_id, "monitoring", status=status, offset=(page - 1) * per_page, limit=per_page
    )
    return [monitoring_record(r) for r in rows], total


def delete(conn: Connection, api_key_id: int, sub_id: int, kind: str) -> dict[str, Any]:
    db.get_subscription(conn, sub_id, api_key_id, kind)
    cancelled = db.delete_subscription(conn, sub_id, datetime.now(UTC))
    return {"id": sub_id, "deleted": True, "cancelled_deliveries": cancelled}


def rotate(conn: Connection, api_key_id: int, sub_id: int, kind: str, settings: Settings) -> dict[str, Any]:
    """A new secret, effective at once; for `webhook_secret_grace_hours` deliveries also carry a
    signature made with the old one, so receivers can switch without losing a message."""
    row = db.get_subscription(conn, sub_id, api_key_id, kind)
    now = datetime.now(UTC)
    grace = timedelta(hours=settings.webhook_secret_grace_hours)
    db.rotate_secret(conn, row, make_secret(), now + grace if grace else None, now)
    row = db.get_subscription(conn, sub_id, api_key_id, kind)
    return with_secret(_record(conn, row), row)


def resume(conn: Connection, api_key_id: int, sub_id: int, kind: str, retry_failed: bool) -> dict[str, Any]:
    db.get_subscription(conn, sub_id, api_key_id, kind)
    requeued = db.resume(conn, sub_id, retry_failed, datetime.now(UTC))
    row = db.get_subscription(conn, sub_id, api_key_id, kind)
    return _record(conn, row) | {"requeued_deliveries": requeued}


def queue_test(conn: Connection, api_key_id: int, sub_id: int) -> dict[str, Any]:
    """Queue a signed delivery of type `test` behind whatever the subscription already has queued."""
    row = db.get_subscription(conn, sub_id, api_key_id, "monitoring")
    now = datetime.now(UTC)
    values = delivery_row(
        sub_id, TEST_EVENT, build_test_body(row["country"], row["national_id"], now), now, now
    )
    delivery_id = queries.insert_delivery(conn, values)
    return {
        "delivery_id": values["message_id"],
        "id": delivery_id,
        "subscription_id": sub_id,
        "status": "pending",
        "subscription_status": row["status"],
    }


def list_subscription_deliveries(
    conn: Connection,
    api_key_id: int,
    sub_id: int,
    kind: str,
    *,
    before_id: int | None,
    limit: int,
    status: str | None,
) -> list[dict[str, Any]]:
    db.get_subscription(conn, sub_id, api_key_id, kind)
    rows = db_deliveries.list_deliveries(conn, sub_id, before_id=before_id, limit=limit, status=status)
    return [
        {
            "id": r["id"],
            "delivery_id": r["message_id"],
            "event_type": r["event_type"],
            "status": r["status"],
            "attempts": r["attempts"],
            "detected_at": r["detected_at"],
            "created_at": r["created_at"],
            "next_attempt_at": r["next_attempt_at"] if r["status"] == "pending" else None,
            "delivered_at": r["delivered_at"],
            "last_status_code": r["last_status_code"],
            "last_error": r["last_error"],
            "attempt_log": [
                {
                    "attempt": a["attempt"],
                    "attempted_at": a["attempted_at"],
                    "status_code": a["status_code"],
                    "error": a["error"],
                    "duration_ms": a["duration_ms"],
                }
                for a in r["attempt_log"]
            ],
        }
        for r in rows
    ]


def _record(conn: Connection, row: RowMapping) -> dict[str, Any]:
    if row["kind"] == "monitoring":
        return monitoring_record(row)
    return webhook_record(row, db.list_scope(conn, [row["id"]])[row["id"]])


def parse_status(status: str | None) -> str | None:
    if status is not None and status not in ("active", "paused"):
        raise ValidationFailed(
            "status must be `active` or `paused`",
            details=[{"field": "status", "in": "query", "message": "active | paused"}],
        )
    return status
