"""One-time packs (spec 4.2, 8): a day or week pass bought through the hosted checkout (the local fake of
Stripe's API), fulfilled by the provider's signed `checkout.session.completed` callback (idempotent by event
id and by checkout), then turned into a key on the account page with the pass's budget and validity."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from regintel.config import DEFAULT_PLANS, Plan
from tests.areas_accounts.fakes import FakeStripe
from tests.areas_accounts.test_account_api import sign_in
from tests.areas_accounts.test_billing import SECRET, post
from tests.areas_accounts.test_billing_provider import PRICES, stripe_fake, subscription  # noqa: F401 (fixture)
from tests.helpers import assert_envelope, assert_error

# budget 3, so the end of the budget is reached in the test
SMALL_DAY_PASS = {
    **DEFAULT_PLANS,
    "day_pass": Plan(title="Day pass", rate_per_minute=300, budget=3, duration_days=1),
}


@pytest.fixture
def shop(app_factory, stripe_fake):  # noqa: F811
    fake, url = stripe_fake
    return app_factory(
        stripe_api_key=FakeStripe.KEY,
        stripe_api_base=url,
        billing_prices=PRICES,
        billing_webhook_secret=SECRET,
        plans=SMALL_DAY_PASS,
    ), fake


def paid(
    event_id,
    account_id,
    checkout_id,
    customer,
    plan="day_pass",
    status="paid",
    mode="payment",
    type_="checkout.session.completed",
):
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": type_,
            "data": {
                "object": {
                    "id": checkout_id,
                    "object": "checkout.session",
                    "mode": mode,
                    "payment_status": status,
                    "customer": customer,
                    "metadata": {"account_id": str(account_id), "plan": plan},
                }
            },
        }
    )


def test_a_paid_day_pass_becomes_a_key_with_its_budget_and_expiry(shop, engine):
    client, fake = shop
    csrf = sign_in(client, engine)
    account = assert_envelope(client.get("/account"))
    out = assert_envelope(
        client.post("/account/billing", json={"plan": "day_pass", "kind": "pack"}, headers=csrf)
    )
    assert out["mode"] == "payment" and out["plan"] == "day_pass"
    _, _, session = fake.calls[-1]
    assert session["mode"] == "payment" and session["line_items[0][price]"] == "price_day_test"
    assert session["metadata[plan]"] == "day_pass" and session["metadata[account_id]"] == str(account["id"])
    assert "subscription_data[metadata][plan]" not in session
    customer, checkout_id = session["customer"], out["session_id"]

    # not paid yet (a delayed method): nothing granted
    pending = assert_envelope(
        post(client, paid("evt_p0", account["id"], checkout_id, customer, status="unpaid"))
    )
    assert "not paid" in pending["outcome"] and assert_envelope(client.get("/account"))["passes"] == []
    granted = assert_envelope(post(client, paid("evt_p1", account["id"], checkout_id, customer)))
    assert granted["outcome"] == "pass day_pass granted"
    # the same event again, and the provider's second event for the same checkout, grant nothing more
    assert assert_envelope(post(client, paid("evt_p1", account["id"], checkout_id, customer)))[
        "outcome"
    ].startswith("duplicate")
    again = assert_envelope(
        post(
            client,
            paid(
                "evt_p2",
                account["id"],
                checkout_id,
                customer,
                type_="checkout.session.async_payment_succeeded",
            ),
        )
    )
    assert "already granted" in again["outcome"]
    passes = assert_envelope(client.get("/account"))["passes"]
    assert len(passes) == 1 and passes[0]["plan"] == "day_pass" and passes[0]["claimed_at"] is None

    key = assert_envelope(
        client.post("/account/api-keys", json={"name": "today", "pass_id": passes[0]["id"]}, headers=csrf),
        201,
    )
    assert key["plan"] == "day_pass" and key["key"].startswith("ri_")
    expires = datetime.fromisoformat(key["expires_at"])
    assert timedelta(hours=23, minutes=59) < expires - datetime.now(UTC) <= timedelta(days=1)
    view = assert_envelope(client.get("/account"))
    assert view["passes"][0]["api_key_id"] == key["id"] and view["passes"][0]["claimed_at"]
    assert view["plan"] == "free"  # a pass is its own key; the account's plan is unchanged
    # a pass becomes one key only
    assert_error(
        client.post("/account/api-keys", json={"name": "twice", "pass_id": passes[0]["id"]}, headers=csrf),
        409,
        "CONFLICT",
    )
    # a paid pass is not renewed for free
    assert_error(client.post(f"/account/api-keys/{key['id']}/renew", headers=csrf), 409, "CONFLICT")

    auth = {"Authorization": f"Bearer {key['key']}"}
    me = assert_envelope(client.get("/api/v1/me", headers=auth))
    assert me["usage"]["period"] == "pass" and me["usage"]["limit"] == 3
    assert datetime.fromisoformat(me["usage"]["resets_at"].replace("Z", "+00:00")) == expires.replace(
        microsecond=0
    )
    client.get("/api/v1/me", headers=auth)
    client.get("/api/v1/me", headers=auth)
    assert_error(client.get("/api/v1/me", headers=auth), 429, "QUOTA_EXCEEDED")  # the budget is spent

    # a later subscription changes the account's keys, not the key of the pass it paid for apart
    assert_envelope(post(client, subscription("evt_s1", account["id"], customer, plan="pro")))
    plans = {k["id"]: k["plan"] for k in assert_envelope(client.get("/account"))["api_keys"]}
    assert plans[key["id"]] == "day_pass"


def test_pass_events_that_grant_nothing(shop, engine):
    client, _ = shop
    csrf = sign_in(client, engine)
    account = assert_envelope(client.get("/account"))
    me = account["id"]
    cases = [
        (paid("e1", me, "cs_1", None, plan="pro"), "not a pass"),
        (paid("e2", me, "cs_2", None, plan="platinum"), "not a pass"),
        (paid("e3", me, "cs_3", None, mode="subscription"), "not a one-time payment"),
        (paid("e4", 987654, "cs_4", None), "no account"),
        (paid("e5", "x'; DROP TABLE accounts;--", "cs_5", None), "no account_id"),
        (paid("e6", me, "", None), "no checkout session id"),
    ]
    for payload, why in cases:
        assert why in assert_envelope(post(client, payload))["outcome"], why
    assert assert_envelope(client.get("/account"))["passes"] == []
    # the account's recorded customer must be the payer
    client.post("/account/billing", json={"plan": "day_pass", "kind": "pack"}, headers=csrf)
    other = assert_envelope(post(client, paid("e7", me, "cs_7", "cus_someone_else")))
    assert "customer is not this account's" in other["outcome"]
    assert assert_envelope(client.get("/account"))["passes"] == []


def test_a_pass_of_another_account_cannot_be_used(shop, engine):
    client, _ = shop
    csrf = sign_in(client, engine, "payer@example.org")
    payer = assert_envelope(client.get("/account"))
    assert_envelope(post(client, paid("e1", payer["id"], "cs_x", None, plan="week_pass")))
    pass_id = assert_envelope(client.get("/account"))["passes"][0]["id"]
    thief = TestClient(client.app)  # another browser
    thief_csrf = sign_in(thief, engine, "thief@example.org")
    for body in ({"name": "k", "pass_id": pass_id}, {"name": "k", "pass_id": 999_999}):
        assert_error(thief.post("/account/api-keys", json=body, headers=thief_csrf), 404, "NOT_FOUND")
    for bad in (0, -1, "1", 1.5, 2**63, True):
        assert_error(
            thief.post("/account/api-keys", json={"name": "k", "pass_id": bad}, headers=thief_csrf),
            422,
            "VALIDATION_ERROR",
        )
    assert assert_envelope(thief.get("/account"))["passes"] == []
    key = assert_envelope(
        client.post("/account/api-keys", json={"name": "w", "pass_id": pass_id}, headers=csrf), 201
    )
    assert key["plan"] == "week_pass"
    expires = datetime.fromisoformat(key["expires_at"])
    assert timedelta(days=6, hours=23) < expires - datetime.now(UTC) <= timedelta(days=7)
