"""The monthly quota of an account's plan is the account's (spec 7-8, docs/accounts.md row 60): its keys and
OAuth tokens count against one counter, through HTTP. A key of no account (`regintel keys create`) and
another account keep their own; a pass keeps its own budget."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from regintel.api.app import create_app
from regintel.areas.accounts.tables import account_api_keys
from regintel.config import Plan
from regintel.db import keys
from tests.areas_accounts.fakes import serve
from tests.areas_accounts.test_account_api import sign_in
from tests.areas_accounts.test_billing import SECRET, event, post
from tests.areas_accounts.test_oauth_refresh import _me, _refresh, _tokens
from tests.helpers import assert_envelope, assert_error

PLANS = {
    "free": Plan(title="Free", rate_per_minute=100, monthly_quota=3),
    "business": Plan(title="Business", rate_per_minute=100, monthly_quota=1000),
    "day_pass": Plan(title="Day pass", rate_per_minute=100, budget=2, duration_days=1),
}


def _bearer(raw: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture
def quota_app(app_factory):
    """A Free plan of 3 requests a month; keys are read afresh on every request (no 2 s cache)."""
    return app_factory(plans=PLANS, key_cache_seconds=0, billing_webhook_secret=SECRET)


def test_the_key_lookup_names_the_accounts_link_table():
    # db/keys.py joins the link by name (db/ imports no area): the names must be the accounts area's.
    assert keys._owners.name == account_api_keys.name
    assert {c.name for c in keys._owners.c} == {"api_key_id", "account_id"} <= set(account_api_keys.c.keys())


def test_two_keys_of_an_account_share_one_quota(quota_app, engine, make_key):
    csrf = sign_in(quota_app, engine)
    first = assert_envelope(quota_app.post("/account/api-keys", json={"name": "one"}, headers=csrf), 201)
    second = assert_envelope(quota_app.post("/account/api-keys", json={"name": "two"}, headers=csrf), 201)
    me = assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(first["key"])))
    assert me["usage"]["used"] == 1 and me["usage"]["limit"] == 3 and me["usage"]["scope"] == "account"
    resp = quota_app.get("/api/v1/me", headers=_bearer(second["key"]))
    me = assert_envelope(resp)  # the second key sees the first key's call
    assert (me["usage"]["used"], me["usage"]["remaining"]) == (2, 1)
    assert resp.headers["x-quota-remaining"] == "1" and resp.headers["x-quota-limit"] == "3"
    assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(first["key"])))
    account = assert_envelope(quota_app.get("/account"))
    assert {k: account["usage"][k] for k in ("used", "limit", "remaining")} == {
        "used": 3,
        "limit": 3,
        "remaining": 0,
    }
    assert account["usage"]["resets_at"] == me["usage"]["resets_at"]
    # used up with the first key: the second is refused as well
    resp = quota_app.get("/api/v1/me", headers=_bearer(second["key"]))
    err = assert_error(resp, 429, "QUOTA_EXCEEDED")
    assert err["details"]["limit"] == 3 and err["details"]["scope"] == "account"
    assert "account" in err["message"]
    assert resp.headers["x-quota-remaining"] == "0" and int(resp.headers["retry-after"]) > 0
    # a key of no account and a key of another account have their own quotas
    cli = make_key("free")
    me = assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(cli)))
    assert (me["usage"]["used"], me["usage"]["scope"]) == (1, "key")
    quota_app.cookies.clear()
    other_csrf = sign_in(quota_app, engine, "other@example.org")
    other = assert_envelope(quota_app.post("/account/api-keys", json={"name": "o"}, headers=other_csrf), 201)
    me = assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(other["key"])))
    assert (me["usage"]["used"], me["usage"]["scope"]) == (1, "account")
    assert assert_envelope(quota_app.get("/account"))["usage"]["used"] == 1


def test_revoking_or_renewing_a_key_gives_no_fresh_quota(quota_app, engine):
    csrf = sign_in(quota_app, engine)
    first = assert_envelope(quota_app.post("/account/api-keys", json={"name": "one"}, headers=csrf), 201)
    for _ in range(3):
        assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(first["key"])))
    renewed = quota_app.post(f"/account/api-keys/{first['id']}/renew", headers=csrf)
    assert assert_envelope(renewed)["active"] is True
    assert_error(quota_app.get("/api/v1/me", headers=_bearer(first["key"])), 429, "QUOTA_EXCEEDED")
    assert_envelope(quota_app.post(f"/account/api-keys/{first['id']}/revoke", headers=csrf))
    again = assert_envelope(quota_app.post("/account/api-keys", json={"name": "again"}, headers=csrf), 201)
    assert_error(quota_app.get("/api/v1/me", headers=_bearer(again["key"])), 429, "QUOTA_EXCEEDED")
    # the refused calls counted too (spec 8 counts keyed calls; only rate-limited ones do not)
    assert assert_envelope(quota_app.get("/account"))["usage"] == {
        "used": 3,
        "limit": 3,
        "remaining": 0,
        "resets_at": assert_envelope(quota_app.get("/account"))["usage"]["resets_at"],
    }


def test_a_plan_change_keeps_the_accounts_count(quota_app, engine):
    """The payment provider's callback raises the limit of the one counter: what the account used on the
    Free plan stays used."""
    csrf = sign_in(quota_app, engine)
    account_id = assert_envelope(quota_app.get("/account"))["id"]
    one = assert_envelope(quota_app.post("/account/api-keys", json={"name": "one"}, headers=csrf), 201)
    two = assert_envelope(quota_app.post("/account/api-keys", json={"name": "two"}, headers=csrf), 201)
    for raw in (one["key"], two["key"], one["key"]):
        assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(raw)))
    assert_error(quota_app.get("/api/v1/me", headers=_bearer(two["key"])), 429, "QUOTA_EXCEEDED")
    out = assert_envelope(post(quota_app, event("evt_q", "customer.subscription.created", account_id)))
    assert out["outcome"].startswith("plan business")
    me = assert_envelope(quota_app.get("/api/v1/me", headers=_bearer(two["key"])))
    assert me["plan"] == "business"
    assert (me["usage"]["used"], me["usage"]["limit"], me["usage"]["remaining"]) == (5, 1000, 995)
    usage = assert_envelope(quota_app.get("/account"))["usage"]
    assert (usage["used"], usage["limit"]) == (5, 1000)
    suggest = assert_envelope(quota_app.get("/account/billing/suggest"))
    assert suggest["current_plan"] == "business" and suggest["used"] == 5


@pytest.fixture
def served(settings) -> Iterator[str]:
    """The app with the plans above on a free port (the OAuth flow runs over real HTTP with authlib)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(settings.model_copy(update={"base_url": url, "plans": PLANS, "key_cache_seconds": 0}))
    with serve(app, sock) as base:
        yield base


