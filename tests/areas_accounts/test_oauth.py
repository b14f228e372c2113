"""OAuth 2.1 (authlib) end to end against a real uvicorn server on 127.0.0.1: an account registers a
public client, authlib's own OAuth2 client runs the authorization-code + PKCE S256 flow, and the access
token is accepted by keyed routes like a key of the account's plan."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import httpx
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from sqlalchemy import select

from regintel.db.schema import email_outbox
from tests.helpers import assert_envelope, assert_error

REDIRECT = "http://127.0.0.1:9/callback"  # never called: the test reads the Location header


def browser(base: str, engine, email: str = "owner@example.org") -> tuple[httpx.Client, dict[str, str]]:
    http = httpx.Client(base_url=base, follow_redirects=False, timeout=10)
    assert http.post("/account/welcome", json={"email": email}).status_code == 202
    with engine.connect() as conn:
        body = conn.execute(
            select(email_outbox.c.body)
            .where(email_outbox.c.to_addr == email)
            .order_by(email_outbox.c.id.desc())
        ).scalar_one()
    token = re.search(r"/account/welcome\?token=(\S+)", body).group(1)
    csrf = assert_envelope(http.post("/account/welcome", json={"token": token}))["csrf_token"]
    return http, {"X-CSRF-Token": csrf}


def register(http: httpx.Client, csrf: dict[str, str]) -> dict:
    return assert_envelope(
        http.post(
            "/account/oauth-clients",
            headers=csrf,
            json={"name": "My MCP client", "redirect_uris": [REDIRECT]},
        ),
        201,
    )


def test_metadata_documents(base):
    meta = httpx.get(f"{base}/.well-known/oauth-authorization-server").json()
    AuthorizationServerMetadata(meta).validate()  # authlib's RFC 8414 checks
    assert meta["issuer"] == base and meta["code_challenge_methods_supported"] == ["S256"]
    assert meta["grant_types_supported"] == ["authorization_code", "refresh_token"]
    assert meta["response_types_supported"] == ["code"]
    assert meta["registration_endpoint"] == f"{base}/oauth/register"
    assert meta["revocation_endpoint"] == f"{base}/oauth/revoke"
    for path, resource in (("", "/api/v1"), ("/mcp", "/mcp"), ("/mcp/v1", "/mcp/v1")):
        doc = httpx.get(f"{base}/.well-known/oauth-protected-resource{path}").json()
        assert doc["resource"] == base + resource and doc["authorization_servers"] == [base]
    assert httpx.get(f"{base}/.well-known/oauth-authorization-server?x=1").status_code == 422


def _flow(
    base: str, http: httpx.Client, csrf: dict[str, str], client_id: str, name: str = "My MCP client"
) -> tuple[OAuth2Client, str, str]:
    oauth = OAuth2Client(
        client_id=client_id,
        redirect_uri=REDIRECT,
        scope="api",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )
    verifier = "v" * 64
    url, state = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier=verifier)
    path = url.removeprefix(base)
    consent = assert_envelope(http.get(path))
    assert consent["client_name"] == name and consent["redirect_uri"] == REDIRECT
    assert consent["registration"] == ("account" if name == "My MCP client" else "dynamic")
    resp = http.post(path, json={"approve": True}, headers=csrf)
    assert resp.status_code == 302, resp.text
    location = resp.headers["location"]
    assert location.startswith(REDIRECT) and parse_qs(urlsplit(location).query)["state"] == [state]
    return oauth, verifier, location


def test_full_flow_with_authlib_client(base, engine):
    http, csrf = browser(base, engine)
    client = register(http, csrf)
    oauth, verifier, location = _flow(base, http, csrf, client["client_id"])
    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=location, code_verifier=verifier)
    assert token["token_type"].lower() == "bearer" and token["access_token"].startswith("rio_")
    assert token["expires_in"] == 3600
    me = assert_envelope(oauth.get(f"{base}/api/v1/me"))
    assert me  # the token passes the key check of keyed routes
    # the code is single use
    code = parse_qs(urlsplit(location).query)["code"][0]
    again = httpx.post(
        f"{base}/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client["client_id"],
            "code_verifier": verifier,
        },
    )
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    # tokens are not listed as keys; revoking the client revokes its tokens
    assert assert_envelope(http.get("/account"))["api_keys"] == []
    revoked = assert_envelope(http.post(f"/account/oauth-clients/{client['client_id']}/revoke", headers=csrf))
    assert revoked["revoked_at"]
    time.sleep(2.1)  # the key cache's TTL
    assert_error(oauth.get(f"{base}/api/v1/me"), 401, "UNAUTHORIZED")
    gone = http.get(
        oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier=verifier)[0].removeprefix(
            base
        )
    )
    assert gone.status_code == 400 and gone.json()["error"] == "invalid_client"  # revoked: no redirect


def test_pkce_is_required_and_checked(base, engine):
    http, csrf = browser(base, engine)
    client_id = register(http, csrf)["client_id"]
    common = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "state": "s"}
    no_pkce = http.get("/oauth/authorize", params=common)
    assert no_pkce.status_code == 302 and "error=invalid_request" in no_pkce.headers["location"]
    plain = http.get(
        "/oauth/authorize", params={**common, "code_challenge": "x" * 43, "code_challenge_method": "plain"}
    )
    assert plain.status_code == 302 and "error=invalid_request" in plain.headers["location"]
    implicit = http.get(
        "/oauth/authorize",
        params={
            **common,
            "response_type": "token",
            "code_challenge": "x" * 43,
            "code_challenge_method": "S256",
        },
    )
    assert implicit.status_code == 302 and "error=unsupported_response_type" in implicit.headers["location"]
    wrong_uri = http.get(
        "/oauth/authorize",
        params={
            **common,
            "redirect_uri": "https://evil.example/cb",
            "code_challenge": "x" * 43,
            "code_challenge_method": "S256",
        },
    )
    assert wrong_uri.status_code == 400 and "location" not in wrong_uri.headers  # never an open redirect
    oauth, verifier, location = _flow(base, http, csrf, client_id)
    code = parse_qs(urlsplit(location).query)["code"][0]
    bad = httpx.post(
        f"{base}/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": REDIRECT,
            "client_id": client_id,
            "code_verifier": "w" * 64,
        },
    )
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_grant"
    password = httpx.post(
        f"{base}/oauth/token",
        data={"grant_type": "password", "username": "a", "password": "b", "client_id": client_id},
    )
    assert password.status_code == 400 and password.json()["error"] in (
        "unsupported_grant_type",
        "unauthorized_client",
    )


def test_deny_and_csrf_and_no_session(base, engine):
    http, csrf = browser(base, engine)
    client_id = register(http, csrf)["client_id"]
    oauth = OAuth2Client(client_id=client_id, redirect_uri=REDIRECT, code_challenge_method="S256")
    url, _ = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier="v" * 64)
    path = url.removeprefix(base)
    denied = http.post(path, json={"approve": False}, headers=csrf)
    assert denied.status_code == 302 and "error=access_denied" in denied.headers["location"]
    assert http.post(path, json={"approve": True}).status_code == 403
    assert httpx.get(url).status_code == 401
    assert http.post(path, json={"approve": "yes"}, headers=csrf).status_code == 422


def test_client_registration_rules(base, engine):
    http, csrf = browser(base, engine)
    for uris in (["http://example.org/cb"], ["javascript:alert(1)"], ["https://a.example/cb#frag"], []):
        resp = http.post("/account/oauth-clients", headers=csrf, json={"name": "x", "redirect_uris": uris})
        assert resp.status_code == 422, uris
    assert (
        http.post("/account/oauth-clients", json={"name": "x", "redirect_uris": [REDIRECT]}).status_code
        == 403
    )
    client_id = register(http, csrf)["client_id"]
    other, other_csrf = browser(base, engine, "other@example.org")
    assert other.post(f"/account/oauth-clients/{client_id}/revoke", headers=other_csrf).status_code == 404


def test_the_apis_401_names_its_protected_resource_document(base, engine):
    """RFC 6750 section 3 and RFC 9728 section 5.1: an OAuth client that calls the API without a valid token
    learns where its protected-resource document (and so the authorization server) is."""
    metadata = f"{base}/.well-known/oauth-protected-resource"
    bare = httpx.get(f"{base}/api/v1/me")
    assert_error(bare, 401, "UNAUTHORIZED")
    assert bare.headers["www-authenticate"] == f'Bearer realm="regintel", resource_metadata="{metadata}"'
    for auth in ({"Authorization": "Bearer rio_unknown"}, {"Authorization": "Bearer ri_" + "x" * 40}):
        wrong = httpx.get(f"{base}/api/v1/me", headers=auth)
        assert_error(wrong, 401, "UNAUTHORIZED")
        assert wrong.headers["www-authenticate"].endswith(', error="invalid_token"')
    doc = httpx.get(bare.headers["www-authenticate"].split('resource_metadata="')[1].split('"')[0]).json()
    assert doc["resource"] == f"{base}/api/v1" and doc["authorization_servers"] == [base]
