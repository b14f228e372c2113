"""Billing through HTTP: the Stripe webhook verified with the `stripe` library (payloads signed locally
with its own test helper), idempotency, plan changes applied to the account's keys, and the honest
answers of checkout and portal when no provider is configured (test_billing_provider.py runs them against a
local fake of Stripe's API)."""

from __future__ import annotations

import json
import time

import pytest
from stripe import WebhookSignature

from tests.areas_accounts.test_account_api import sign_in
from tests.helpers import assert_envelope, assert_error

SECRET = "whsec_test_" + "s" * 24


@pytest.fixture
def billed(app_factory):
    return app_factory(billing_webhook_secret=SECRET)


def event(event_id, type_, account_id, plan="business", status="active"):
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": type_,
            "data": {
                "object": {
                    "id": "sub_1",
                    "object": "subscription",
                    "status": status,
                    "metadata": {"account_id": str(account_id), "plan": plan},
                }
            },
        }
    )


def post(client, payload, secret=SECRET, timestamp=None):
    header = WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    return client.post(
        "/api/v1/billing/webhook",
        content=payload.encode(),
        headers={"Stripe-Signature": header, "Content-Type": "application/json"},
    )


def test_webhook_changes_plan_of_account_and_keys(billed, engine):
    csrf = sign_in(billed, engine)
    account = assert_envelope(billed.get("/account"))
    key = assert_envelope(billed.post("/account/api-keys", json={"name": "k"}, headers=csrf), 201)
    assert key["plan"] == "free"
    out = assert_envelope(post(billed, event("evt_1", "customer.subscription.created", account["id"])))
    assert out["outcome"].startswith("plan business (active); 1 key")
    view = assert_envelope(billed.get("/account"))
    assert view["plan"] == "business" and view["api_keys"][0]["plan"] == "business"
    billed.app.state.key_cache._entries.clear()
    me = assert_envelope(billed.get("/api/v1/me", headers={"Authorization": f"Bearer {key['key']}"}))
    assert "business" in json.dumps(me).lower()
    # replay: same event id changes nothing
    dup = assert_envelope(post(billed, event("evt_1", "customer.subscription.deleted", account["id"])))
    assert dup["outcome"].startswith("duplicate")
    assert assert_envelope(billed.get("/account"))["plan"] == "business"
    # cancellation returns to the default plan
    assert_envelope(post(billed, event("evt_2", "customer.subscription.deleted", account["id"])))
    assert assert_envelope(billed.get("/account"))["api_keys"][0]["plan"] == "free"


def test_forged_stale_and_malformed_webhooks(billed, engine):
    payload = event("evt_x", "customer.subscription.created", 1)
    assert_error(post(billed, payload, secret="whsec_wrong"), 400, "INVALID_SIGNATURE")
    assert_error(post(billed, payload, timestamp=int(time.time()) - 3600), 400, "INVALID_SIGNATURE")
    assert_error(billed.post("/api/v1/billing/webhook", content=payload), 400, "INVALID_SIGNATURE")
    header = WebhookSignature.generate_signature_header(payload, SECRET)
    altered = payload.replace("business", "enterprise")
    assert_error(
        billed.post("/api/v1/billing/webhook", content=altered, headers={"Stripe-Signature": header}),
        400,
        "INVALID_SIGNATURE",
    )
    assert_error(post(billed, "not json"), 422, "VALIDATION_ERROR")
    assert_error(billed.post("/api/v1/billing/webhook", content=b"x" * 600_000), 422, "VALIDATION_ERROR")


def test_unknown_account_plan_and_event_are_recorded_not_applied(billed, engine):
    sign_in(billed, engine)
    account = assert_envelope(billed.get("/account"))
    assert (
        "no account"
        in assert_envelope(post(billed, event("e1", "customer.subscription.created", 999)))["outcome"]
    )
    assert (
        "unknown plan"
        in assert_envelope(
            post(billed, event("e2", "customer.subscription.updated", account["id"], plan="platinum"))
        )["outcome"]
    )
    assert "ignored" in assert_envelope(post(billed, event("e3", "invoice.paid", account["id"])))["outcome"]
    assert assert_envelope(billed.get("/account"))["plan"] == "free"


def test_webhook_without_secret_is_503(client):
    assert_error(client.post("/api/v1/billing/webhook", content=b"{}"), 503, "UPSTREAM_UNAVAILABLE")


def test_portal_session_is_always_409(client, auth):
    assert_error(
        client.post("/api/v1/billing/portal-session", headers=auth), 409, "BILLING_MANAGED_IN_ACCOUNT"
    )
    assert_error(client.post("/api/v1/billing/portal-session"), 401, "UNAUTHORIZED")


def test_checkout_session(billed, engine, auth):
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "business"}), 401, "UNAUTHORIZED"
    )
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "business"}, headers=auth),
        409,
        "CONFLICT",
    )  # a CLI key belongs to no account
    csrf = sign_in(billed, engine)
    raw = assert_envelope(billed.post("/account/api-keys", json={"name": "k"}, headers=csrf), 201)["key"]
    mine = {"Authorization": f"Bearer {raw}"}
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "nope"}, headers=mine),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "business", "x": 1}, headers=mine),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "business"}, headers=mine),
        503,
        "UPSTREAM_UNAVAILABLE",
    )
    account = assert_envelope(billed.get("/account"))
    post(billed, event("evt_live", "customer.subscription.created", account["id"]))
    billed.app.state.key_cache._entries.clear()
    assert_error(
        billed.post("/api/v1/billing/checkout-session", json={"plan": "business"}, headers=mine),
        409,
        "SUBSCRIPTION_ACTIVE",
    )


def test_signed_but_malformed_event_is_422(billed):
    for payload in ("{}", json.dumps({"id": "e", "type": "t", "data": "x"}), "[]"):
        resp = post(billed, payload)
        assert resp.status_code in (400, 422), payload
        assert resp.status_code != 500
