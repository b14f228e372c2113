"""Billing (spec 4.2, 4.8, issue 23): checkout and the customer portal through a small provider interface
(Stripe first, with the `stripe` library; `REGINTEL_STRIPE_API_BASE` points it elsewhere, e.g. a local
fake in the tests), the plan suggestion of the account page, and the provider's webhook, verified with the
provider library's own signature check, idempotent by event id, a plan change applied to the account's
keys at once (docs/accounts.md, "Billing")."""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol

import stripe
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from regintel.api.limiter import Limiter, next_month_start
from regintel.areas.accounts import queries as q
from regintel.config import Settings
from regintel.errors import (
    Conflict,
    RegintelError,
    UpstreamUnavailable,
    ValidationFailed,
)

LIVE = ("active", "trialing", "past_due")  # past_due: the provider is still retrying the payment
SUBSCRIPTION_EVENTS = (
    "customer.subscription.created",
    "customer.subscription.updated",
    "customer.subscription.deleted",
)
# A one-time pack is paid when its checkout completes paid, or later for delayed methods (SEPA debit).
PAYMENT_EVENTS = ("checkout.session.completed", "checkout.session.async_payment_succeeded")
REFUND_EVENT = "charge.refunded"
PROVIDER_TIMEOUT = 10.0
HEADROOM = 1.2  # a suggestion leaves 20 % of the quota free at the projected month's end


class BillingManagedInAccount(Conflict):
    code: ClassVar[str] = "BILLING_MANAGED_IN_ACCOUNT"


class SubscriptionActive(Conflict):
    code: ClassVar[str] = "SUBSCRIPTION_ACTIVE"


class InvalidSignature(RegintelError):
    status: ClassVar[int] = 400
    code: ClassVar[str] = "INVALID_SIGNATURE"


class ProviderFailed(UpstreamUnavailable):
    """The provider answered, but with an error (or not in time): 502."""

    status: ClassVar[int] = 502


class Provider(Protocol):
    """What the service needs of a payment provider."""

    name: str

    def create_customer(self, account_id: int, email: str) -> str: ...

    def checkout(
        self,
        *,
        customer: str,
        price: str,
        mode: str,
        account_id: int,
        plan: str,
        success_url: str,
        cancel_url: str,
    ) -> dict[str, Any]: ...

    def portal(self, *, customer: str, return_url: str) -> str: ...


class StripeProvider:
    name = "stripe"

    def __init__(self, api_key: str, api_base: str):
        self.client = stripe.StripeClient(
            api_key,
            base_addresses={"api": api_base.rstrip("/")},
            max_network_retries=1,
            http_client=stripe.HTTPXClient(timeout=PROVIDER_TIMEOUT, allow_sync_methods=True),
        )

    def create_customer(self, account_id: int, email: str) -> str:
        customer = self.client.v1.customers.create(
            params={"email": email, "metadata": {"account_id": str(account_id)}},
            options={"idempotency_key": f"regintel-customer-{account_id}"},
        )
        return str(customer.id)

    def checkout(
        self,
        *,
        customer: str,
        price: str,
        mode: str,
        account_id: int,
        plan: str,
        success_url: str,
        cancel_url: str,
    ) -> dict[str, Any]:
        meta = {"account_id": str(account_id), "plan": plan}
        params: dict[str, Any] = {
            "mode": mode,
            "customer": customer,
            "line_items": [{"price": price, "quantity": 1}],
            "success_url": success_url,
            "cancel_url": cancel_url,
            "client_reference_id": str(account_id),
            "metadata": meta,
        }
        if mode == "subscription":
            params["subscription_data"] = {"metadata": meta}
        session = self.client.v1.checkout.sessions.create(params=params)  # type: ignore[arg-type]
        expires = getattr(session, "expires_at", None)
        return {
            "session_id": str(session.id),
            "url": str(session.url),
            "expires_at": datetime.fromtimestamp(int(expires), UTC) if expires else None,
        }

    def portal(self, *, customer: str, return_url: str) -> str:
        session = self.client.v1.billing_portal.sessions.create(
            params={"customer": customer, "return_url": return_url}
        )
        return str(session.url)


@functools.lru_cache(maxsize=8)
def _stripe(api_key: str, api_base: str) -> StripeProvider:
    return StripeProvider(api_key, api_base)  # one HTTP client (and its connections) per configuration


def provider(settings: Settings) -> Provider:
    if not settings.stripe_api_key:
        raise UpstreamUnavailable(
            "No payment provider is configured for this deployment (REGINTEL_STRIPE_API_KEY), "
            "so no checkout or portal link can be made",
            headers={"Retry-After": "3600"},
        )
    return _stripe(settings.stripe_api_key, settings.stripe_api_base)


