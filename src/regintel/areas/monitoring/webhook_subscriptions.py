"""Generic webhook subscriptions (spec 4.5): event-type filters, optionally scoped to countries or
companies. They share the outbox, signing, retries and pausing of monitoring subscriptions."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.companies.service import get_company_row
from regintel.areas.monitoring.subscriptions import make_secret, webhook_record, with_secret
from regintel.areas.monitoring.webhook_targets import check_webhook_url
from regintel.config import Settings
from regintel.db import subscriptions as db
from regintel.domain.identifiers import parse_country
from regintel.domain.monitoring import COMPANY_CHANGED, EVENT_TYPES
from regintel.errors import InvalidIdentifier, NotFound, ValidationFailed

MAX_SCOPE = 1_000


def _invalid(field: str, message: str) -> ValidationFailed:
    return ValidationFailed(message, details=[{"field": field, "in": "body", "message": message}])


def _event_types(values: Sequence[str]) -> list[str]:
    unknown = sorted(set(values) - set(EVENT_TYPES))
    if not values or unknown:
        raise _invalid(
            "event_types", f"Unknown or missing event types {unknown}; allowed: {', '.join(EVENT_TYPES)}"
        )
    return sorted(set(values), key=EVENT_TYPES.index)


def _countries(values: Sequence[str] | None) -> list[str]:
    out = []
    for i, value in enumerate(values or []):
        try:
            out.append(parse_country(value))
        except InvalidIdentifier as exc:
            raise _invalid(f"countries.{i}", exc.message) from None
    return sorted(set(out))


def _scope(conn: Connection, companies: Sequence[tuple[str, str]]) -> list[int]:
    ids = []
    for i, (country, ico) in enumerate(companies):
        try:
            ids.append(int(get_company_row(conn, country, ico)["id"]))
        except (InvalidIdentifier, NotFound) as exc:
            # Same class, so the status stays: 422 for a malformed id, 404 for an unknown company.
            raise type(exc)(
                f"companies.{i}: {exc.message}",
                details=[{"field": f"companies.{i}", "in": "body", "message": exc.message}],
            ) from None
    return sorted(set(ids))


def create_webhook(
    conn: Connection,
    api_key_id: int,
    *,
    url: str,
    event_types: Sequence[str],
    countries: Sequence[str] | None,
    companies: Sequence[tuple[str, str]],
    description: str | None,
    settings: Settings,
) -> dict[str, Any]:
    """Create a generic subscription. `company.changed` needs a company scope: unscoped it would be a
    copy of every register import."""
    types = _event_types(event_types)
    if len(companies) > MAX_SCOPE:
        raise _invalid("companies", f"At most {MAX_SCOPE} companies per subscription")
    if COMPANY_CHANGED in types and not companies:
        raise _invalid("companies", f"`{COMPANY_CHANGED}` needs `companies`: list the companies to follow")
    checked_url = check_webhook_url(url, settings.allow_private_webhooks, field="url")
    scope = _scope(conn, companies)
    sub_id = db.insert_subscription(
        conn,
        kind="webhook",
        api_key_id=api_key_id,
        url=checked_url,
        secret=make_secret(),
        event_types=types,
        countries=_countries(countries),
        description=description,
        scope=scope,
        now=datetime.now(UTC),
    )
    row = db.get_subscription(conn, sub_id, api_key_id, "webhook")
    return with_secret(webhook_record(row, db.list_scope(conn, [sub_id])[sub_id]), row)


def list_webhooks(
    conn: Connection, api_key_id: int, *, status: str | None, page: int, per_page: int
) -> tuple[list[dict[str, Any]], int]:
    rows, total = db.list_subscriptions(
        conn, api_key_id, "webhook", status=status, offset=(page - 1) * per_page, limit=per_page
    )
    scopes = db.list_scope(conn, [r["id"] for r in rows])
    return [webhook_record(r, scopes[r["id"]]) for r in rows], total
