"""Checkout, the customer portal and the plan suggestion of the account page (spec 4.2, 4.8) against a
local fake of Stripe's API on 127.0.0.1 (the `stripe` library pointed at it with REGINTEL_STRIPE_API_BASE);
the subscription comes back through the webhook, signed with the library's own helper."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from regintel.config import DEFAULT_PLANS, Plan
from tests.areas_accounts.fakes import FakeStripe, serve
from tests.areas_accounts.test_account_api import sign_in
from tests.areas_accounts.test_billing import SECRET, post
from tests.helpers import assert_envelope, assert_error

PRICES = {"pro": "price_pro_test", "business": "price_business_test", "day_pass": "price_day_test"}


@pytest.fixture
def stripe_fake() -> Iterator[tuple[FakeStripe, str]]:
    fake = FakeStripe()
    with serve(fake.app) as url:
        yield fake, url


@pytest.fixture
def shop(app_factory, stripe_fake):
    fake, url = stripe_fake
    return app_factory(
        stripe_api_key=FakeStripe.KEY,
        stripe_api_base=url,
        billing_prices=PRICES,
        billing_webhook_secret=SECRET,
    ), fake


def subscription(
    event_id, account_id, customer, plan="pro", status="active", type_="customer.subscription.created"
):
    import json

    return json.dumps(
        {
            "id": event_id,
            "object": "event",
            "type": type_,
            "data": {
                "object": {
                    "id": "sub_9",
                    "object": "subscription",
                    "status": status,
                    "customer": customer,
                    "metadata": {"account_id": str(account_id), "plan": plan},
                }
            },
        }
    )


def test_checkout_webhook_then_portal(shop, engine, settings):
    client, fake = shop
    csrf = sign_in(client, engine)
    account = assert_envelope(client.get("/account"))
    assert_error(client.get("/account/billing/portal"), 409, "CONFLICT")  # never paid: no customer yet
    assert fake.calls == []
    out = assert_envelope(client.post("/account/billing", json={"plan": "pro"}, headers=csrf))
    assert out["url"].startswith("https://checkout.stripe.test/") and out["mode"] == "subscription"
    assert out["plan"] == "pro" and out["provider"] == "stripe" and out["session_id"].startswith("cs_test_")
    (path1, head1, customer), (path2, _, session) = fake.calls
    assert path1 == "/v1/customers" and customer["email"] == "anna@example.org"
    assert customer["metadata[account_id]"] == str(account["id"])
    assert head1["idempotency-key"] == f"regintel-customer-{account['id']}"
    assert path2 == "/v1/checkout/sessions" and session["line_items[0][price]"] == "price_pro_test"
    assert session["mode"] == "subscription" and session["subscription_data[metadata][plan]"] == "pro"
    assert session["subscription_data[metadata][account_id]"] == str(account["id"])
    assert session["success_url"].startswith(f"{settings.base_url}/account?billing=success")
    cus = session["customer"]
    # a second checkout (the person came back) reuses the provider's customer
    assert_envelope(client.post("/account/billing", json={"plan": "business"}, headers=csrf))
    assert [c[0] for c in fake.calls].count("/v1/customers") == 1 and fake.calls[-1][2]["customer"] == cus
    # the provider reports the paid subscription: plan applied; a new checkout is refused
    assert assert_envelope(post(client, subscription("evt_a", account["id"], cus)))["outcome"].startswith(
        "plan pro"
    )
    assert assert_envelope(client.get("/account"))["plan"] == "pro"
    assert_error(
        client.post("/account/billing", json={"plan": "business"}, headers=csrf), 409, "SUBSCRIPTION_ACTIVE"
    )
    portal = client.get("/account/billing/portal")
    assert portal.headers["cache-control"] == "no-store"
    data = assert_envelope(portal)
    assert data["url"].startswith("https://billing.stripe.test/") and data["provider"] == "stripe"
    assert fake.calls[-1][0] == "/v1/billing_portal/sessions" and fake.calls[-1][2] == {
        "customer": cus,
        "return_url": f"{settings.base_url}/account",
    }
    # a subscription event naming another customer is not applied to this account
    other = assert_envelope(
        post(
            client,
            subscription(
                "evt_b", account["id"], "cus_other", plan="business", type_="customer.subscription.updated"
            ),
        )
    )
    assert "not this account's" in other["outcome"]
    assert assert_envelope(client.get("/account"))["plan"] == "pro"


def test_checkout_session_with_an_account_key(shop, engine):
    client, fake = shop
    csrf = sign_in(client, engine)
    raw = assert_envelope(client.post("/account/api-keys", json={"name": "k"}, headers=csrf), 201)["key"]
    out = assert_envelope(
        client.post(
            "/api/v1/billing/checkout-session",
            json={"plan": "business"},
            headers={"Authorization": f"Bearer {raw}"},
        )
    )
    assert (
        out["url"].startswith("https://checkout.stripe.test/") and fake.calls[-1][2]["mode"] == "subscription"
    )


def test_account_billing_refusals(shop, engine, app_factory):
    client, fake = shop
    assert_error(client.post("/account/billing", json={"plan": "pro"}), 401, "UNAUTHORIZED")
    assert_error(client.get("/account/billing/suggest"), 401, "UNAUTHORIZED")
    csrf = sign_in(client, engine)
    assert_error(client.post("/account/billing", json={"plan": "pro"}), 403, "FORBIDDEN")  # no CSRF token
    assert_error(
        client.post(
            "/account/billing", json={"plan": "pro"}, headers={**csrf, "Origin": "https://evil.example"}
        ),
        403,
        "FORBIDDEN",
    )
    for body in (
        {"plan": "gold"},
        {"plan": "free"},
        {"plan": "pro", "kind": "pack"},
        {"plan": "day_pass"},
        {"plan": "pro", "coupon": "x"},
        {"plan": 1},
        {"plan": ""},
        {"plan": "p" * 40},
        {"plan": "pró"},
        {},
    ):
        assert_error(client.post("/account/billing", json=body, headers=csrf), 422, "VALIDATION_ERROR")
    assert fake.calls == []  # nothing reached the provider
    fake.fail = 500
    assert_error(
        client.post("/account/billing", json={"plan": "pro"}, headers=csrf), 502, "UPSTREAM_UNAVAILABLE"
    )
    fake.fail = None
    bare = app_factory()  # no provider configured
    bare_csrf = sign_in(bare, engine, "bare@example.org")
    assert_error(
        bare.post("/account/billing", json={"plan": "pro"}, headers=bare_csrf), 503, "UPSTREAM_UNAVAILABLE"
    )
    assert_error(bare.get("/account/billing/portal"), 503, "UPSTREAM_UNAVAILABLE")


def test_wrong_provider_key_is_a_502(app_factory, stripe_fake, engine):
    fake, url = stripe_fake
    client = app_factory(stripe_api_key="sk_test_wrong", stripe_api_base=url, billing_prices=PRICES)
    csrf = sign_in(client, engine)
    assert_error(
        client.post("/account/billing", json={"plan": "pro"}, headers=csrf), 502, "UPSTREAM_UNAVAILABLE"
    )
    assert fake.calls and fake.calls[0][1]["authorization"] == "Bearer sk_test_wrong"


def test_unreachable_provider_is_a_502(app_factory, engine):
    client = app_factory(
        stripe_api_key=FakeStripe.KEY, stripe_api_base="http://127.0.0.1:9", billing_prices=PRICES
    )
    csrf = sign_in(client, engine)
    assert_error(
        client.post("/account/billing", json={"plan": "pro"}, headers=csrf), 502, "UPSTREAM_UNAVAILABLE"
    )


def test_suggest_follows_the_accounts_use(app_factory, engine):
    """The projection is of the account's monthly counter, which all its keys share."""
    plans = {
        "free": Plan(title="Free", rate_per_minute=100, monthly_quota=6),
        "pro": Plan(title="Pro", rate_per_minute=100, monthly_quota=100_000),
        "business": Plan(title="Business", rate_per_minute=100, monthly_quota=2_000_000),
        "day_pass": Plan(title="Day", rate_per_minute=100, budget=50, duration_days=1),
    }
    client = app_factory(plans=plans, rate_limit_storage="memory", billing_prices={"pro": "price_pro"})
    csrf = sign_in(client, engine)
    idle = assert_envelope(client.get("/account/billing/suggest"))
    assert idle["current_plan"] == "free" and idle["suggested_plan"] == "free"
    assert idle["used"] == 0 and idle["projected"] == 0
    assert [p["plan"] for p in idle["plans"]] == ["free", "pro", "business"]  # passes are not monthly plans
    busy = assert_envelope(client.post("/account/api-keys", json={"name": "busy"}, headers=csrf), 201)
    quiet = assert_envelope(client.post("/account/api-keys", json={"name": "quiet"}, headers=csrf), 201)
    for _ in range(5):
        assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {busy['key']}"}))
    assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {quiet['key']}"}))
    out = assert_envelope(client.get("/account/billing/suggest"))
    # 6 of the account's 6, whatever the day of the month: 6 with 20 % headroom does not fit the Free plan
    assert out["used"] == 6 and out["projected"] >= 6
    assert out["suggested_plan"] == "pro" and out["for_sale"] is True
    assert "exceeds" in out["reason"]
    assert_error(client.get("/account/billing/suggest?plan=pro"), 422, "VALIDATION_ERROR")


def test_the_schema_says_which_checkouts_are_taken(shop, engine):
    """Every body the document's `CheckoutIn` takes is taken, and every other one is refused (issue 16)."""
    from jsonschema import Draft202012Validator

    client, _ = shop
    schema = client.app.openapi()["components"]["schemas"]["CheckoutIn"]
    assert schema["properties"]["plan"]["enum"] == sorted(PRICES)
    validator = Draft202012Validator(schema)
    csrf = sign_in(client, engine)
    for plan in sorted({*DEFAULT_PLANS, "nope"}):  # for sale, not for sale, passes, unknown
        for kind in (None, "subscription", "pack"):
            body = {"plan": plan} | ({"kind": kind} if kind else {})
            resp = client.post("/account/billing", json=body, headers=csrf)
            assert validator.is_valid(body) == (resp.status_code == 200), (body, resp.status_code, resp.text)