def _call(what: str, fn: Any, **kwargs: Any) -> Any:
    try:
        return fn(**kwargs)
    except stripe.StripeError as error:
        status = getattr(error, "http_status", None)
        raise ProviderFailed(
            f"The payment provider refused or failed to create the {what}"
            + (f" (HTTP {status})" if status else " (no answer)")
        ) from None


def declare_plans(doc: dict[str, Any], settings: Settings) -> None:
    """Say in the OpenAPI document which `plan` and `kind` a checkout takes on this deployment (issue 16: a
    schema-valid body is never refused, an invalid one never accepted): the plans for sale (all the
    deployment's plans when none has a price, as `_mode` checks them first), each with its `kind`."""
    schema = doc.get("components", {}).get("schemas", {}).get("CheckoutIn")
    if schema is None:
        return
    names = sorted(p for p in settings.billing_prices if p in settings.plans) or sorted(settings.plans)
    monthly = [p for p in names if settings.plans[p].budget is None]
    passes = [p for p in names if settings.plans[p].budget is not None]
    schema["properties"]["plan"]["enum"] = names
    branches: list[dict[str, Any]] = []
    if monthly:
        branches.append(
            {
                "properties": {"plan": {"enum": monthly}, "kind": {"const": "subscription"}},
                "required": ["plan"],
            }
        )
    if passes:
        branches.append(
            {
                "properties": {"plan": {"enum": passes}, "kind": {"const": "pack"}},
                "required": ["plan", "kind"],
            }
        )
    schema["oneOf"] = branches


def portal_session() -> None:
    raise BillingManagedInAccount("Billing is managed on the account page (/account), not with an API key")


def _mode(settings: Settings, plan: str, kind: str) -> str:
    """`subscription` for a plan with a monthly quota, `payment` for a pass; 422 when `kind` disagrees."""
    if plan not in settings.plans:
        raise ValidationFailed(
            f"Unknown plan {plan!r}",
            details=[{"field": "plan", "in": "body", "allowed": sorted(settings.plans)}],
        )
    is_pass = settings.plans[plan].budget is not None
    if is_pass != (kind == "pack"):
        raise ValidationFailed(
            f"Plan {plan!r} is {'a pass, sold as kind=pack' if is_pass else 'a subscription'}",
            details=[{"field": "kind", "in": "body", "reason": "kind_mismatch"}],
        )
    return "payment" if is_pass else "subscription"


def checkout(
    conn: Connection, settings: Settings, base: str, account_id: int | None, plan: str, kind: str
) -> dict[str, Any]:
    """A hosted checkout link of the provider for the account (created at the provider on first use)."""
    mode = _mode(settings, plan, kind)
    if account_id is None:
        raise Conflict(
            "This key belongs to no account: sign up at /api/v1/public/api-signup, then pay from there"
        )
    account = q.get_account(conn, account_id)
    assert account is not None
    sub = q.get_subscription(conn, account_id)
    if sub is not None and sub["status"] in LIVE:
        raise SubscriptionActive(
            "The account has a live subscription; change it on the account page (GET /account/billing/portal)"
        )
    pay = provider(settings)
    price = settings.billing_prices.get(plan)
    if not price:
        raise ValidationFailed(
            f"Plan {plan!r} is not for sale on this deployment",
            details=[
                {
                    "field": "plan",
                    "in": "body",
                    "reason": "not_for_sale",
                    "allowed": sorted(settings.billing_prices),
                }
            ],
        )
    customer = _customer(conn, pay, account_id, str(account["email"]))
    out: dict[str, Any] = _call(
        "checkout session",
        pay.checkout,
        customer=customer,
        price=price,
        mode=mode,
        account_id=account_id,
        plan=plan,
        success_url=f"{base}/account?billing=success&session_id={{CHECKOUT_SESSION_ID}}",
        cancel_url=f"{base}/account?billing=cancelled",
    )
    return {**out, "plan": plan, "mode": mode, "provider": pay.name}


def checkout_for_key(
    conn: Connection, settings: Settings, base: str, key_id: int, plan: str, kind: str
) -> dict[str, Any]:
    """`checkout` for the account owning an API key (none for a key made by `regintel keys create`)."""
    return checkout(conn, settings, base, q.key_account(conn, key_id), plan, kind)


def _customer(conn: Connection, pay: Provider, account_id: int, email: str) -> str:
    row = q.get_customer(conn, account_id)
    if row is not None:
        return str(row["customer_id"])
    customer: str = _call("customer", pay.create_customer, account_id=account_id, email=email)
    q.set_customer(conn, account_id, pay.name, customer, datetime.now(UTC))
    return customer


