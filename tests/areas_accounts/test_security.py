"""The threat model of docs/security.md, for the items no other accounts test covers whole: every
state-changing account route refuses a missing or foreign CSRF token, sessions and tokens are stored only
as hashes and end when they expire, no account route redirects where a request says, the public forms and
privacy requests answer the same whatever the address, and client metadata URLs are never fetched."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import httpx
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import select, text, update
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

from regintel.areas.accounts import sessions
from regintel.areas.accounts.tables import account_sessions
from tests.areas_accounts.fakes import serve
from tests.areas_accounts.test_account_api import _token_from_outbox, sign_in
from tests.areas_accounts.test_oauth import REDIRECT, _flow, browser, register
from tests.helpers import assert_envelope, assert_error

# POSTs that need no session by design: sign-in itself and the passkey sign-in ceremony.
NO_SESSION = {"/account/welcome", "/account/passkeys/options", "/account/passkeys/verify"}
# Valid bodies (a body that fails validation would be refused before the CSRF check could be seen);
# routes without a body get none. A new route with a body needs an entry here, or the test fails.
BODIES = {
    "/account/api-keys": {"name": "k"},
    "/account/api-keys/{id}/rename": {"name": "k"},
    "/account/watches": {"ico": "31333532"},
    "/account/billing": {"plan": "pro"},
    "/account/fo-addendum/accept": {"text_version": "2026-11", "person_name": "A", "accept": True},
    "/account/oauth-clients": {"name": "x", "redirect_uris": ["http://127.0.0.1:9/cb"]},
}


def test_every_account_post_needs_the_csrf_token(client, engine):
    """Walks the app's routes, so a route added later is covered without editing this test."""
    csrf = sign_in(client, engine)
    paths = client.app.openapi()["paths"]  # every route the app serves
    posts = [
        p for p, ops in paths.items() if "post" in ops and p.startswith("/account") and p not in NO_SESSION
    ]
    assert len(posts) >= 15, posts
    for template in posts:
        path = re.sub(r"\{[^}]+\}", lambda m: "1" if m.group(0) == "{id}" else "x", template)
        for headers in ({}, {"X-CSRF-Token": "wrong"}, {**csrf, "Origin": "https://evil.example"}):
            resp = client.post(path, json=BODIES.get(template), headers=headers)
            assert resp.status_code == 403 and resp.json()["error"]["code"] == "FORBIDDEN", (path, headers)
    # the passkey registration ceremony needs it too (authentication needs no session)
    assert_error(client.post("/account/passkeys/options", json={"kind": "registration"}), 403, "FORBIDDEN")


def test_another_sessions_csrf_token_does_not_pass(client, app_factory, engine):
    mine = sign_in(client, engine, "a@example.org")
    other = app_factory()
    theirs = sign_in(other, engine, "b@example.org")
    assert mine != theirs
    assert_error(client.post("/account/api-keys", json={"name": "k"}, headers=theirs), 403, "FORBIDDEN")


def test_sign_in_replaces_a_planted_session(client, app_factory, engine):
    attacker = app_factory()
    sign_in(attacker, engine, "attacker@example.org")
    planted = attacker.cookies.get("regintel_session")
    client.post("/account/welcome", json={"email": "victim@example.org"})
    token = _token_from_outbox(engine, "victim@example.org")
    # the victim's browser carries the attacker's cookie (e.g. set through a sibling subdomain) when
    # signing in
    resp = client.post(
        "/account/welcome", json={"token": token}, headers={"Cookie": f"regintel_session={planted}"}
    )
    fresh = resp.cookies.get("regintel_session")
    assert resp.status_code == 200 and fresh and fresh != planted
    victim = app_factory()
    victim.cookies.set("regintel_session", fresh)
    assert assert_envelope(victim.get("/account"))["email"] == "victim@example.org"
    assert assert_envelope(attacker.get("/account"))["email"] == "attacker@example.org"  # not the victim's


