"""OAuth 2.1 beyond the first token, against a real uvicorn on 127.0.0.1 with authlib's own client:
refresh-token rotation and reuse detection (a used refresh token is refused and revokes its family),
RFC 7009 revocation, and RFC 7591 dynamic client registration as MCP clients do it."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from stripe import WebhookSignature

from regintel.api.app import create_app
from regintel.config import Plan
from tests.areas_accounts.fakes import serve
from tests.areas_accounts.test_billing import SECRET, event
from tests.areas_accounts.test_oauth import REDIRECT, _flow, browser, register
from tests.helpers import assert_envelope, assert_error


def _tokens(base: str, engine, email: str = "owner@example.org", client_id: str | None = None, signed=None):
    http, csrf = signed or browser(base, engine, email)
    client_id = client_id or register(http, csrf)["client_id"]
    oauth, verifier, location = _flow(base, http, csrf, client_id)
    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=location, code_verifier=verifier)
    return http, csrf, client_id, token


def _refresh(base: str, client_id: str, refresh_token: str) -> httpx.Response:
    return httpx.post(
        f"{base}/oauth/token",
        data={"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id},
    )


def _me(base: str, access: str) -> httpx.Response:
    return httpx.get(f"{base}/api/v1/me", headers={"Authorization": f"Bearer {access}"})


def test_refresh_rotates_and_reuse_revokes_the_family(base, engine):
    _, _, client_id, first = _tokens(base, engine)
    assert first["refresh_token"].startswith("rir_") and first["access_token"].startswith("rio_")
    # authlib's client refreshes with the refresh token it holds
    oauth = OAuth2Client(client_id=client_id, token=first, token_endpoint_auth_method="none")
    second = oauth.refresh_token(f"{base}/oauth/token")
    assert (
        second["refresh_token"] != first["refresh_token"] and second["access_token"] != first["access_token"]
    )
    assert second["expires_in"] == 3600
    third = _refresh(base, client_id, second["refresh_token"])
    assert third.status_code == 200 and third.headers["cache-control"] == "no-store"
    third_tokens = third.json()
    assert assert_envelope(_me(base, third_tokens["access_token"]))
    # the first refresh token again: refused, and the whole family (tokens descended from it) revoked
    replay = _refresh(base, client_id, first["refresh_token"])
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert _refresh(base, client_id, third_tokens["refresh_token"]).json()["error"] == "invalid_grant"
    time.sleep(2.1)  # the key cache's TTL
    assert_error(_me(base, third_tokens["access_token"]), 401, "UNAUTHORIZED")
    assert_error(_me(base, second["access_token"]), 401, "UNAUTHORIZED")


def test_refresh_edges(base, engine):
    http, csrf, client_id, token = _tokens(base, engine)
    other_http, other_csrf = browser(base, engine, "other@example.org")
    other_client = register(other_http, other_csrf)["client_id"]
    # another client's refresh token, an unknown one, a missing one, a unicode one
    assert _refresh(base, other_client, token["refresh_token"]).json()["error"] == "invalid_grant"
    assert _refresh(base, client_id, "rir_" + "x" * 43).json()["error"] == "invalid_grant"
    assert _refresh(base, client_id, "ключ").json()["error"] == "invalid_grant"
    missing = httpx.post(f"{base}/oauth/token", data={"grant_type": "refresh_token", "client_id": client_id})
    assert missing.status_code == 400 and missing.json()["error"] == "invalid_request"
    unknown_client = _refresh(base, "ric_nope", token["refresh_token"])
    assert unknown_client.status_code in (400, 401) and unknown_client.json()["error"] == "invalid_client"
    # the refusal by another client did not burn it: the owner still refreshes once
    assert _refresh(base, client_id, token["refresh_token"]).status_code == 200
    # revoking the client ends its refresh tokens
    _, _, _, fresh = _tokens(base, engine, client_id=client_id, signed=(http, csrf))
    assert http.post(f"/account/oauth-clients/{client_id}/revoke", headers=csrf).status_code == 200
    assert _refresh(base, client_id, fresh["refresh_token"]).json()["error"] == "invalid_client"


def test_revocation_endpoint(base, engine):
    _, _, client_id, token = _tokens(base, engine)
    resp = httpx.post(
        f"{base}/oauth/revoke",
        data={"token": token["refresh_token"], "client_id": client_id, "token_type_hint": "refresh_token"},
    )
    assert resp.status_code == 200
    assert _refresh(base, client_id, token["refresh_token"]).json()["error"] == "invalid_grant"
    time.sleep(2.1)
    assert_error(_me(base, token["access_token"]), 401, "UNAUTHORIZED")  # the family's access token too
    _, _, client_id2, token2 = _tokens(base, engine, "second@example.org")
    assert (
        httpx.post(
            f"{base}/oauth/revoke", data={"token": token2["access_token"], "client_id": client_id2}
        ).status_code
        == 200
    )
    assert (
        _refresh(base, client_id2, token2["refresh_token"]).status_code == 200
    )  # only the access token ended
    assert (
        httpx.post(f"{base}/oauth/revoke", data={"token": "unknown", "client_id": client_id2}).status_code
        == 200
    )
    # a token of another client is not revoked by this one
    _, _, client_id3, token3 = _tokens(base, engine, "third@example.org")
    httpx.post(f"{base}/oauth/revoke", data={"token": token3["refresh_token"], "client_id": client_id2})
    assert _refresh(base, client_id3, token3["refresh_token"]).status_code == 200


def test_dynamic_registration_then_the_full_flow(base, engine):
    meta = httpx.get(f"{base}/.well-known/oauth-authorization-server").json()
    AuthorizationServerMetadata(meta).validate()
    resp = httpx.post(
        meta["registration_endpoint"],
        json={
            "client_name": "Claude Desktop 🙂",
            "redirect_uris": [REDIRECT],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
    )
    assert resp.status_code == 201, resp.text
    client = resp.json()
    assert client["client_id"].startswith("ric_") and client["redirect_uris"] == [REDIRECT]
    assert client["token_endpoint_auth_method"] == "none" and "client_secret" not in client
    assert client["client_name"] == "Claude Desktop 🙂" and client["client_id_issued_at"] > 0
    # any account may authorize it (with consent); the tokens work like the account's key
    http, csrf = browser(base, engine)
    oauth, verifier, location = _flow(base, http, csrf, client["client_id"], name="Claude Desktop 🙂")
    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=location, code_verifier=verifier)
    assert assert_envelope(_me(base, token["access_token"]))
    # it belongs to no account: no account can revoke it from its page
    assert http.post(f"/account/oauth-clients/{client['client_id']}/revoke", headers=csrf).status_code == 404


def test_dynamic_registration_refusals(base):
    url = f"{base}/oauth/register"
    bad = [
        ({"redirect_uris": ["http://evil.example/cb"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["https://a.example/cb#x"]}, "invalid_redirect_uri"),
        ({"redirect_uris": ["javascript:alert(1)"]}, "invalid_redirect_uri"),
        ({"redirect_uris": []}, "invalid_redirect_uri"),
        ({"client_name": "x"}, "invalid_redirect_uri"),
        ({"redirect_uris": [REDIRECT] * 11}, "invalid_redirect_uri"),
        (
            {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "client_secret_basic"},
            "invalid_client_metadata",
        ),
        ({"redirect_uris": [REDIRECT], "grant_types": ["password"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT], "grant_types": ["client_credentials"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT], "response_types": ["token"]}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT], "client_name": "n" * 101}, "invalid_client_metadata"),
        ({"redirect_uris": [REDIRECT], "scope": "admin"}, "invalid_client_metadata"),
    ]
    for body, error in bad:
        resp = httpx.post(url, json=body)
        assert resp.status_code == 400 and resp.json()["error"] == error, (body, resp.text)
    for raw in (b"not json", b"[]", b"", b"x" * 20_000):
        resp = httpx.post(url, content=raw, headers={"Content-Type": "application/json"})
        assert resp.status_code == 400 and resp.json()["error"] == "invalid_client_metadata", raw[:20]


@pytest.fixture
def small_quota(settings) -> Iterator[str]:
    """The app with a Free plan of 3 requests a month (and a Business plan to pay for), on a free port."""
    plans = {
        "free": Plan(title="Free", rate_per_minute=100, monthly_quota=3),
        "business": Plan(title="Business", rate_per_minute=100, monthly_quota=1000),
    }
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(
        settings.model_copy(update={"base_url": url, "plans": plans, "billing_webhook_secret": SECRET})
    )
    with serve(app, sock) as served:
        yield served


def test_a_refresh_keeps_the_authorizations_quota(small_quota, engine):
    """One authorization is one key: its refreshed access tokens count against the same monthly quota (a new
    key per access token gave a client a fresh quota every hour)."""
    base = small_quota
    _, _, client_id, first = _tokens(base, engine)
    assert _me(base, first["access_token"]).headers["x-quota-remaining"] == "2"
    second = _refresh(base, client_id, first["refresh_token"]).json()
    assert _me(base, second["access_token"]).headers["x-quota-remaining"] == "1"
    third = _refresh(base, client_id, second["refresh_token"]).json()
    assert _me(base, third["access_token"]).headers["x-quota-remaining"] == "0"
    assert_error(_me(base, third["access_token"]), 429, "QUOTA_EXCEEDED")
    time.sleep(2.1)  # the key cache's TTL: the access token a refresh replaced is refused
    assert_error(_me(base, first["access_token"]), 401, "UNAUTHORIZED")
    # revoking the access token alone (RFC 7009) leaves the refresh token, and the quota, where they were
    httpx.post(f"{base}/oauth/revoke", data={"token": third["access_token"], "client_id": client_id})
    fourth = _refresh(base, client_id, third["refresh_token"]).json()
    assert_error(_me(base, fourth["access_token"]), 429, "QUOTA_EXCEEDED")


def test_a_paid_plan_reaches_the_accounts_tokens_at_once(small_quota, engine):
    """The payment provider's callback changes the plan of the account's live access tokens as of its keys,
    and a refreshed token keeps it."""
    base = small_quota
    http, csrf, client_id, token = _tokens(base, engine)
    assert _me(base, token["access_token"]).headers["x-quota-limit"] == "3"
    account_id = assert_envelope(http.get("/account"))["id"]
    payload = event("evt_tok", "customer.subscription.created", account_id)
    signed = WebhookSignature.generate_signature_header(payload, SECRET)
    resp = httpx.post(
        f"{base}/api/v1/billing/webhook",
        content=payload.encode(),
        headers={"Stripe-Signature": signed, "Content-Type": "application/json"},
    )
    assert assert_envelope(resp)["outcome"].startswith("plan business (active)")
    time.sleep(2.1)  # the key cache's TTL
    assert _me(base, token["access_token"]).headers["x-quota-limit"] == "1000"
    refreshed = _refresh(base, client_id, token["refresh_token"]).json()
    assert _me(base, refreshed["access_token"]).headers["x-quota-limit"] == "1000"