def test_an_oauth_token_shares_the_accounts_quota(served, engine):
    http, csrf, client_id, token = _tokens(served, engine)
    key = assert_envelope(http.post("/account/api-keys", json={"name": "k"}, headers=csrf), 201)["key"]
    for _ in range(2):
        assert httpx.get(f"{served}/api/v1/me", headers=_bearer(key)).status_code == 200
    resp = _me(served, token["access_token"])
    me = assert_envelope(resp)
    assert (me["usage"]["used"], me["usage"]["remaining"], me["usage"]["scope"]) == (3, 0, "account")
    assert_error(_me(served, token["access_token"]), 429, "QUOTA_EXCEEDED")
    assert_error(httpx.get(f"{served}/api/v1/me", headers=_bearer(key)), 429, "QUOTA_EXCEEDED")
    # a refreshed token and a new authorization of the same account are no way around it
    refreshed = _refresh(served, client_id, token["refresh_token"]).json()
    assert_error(_me(served, refreshed["access_token"]), 429, "QUOTA_EXCEEDED")
    _, _, _, second = _tokens(served, engine, client_id=client_id, signed=(http, csrf))
    assert_error(_me(served, second["access_token"]), 429, "QUOTA_EXCEEDED")
    # another account's token is unaffected
    _, _, _, others = _tokens(served, engine, email="else@example.org")
    assert assert_envelope(_me(served, others["access_token"]))["usage"]["used"] == 1