def test_sessions_are_stored_hashed_and_expire(client, engine, settings):
    sign_in(client, engine)
    raw = URLSafeTimedSerializer(settings.secret_key, salt=sessions.SESSION_SALT).loads(
        client.cookies.get("regintel_session")
    )
    with engine.begin() as conn:
        stored = conn.execute(select(account_sessions.c.token_hash)).scalars().all()
        assert stored == [sessions._hash(raw)] and raw not in stored
        conn.execute(update(account_sessions).values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")


def test_oauth_tokens_are_stored_hashed(base, engine):
    http, csrf = browser(base, engine)
    client_id = register(http, csrf)["client_id"]
    oauth, verifier, location = _flow(base, http, csrf, client_id)
    token = oauth.fetch_token(f"{base}/oauth/token", authorization_response=location, code_verifier=verifier)
    code = re.search(r"code=([^&]+)", location).group(1)
    with engine.connect() as conn:
        dump = " ".join(
            str(v)
            for table in ("oauth_codes", "oauth_refresh_tokens", "api_keys", "oauth_tokens")
            for row in conn.execute(text(f"SELECT * FROM {table}"))
            for v in row
        )
    for secret in (token["access_token"], token["refresh_token"], code):
        assert secret not in dump


def test_no_open_redirects(client, engine):
    # the OIDC callback and the magic link land on fixed paths; a redirect parameter is refused outright
    for path in (
        "/account/identities/x/login?next=https://evil.example",
        "/account/identities/x/login?redirect_uri=https://evil.example",
        "/account/identities/x/callback?code=c&state=s&return_to=https://evil.example",
        "/account?next=https://evil.example",
    ):
        assert_error(client.get(path, follow_redirects=False), 422, "VALIDATION_ERROR")
    body = _mail(client, engine, "x@example.org")
    assert re.search(r"https?://[^/\s]+/account/welcome\?token=", body)
    assert "evil" not in body


def _mail(client, engine, email):
    client.post("/account/welcome", json={"email": email}, headers={"Host": "evil.example"})
    with engine.connect() as conn:
        return (
            conn.execute(
                text("SELECT body FROM email_outbox WHERE to_addr = :a ORDER BY id DESC"), {"a": email}
            )
            .scalars()
            .first()
        )


def _same(resp):
    body = resp.json()
    body.pop("meta", None)
    return resp.status_code, body


def test_forms_answer_the_same_for_known_and_unknown_addresses(client, engine):
    sign_in(client, engine, "known@example.org")
    client.cookies.clear()
    forms = [
        ("/account/welcome", {}),
        ("/api/v1/public/api-signup", {}),
        ("/api/v1/public/signup", {}),
        ("/api/v1/public/newsletter-intent", {}),
        ("/api/v1/privacy/access", {}),
        ("/api/v1/privacy/erase", {}),
        ("/api/v1/privacy/object", {}),
        ("/api/v1/privacy/rectify", {}),
    ]
    for path, extra in forms:
        known = client.post(path, json={"email": "known@example.org", **extra})
        unknown = client.post(path, json={"email": "nobody@example.org", **extra})
        assert _same(known) == _same(unknown), path
        assert known.status_code == 202, (path, known.text)
    # the honeypot gets the same answer too
    bot = client.post("/api/v1/public/signup", json={"email": "bot@example.org", "website": "http://spam"})
    assert _same(bot) == _same(client.post("/api/v1/public/signup", json={"email": "human@example.org"}))


def test_client_metadata_urls_are_never_fetched(base):
    hits: list[str] = []

    async def record(request):
        hits.append(request.url.path)
        return JSONResponse({"keys": []})

    trap = Starlette(routes=[Route("/{path:path}", record)])
    with serve(trap) as internal:
        resp = httpx.post(
            f"{base}/oauth/register",
            json={
                "redirect_uris": [REDIRECT],
                "jwks_uri": f"{internal}/jwks",
                "logo_uri": f"{internal}/logo",
                "client_uri": f"{internal}/home",
                "policy_uri": f"{internal}/p",
                "tos_uri": f"{internal}/t",
            },
        )
        assert resp.status_code == 201
        assert "jwks_uri" not in resp.json()  # stored: only the redirect URIs and the name
    assert hits == []


def test_account_ids_reveal_nothing(client, app_factory, engine):
    csrf = sign_in(client, engine, "a@example.org")
    key = assert_envelope(client.post("/account/api-keys", json={"name": "k"}, headers=csrf), 201)
    other = app_factory()
    other_csrf = sign_in(other, engine, "b@example.org")
    for path in (f"/account/api-keys/{key['id']}/revoke", f"/account/api-keys/{key['id']}/rename"):
        assert_error(
            other.post(path, json={"name": "x"} if "rename" in path else None, headers=other_csrf),
            404,
            "NOT_FOUND",
        )
    missing = other.post("/account/api-keys/999999/revoke", headers=other_csrf)
    assert _same(missing)[1]["error"]["code"] == "NOT_FOUND"


def test_a_privacy_request_alone_withholds_no_one(client, auth, engine):
    """Anybody can name a register person in an erase or object request: nothing is withheld until the
    operator has matched the record to the verified requester (`regintel privacy answer`), and the form
    answers the same whether or not a person is named, or exists."""
    from tests.areas_accounts.test_privacy_persons import JANA_KEY
    from tests.areas_accounts.test_public_forms import outbox, token_in
    from tests.ownership.world import load_world

    load_world(engine)
    plain = client.post("/api/v1/privacy/erase", json={"email": "x@example.org"})
    named = client.post(
        "/api/v1/privacy/erase",
        json={"email": "y@example.org", "person_keys": [JANA_KEY], "person_name": "Jana Nováková"},
    )
    ghost = client.post("/api/v1/privacy/erase", json={"email": "z@example.org", "person_keys": ["a" * 32]})
    assert _same(plain) == _same(named) == _same(ghost)
    mail = [m for m in outbox(engine, "y@example.org") if m["kind"] == "privacy_verify"][0]
    out = assert_envelope(client.post("/api/v1/privacy/erase", json={"token": token_in(mail["body"])}))
    assert out["status"] == "verified" and "operator" in out["outcome"]  # not done: waits for the match
    person = assert_envelope(client.get(f"/api/v1/companies/person/p:{JANA_KEY}", headers=auth))
    assert person["person"]["name"] == "Jana Nováková"


def test_every_test_the_threat_model_names_exists():
    """docs/security.md names a test for each threat (`file.py::test`, or `::test` for the file named just
    before on the line): each must exist, so the model cannot point at a renamed or deleted test."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    named, missing = 0, []
    for line in (root / "docs" / "security.md").read_text(encoding="utf-8").splitlines():
        current = None
        for token in re.findall(r"`([^`]+)`", line):
            found = re.fullmatch(r"((?:tests/[\w/]+/)?test_\w+\.py)?::(test_\w+)", token)
            if found is None:
                continue
            current = found.group(1) or current
            assert current is not None, line
            path = root / (current if current.startswith("tests/") else f"tests/areas_accounts/{current}")
            named += 1
            if not path.exists() or f"def {found.group(2)}(" not in path.read_text(encoding="utf-8"):
                missing.append(f"{current}::{found.group(2)}")
    assert named > 50 and missing == []
