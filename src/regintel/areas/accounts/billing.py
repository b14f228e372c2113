"""Billing (spec 4.2, issue 23): the payment provider's webhook (Stripe first), verified with the
provider library's own signature check, idempotent by event id, a plan change applied to the account's
keys at once. No payment provider can be reached from this deployment unless configured: checkout
answers 503 UPSTREAM_UNAVAILABLE (docs/accounts.md, "Billing")."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar

import stripe
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from regintel.areas.accounts import queries as q
from regintel.config import Settings
from regintel.errors import Conflict, RegintelError, UpstreamUnavailable, ValidationFailed

LIVE = ("active", "trialing")
SUBSCRIPTION_EVENTS = ("customer.subscription.created", "customer.subscription.updated",
                       "customer.subscription.deleted")


class BillingManagedInAccount(Conflict):
    code: ClassVar[str] = "BILLING_MANAGED_IN_ACCOUNT"


class InvalidSignature(RegintelError):
    status: ClassVar[int] = 400
    code: ClassVar[str] = "INVALID_SIGNATURE"


def portal_session() -> None:
    raise BillingManagedInAccount("Billing is managed on the account page (/account), not with an API key")


def checkout(conn: Connection, settings: Settings, key_id: int, plan: str) -> None:
    """Checks what can be checked here, then says honestly that no provider is reachable."""
    account_id = q.key_account(conn, key_id)
    if account_id is None:
        raise Conflict("This key belongs to no account: sign up at /api/v1/public/api-signup, then pay from there")
    sub = q.get_subscription(conn, account_id)
    if sub is not None and sub["status"] in LIVE:
        raise Conflict("The account has a live subscription; change it on the account page (/account)")
    raise UpstreamUnavailable("No payment provider is configured for this deployment, so no checkout link can be "
                              "made", headers={"Retry-After": "3600"})


def webhook(conn: Connection, settings: Settings, payload: bytes, signature: str | None) -> dict[str, Any]:
    if not settings.billing_webhook_secret:
        raise UpstreamUnavailable("Billing webhooks are not configured (REGINTEL_BILLING_WEBHOOK_SECRET)")
    text = payload.decode("utf-8", errors="replace")
    try:
        stripe.WebhookSignature.verify_header(text, signature or "", settings.billing_webhook_secret, tolerance=300)
    except stripe.SignatureVerificationError:
        raise InvalidSignature("The Stripe-Signature header does not verify (wrong secret, altered body, or "
                               "older than 5 minutes)") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise ValidationFailed("The body is not JSON") from None
    obj = data.get("data", {}).get("object") if isinstance(data, dict) and isinstance(data.get("data"), dict) else None
    if not isinstance(data, dict) or not data.get("id") or not data.get("type") or not isinstance(obj, dict):
        raise ValidationFailed("Not a provider event (id, type and data.object are required)")
    event_id, type_ = str(data["id"]), str(data["type"])
    now = datetime.now(UTC)
    account_id, outcome = _apply(conn, settings, type_, obj, now)
    try:
        fresh = q.record_event(conn, event_id, type_, account_id, outcome, now)
    except IntegrityError:  # the same event delivered twice at once
        fresh = False
    if not fresh:
        conn.rollback()  # a replay: nothing it did is kept
        return {"event_id": event_id, "type": type_, "outcome": "duplicate (already processed)"}
    return {"event_id": event_id, "type": type_, "outcome": outcome}


def _apply(conn: Connection, settings: Settings, type_: str, obj: Mapping[str, Any],
           now: datetime) -> tuple[int | None, str]:
    if type_ not in SUBSCRIPTION_EVENTS:
        return None, "ignored (not a subscription event)"
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    raw = meta.get("account_id")
    if raw is None:  # int(None) would raise TypeError: the same answer as below
        return None, "ignored (no account_id in metadata)"
    try:
        account_id = int(raw)
    except (TypeError, ValueError):
        return None, "ignored (no account_id in metadata)"
    if q.get_account(conn, account_id) is None:
        return None, f"ignored (no account {account_id})"
    plan = str(meta.get("plan") or "")
    status = "canceled" if type_.endswith(".deleted") else str(obj.get("status") or "")
    if status in LIVE and plan not in settings.plans:
        return account_id, f"ignored (unknown plan {plan!r})"
    effective = plan if status in LIVE else settings.default_plan
    q.set_subscription(conn, account_id, str(obj.get("id") or ""), status, plan or effective, now)
    changed = q.set_account_plan(conn, account_id, effective)
    return account_id, f"plan {effective} ({status}); {changed} key(s) updated"
