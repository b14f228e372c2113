"""One-time packs (spec 4.2, 8): a day or week pass bought through the hosted checkout (the local fake of
Stripe's API), fulfilled by the provider's signed `checkout.session.completed` callback (idempotent by event
id and by checkout), then turned into a key on the account page with the pass's budget and validity."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from regintel.areas.accounts.tables import account_passes
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
    intent=None,
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
                    "payment_intent": intent or f"pi_{checkout_id}",
                    "metadata": {"account_id": str(account_id), "plan": plan},
                }
            },
        }
    )


def refund(event_id, intent, customer=None, full=True):
    """Stripe's `charge.refunded`: the charge names the payment (not the checkout) and whether all of it
    was refunded."""
    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": "charge.refunded",
            "data": {
                "object": {
                    "id": f"ch_{event_id}",
                    "object": "charge",
                    "payment_intent": intent,
                    "customer": customer,
                    "amount": 900,
                    "amount_refunded": 900 if full else 300,
                    "refunded": full,
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
    # the budget is the pass key's own: the account's monthly quota counted none of its calls, and the
    # account's other keys go on
    assert me["usage"]["scope"] == "key" and assert_envelope(client.get("/account"))["usage"]["used"] == 0
    monthly = assert_envelope(client.post("/account/api-keys", json={"name": "m"}, headers=csrf), 201)
    me = assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {monthly['key']}"}))
    assert (me["usage"]["used"], me["usage"]["scope"]) == (1, "account")

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


def test_a_refund_revokes_the_pass_key_once(shop, engine):
    client, _ = shop
    csrf = sign_in(client, engine)
    me = assert_envelope(client.get("/account"))["id"]
    assert_envelope(post(client, paid("e1", me, "cs_r", None)))
    pass_id = assert_envelope(client.get("/account"))["passes"][0]["id"]
    key = assert_envelope(
        client.post("/account/api-keys", json={"name": "p", "pass_id": pass_id}, headers=csrf), 201
    )
    auth = {"Authorization": f"Bearer {key['key']}"}
    assert assert_envelope(client.get("/api/v1/me", headers=auth))
    # a partial refund is recorded, the pass and its key stay
    partial = assert_envelope(post(client, refund("r0", "pi_cs_r", full=False)))
    assert "partial refund" in partial["outcome"]
    assert assert_envelope(client.get("/account"))["passes"][0]["status"] == "claimed"
    # refunds of payments that are no pass, and a charge of another customer, change nothing
    assert "no pass" in assert_envelope(post(client, refund("r1", "pi_unknown")))["outcome"]
    assert "no payment_intent" in assert_envelope(post(client, refund("r2", None)))["outcome"]
    client.post("/account/billing", json={"plan": "day_pass", "kind": "pack"}, headers=csrf)  # a customer
    foreign = assert_envelope(post(client, refund("r3", "pi_cs_r", customer="cus_someone_else")))
    assert "customer is not this account's" in foreign["outcome"]
    assert assert_envelope(client.get("/account"))["passes"][0]["refunded_at"] is None

    full = assert_envelope(post(client, refund("r4", "pi_cs_r")))
    assert full["outcome"] == f"pass {pass_id} refunded; key {key['id']} revoked"
    view = assert_envelope(client.get("/account"))
    assert view["passes"][0]["status"] == "refunded" and view["passes"][0]["refunded_at"]
    assert [k["active"] for k in view["api_keys"] if k["id"] == key["id"]] == [False]
    time.sleep(2.1)  # the key cache's TTL
    assert_error(client.get("/api/v1/me", headers=auth), 401, "UNAUTHORIZED")
    # the same event again, and another refund event of the same charge, do nothing more
    assert assert_envelope(post(client, refund("r4", "pi_cs_r")))["outcome"].startswith("duplicate")
    assert "refunded already" in assert_envelope(post(client, refund("r5", "pi_cs_r")))["outcome"]


def test_a_refunded_or_expired_pass_makes_no_key(shop, engine):
    client, _ = shop
    csrf = sign_in(client, engine)
    me = assert_envelope(client.get("/account"))["id"]
    for n in range(3):
        assert_envelope(post(client, paid(f"e{n}", me, f"cs_{n}", None)))
    refunded, old, recent = (p["id"] for p in assert_envelope(client.get("/account"))["passes"])
    assert_envelope(post(client, refund("r1", "pi_cs_0")))
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            update(account_passes)
            .where(account_passes.c.id == old)
            .values(paid_at=now - timedelta(days=90, minutes=1))
        )
        conn.execute(
            update(account_passes)
            .where(account_passes.c.id == recent)
            .values(paid_at=now - timedelta(days=89, hours=23))
        )
    by_id = {p["id"]: p for p in assert_envelope(client.get("/account"))["passes"]}
    assert [by_id[i]["status"] for i in (refunded, old, recent)] == ["refunded", "expired", "unused"]
    use_by = datetime.fromisoformat(by_id[old]["use_by"])
    assert abs(use_by - (now - timedelta(minutes=1))) < timedelta(seconds=5)

    def make(pass_id):
        return client.post("/account/api-keys", json={"name": "k", "pass_id": pass_id}, headers=csrf)

    assert_error(make(refunded), 409, "PASS_REFUNDED")
    assert_error(make(old), 409, "PASS_EXPIRED")
    assert assert_envelope(make(recent), 201)["plan"] == "day_pass"
    assert [k["plan"] for k in assert_envelope(client.get("/account"))["api_keys"]] == ["day_pass"]