def portal(conn: Connection, settings: Settings, base: str, account_id: int) -> dict[str, Any]:
    pay = provider(settings)
    row = q.get_customer(conn, account_id)
    if row is None:
        raise Conflict(
            "This account has never paid, so the provider has no billing account for it; buy a plan "
            "first (POST /account/billing)"
        )
    url: str = _call(
        "portal session", pay.portal, customer=str(row["customer_id"]), return_url=f"{base}/account"
    )
    return {"url": url, "provider": pay.name}


def suggest(conn: Connection, settings: Settings, limiter: Limiter, account_id: int) -> dict[str, Any]:
    """A plan for the account's usage this month: its keys and OAuth tokens share the account's monthly
    quota, so the account's projection (its use so far, spread over the elapsed part of the month) is what
    a plan must hold. Passes count against their own budgets and are left out."""
    account = q.get_account(conn, account_id)
    assert account is not None
    now = datetime.now(UTC)
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    end = next_month_start(now)
    elapsed = max((now - start).total_seconds(), 86_400.0) / (end - start).total_seconds()
    quota = limiter.account_quota(account_id, str(account["plan"]))
    used = quota.used if quota is not None else 0
    projected = math.ceil(used / min(elapsed, 1.0))
    monthly = sorted(
        ((name, plan) for name, plan in settings.plans.items() if plan.monthly_quota is not None),
        key=lambda item: item[1].monthly_quota or 0,
    )
    fits = [name for name, plan in monthly if (plan.monthly_quota or 0) >= projected * HEADROOM]
    current = str(account["plan"])
    suggested = fits[0] if fits else (monthly[-1][0] if monthly else current)
    current_quota = settings.plan(current).monthly_quota
    if suggested == current:
        reason = "The current plan holds this month's projected use"
    elif current_quota is not None and (settings.plans[suggested].monthly_quota or 0) < current_quota:
        reason = "A smaller plan holds this month's projected use"
    elif fits:
        reason = "The account's projected use exceeds the current plan's monthly quota (with 20 % headroom)"
    else:
        reason = "No plan holds the projected use; this is the largest"
    return {
        "current_plan": current,
        "suggested_plan": suggested,
        "reason": reason,
        "month": f"{now:%Y-%m}",
        "month_elapsed": round(elapsed, 4),
        "used": used,
        "projected": projected,
        "for_sale": suggested in settings.billing_prices,
        "plans": [
            {
                "plan": name,
                "title": plan.title,
                "monthly_quota": plan.monthly_quota,
                "for_sale": name in settings.billing_prices,
            }
            for name, plan in monthly
        ],
    }


def webhook(conn: Connection, settings: Settings, payload: bytes, signature: str | None) -> dict[str, Any]:
    if not settings.billing_webhook_secret:
        raise UpstreamUnavailable("Billing webhooks are not configured (REGINTEL_BILLING_WEBHOOK_SECRET)")
    text = payload.decode("utf-8", errors="replace")
    try:
        stripe.WebhookSignature.verify_header(
            text, signature or "", settings.billing_webhook_secret, tolerance=300
        )
    except stripe.SignatureVerificationError:
        raise InvalidSignature(
            "The Stripe-Signature header does not verify (wrong secret, altered body, or "
            "older than 5 minutes)"
        ) from None
    try:
        data = json.loads(text)
    except ValueError:
        raise ValidationFailed("The body is not JSON") from None
    obj = (
        data.get("data", {}).get("object")
        if isinstance(data, dict) and isinstance(data.get("data"), dict)
        else None
    )
    if not isinstance(data, dict) or not data.get("id") or not data.get("type") or not isinstance(obj, dict):
        raise ValidationFailed("Not a provider event (id, type and data.object are required)")
    event_id, type_ = str(data["id"])[:100], str(data["type"])[:100]
    now = datetime.now(UTC)
    if type_ in PAYMENT_EVENTS:
        account_id, outcome = _apply_payment(conn, settings, event_id, obj, now)
    elif type_ == REFUND_EVENT:
        account_id, outcome = _apply_refund(conn, obj, now)
    else:
        account_id, outcome = _apply(conn, settings, type_, obj, now)
    try:
        fresh = q.record_event(conn, event_id, type_, account_id, outcome, now)
    except IntegrityError:  # the same event delivered twice at once
        fresh = False
    if not fresh:
        conn.rollback()  # a replay: nothing it did is kept
        return {"event_id": event_id, "type": type_, "outcome": "duplicate (already processed)"}
    return {"event_id": event_id, "type": type_, "outcome": outcome}


def _account_of(conn: Connection, obj: Mapping[str, Any]) -> tuple[int | None, str | None]:
    """The account an event's object names in the metadata the service set at checkout, or why not."""
    meta = obj.get("metadata")
    raw = meta.get("account_id") if isinstance(meta, dict) else None
    if raw is None:  # int(None) would raise TypeError: the same answer as below
        return None, "ignored (no account_id in metadata)"
    try:
        account_id = int(raw)
    except (TypeError, ValueError):
        return None, "ignored (no account_id in metadata)"
    if not 0 < account_id < 2**62 or q.get_account(conn, account_id) is None:
        return None, f"ignored (no account {account_id})"
    customer = obj.get("customer")
    known = q.get_customer(conn, account_id)
    if known is not None and isinstance(customer, str) and customer != known["customer_id"]:
        return account_id, "ignored (the customer is not this account's)"
    return account_id, None


def _apply_payment(
    conn: Connection, settings: Settings, event_id: str, obj: Mapping[str, Any], now: datetime
) -> tuple[int | None, str]:
    """A paid one-time pack: the account gets a pass, which it turns into a key on its page."""
    if obj.get("mode") != "payment":
        return None, "ignored (not a one-time payment; subscriptions follow their own events)"
    if obj.get("payment_status") != "paid":
        return None, f"ignored (payment_status {str(obj.get('payment_status'))[:20]!r}, not paid yet)"
    account_id, refused = _account_of(conn, obj)
    if refused is not None or account_id is None:
        return account_id, refused or "ignored"
    meta = obj.get("metadata")
    plan = str(meta.get("plan") or "") if isinstance(meta, dict) else ""
    if plan not in settings.plans or settings.plans[plan].budget is None:
        return account_id, f"ignored (plan {plan[:32]!r} is not a pass)"
    checkout_id = str(obj.get("id") or "")[:100]
    if not checkout_id:
        return account_id, "ignored (no checkout session id)"
    intent = obj.get("payment_intent")
    if not q.insert_pass(
        conn,
        account_id=account_id,
        plan=plan,
        checkout_id=checkout_id,
        event_id=event_id,
        paid_at=now,
        payment_intent=intent[:100] if isinstance(intent, str) and intent else None,
    ):
        return account_id, f"ignored (checkout {checkout_id} already granted its pass)"
    return account_id, f"pass {plan} granted"


def _apply_refund(conn: Connection, obj: Mapping[str, Any], now: datetime) -> tuple[int | None, str]:
    """A charge refunded in full takes back the pass it paid for: the pass is marked refunded and its key
    revoked (refused within the key cache's 2 s). A partial refund is recorded only: how much of a pass a
    partial refund is worth is the operator's call (revoke the key on the account page or with the CLI)."""
    intent = obj.get("payment_intent")
    if not isinstance(intent, str) or not intent:
        return None, "ignored (no payment_intent: not the payment of a pass)"
    found = q.passes_of_payment(conn, intent[:100])
    if not found:
        return None, "ignored (no pass was paid with this payment)"
    account_id = int(found[0]["account_id"])
    customer, known = obj.get("customer"), q.get_customer(conn, account_id)
    if known is not None and isinstance(customer, str) and customer != known["customer_id"]:
        return account_id, "ignored (the customer is not this account's)"
    if obj.get("refunded") is not True:
        return account_id, "recorded (partial refund: the pass stays; the operator decides)"
    refunded = [int(p["id"]) for p in found if q.refund_pass(conn, int(p["id"]), now)]
    if not refunded:
        return account_id, "ignored (the pass was refunded already)"
    keys = [str(p["api_key_id"]) for p in found if int(p["id"]) in refunded and p["api_key_id"]]
    return (
        account_id,
        f"pass {', '.join(map(str, refunded))} refunded; key {', '.join(keys) or 'none'} revoked",
    )


def _apply(
    conn: Connection, settings: Settings, type_: str, obj: Mapping[str, Any], now: datetime
) -> tuple[int | None, str]:
    if type_ not in SUBSCRIPTION_EVENTS:
        return None, "ignored (not a subscription or payment event)"
    account_id, refused = _account_of(conn, obj)
    if refused is not None or account_id is None:
        return account_id, refused or "ignored"
    customer = obj.get("customer")
    known = q.get_customer(conn, account_id)
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    plan = str(meta.get("plan") or "")
    status = "canceled" if type_.endswith(".deleted") else str(obj.get("status") or "")
    if status in LIVE and plan not in settings.plans:
        return account_id, f"ignored (unknown plan {plan!r})"
    effective = plan if status in LIVE else settings.default_plan
    if known is None and isinstance(customer, str) and customer:
        q.set_customer(conn, account_id, "stripe", customer[:100], now)
    q.set_subscription(conn, account_id, str(obj.get("id") or ""), status, plan or effective, now)
    changed = q.set_account_plan(conn, account_id, effective)
    return account_id, f"plan {effective} ({status}); {changed} key(s) updated"
