"""The account page's API through HTTP (issue 23, spec 4.8): magic-link sign-in, session cookie, CSRF,
keys, watches, the natural-persons addendum, and that one account never reaches another's things."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import select

from regintel.areas.accounts import sessions
from regintel.areas.accounts.service import FO_ADDENDUM_VERSION
from regintel.db.schema import api_keys, email_outbox
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.jobs.emails import send_due_mails
from regintel.jobs.runner import run_due
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

NOVAK = CompanyRecord(
    country="SK",
    national_id="44483767",
    name="Novák & Synovia s.r.o.",
    city="Trnava",
    roles=[
        RoleRecord(
            role="director",
            holder_name="Ján Novák",
            person=PersonRecord("Ján Novák", birth_date="1970-05", nationality="SK"),
        )
    ],
)
ESET = CompanyRecord(country="SK", national_id="31333532", name="ESET, spol. s r.o.", city="Bratislava")
TWIN_SK = CompanyRecord(country="SK", national_id="12345679", name="Twin SK s.r.o.")
TWIN_CZ = CompanyRecord(country="CZ", national_id="12345679", name="Twin CZ s.r.o.")


@pytest.fixture
def data(engine):
    load_companies(engine, NOVAK, ESET, TWIN_SK, TWIN_CZ)


def _token_from_outbox(engine, email):
    with engine.connect() as conn:
        body = conn.execute(
            select(email_outbox.c.body)
            .where(email_outbox.c.to_addr == email)
            .order_by(email_outbox.c.id.desc())
            .limit(1)
        ).scalar_one()  # the latest link to the address
    return re.search(r"/account/welcome\?token=(\S+)", body).group(1)


def sign_in(client, engine, email="anna@example.org"):
    """Ask for a link, read it from the outbox, redeem it: returns the CSRF header."""
    resp = client.post("/account/welcome", json={"email": email})
    assert resp.status_code == 202, resp.text
    token = _token_from_outbox(engine, email.lower())
    data = assert_envelope(client.post("/account/welcome", json={"token": token}))
    assert data["status"] == "signed_in"
    assert client.cookies.get("regintel_csrf") == data["csrf_token"]
    return {"X-CSRF-Token": data["csrf_token"]}


def test_magic_link_sign_in_sets_safe_cookies(client, engine, settings):
    resp = client.post("/account/welcome", json={"email": "Anna@Example.org"})
    assert resp.status_code == 202 and resp.json()["data"]["status"] == "link_sent"
    token = _token_from_outbox(engine, "anna@example.org")
    resp = client.post("/account/welcome", json={"token": token})
    assert resp.status_code == 200, resp.text
    cookies = resp.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("regintel_session="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Secure" not in session  # http test server
    csrf = next(c for c in cookies if c.startswith("regintel_csrf="))
    assert "HttpOnly" not in csrf
    account = assert_envelope(client.get("/account"))
    assert account["email"] == "anna@example.org" and account["plan"] == settings.default_plan
    assert account["api_keys"] == [] and account["fo_addendum"] == {
        "accepted": False,
        "text_version": None,
        "person_name": None,
        "accepted_at": None,
        "revoked_at": None,
    }
    # single use
    assert_error(client.post("/account/welcome", json={"token": token}), 422, "VALIDATION_ERROR")


def test_secure_cookie_over_https(app_factory, engine):
    client = app_factory(base_url="https://regintel.example")
    client.post("/account/welcome", json={"email": "b@example.org"})
    token = _token_from_outbox(engine, "b@example.org")
    assert "regintel.example/account/welcome?token=" in _body(engine)
    resp = client.post("/account/welcome", json={"token": token})
    assert all("Secure" in c for c in resp.headers.get_list("set-cookie"))


def _body(engine):
    with engine.connect() as conn:
        return conn.execute(select(email_outbox.c.body).order_by(email_outbox.c.id.desc())).scalars().first()


def test_link_mail_is_sent_by_the_worker(client, engine, settings):
    client.post("/account/welcome", json={"email": "c@example.org"})
    assert send_due_mails(engine, settings) == 1
    with engine.connect() as conn:
        row = conn.execute(select(email_outbox)).mappings().one()
    assert row["status"] == "logged" and row["subject"] == "Your regintel sign-in link"


def test_welcome_bad_bodies(client, settings):
    assert_error(client.post("/account/welcome", json={}), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/account/welcome", json={"email": "a@example.org", "token": "x"}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(client.post("/account/welcome", json={"email": "not-an-address"}), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/account/welcome", json={"email": "a@example.org", "extra": 1}), 422, "VALIDATION_ERROR"
    )
    assert_error(client.post("/account/welcome", json={"email": 5}), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/account/welcome", json={"email": "a" * 5000 + "@example.org"}), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.post("/account/welcome", json={"token": "forged.token.value"}), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.post("/account/welcome?x=1", json={"email": "a@example.org"}), 422, "VALIDATION_ERROR"
    )
    # a token signed with another secret, or expired
    other = URLSafeTimedSerializer("another secret", salt=sessions.LINK_SALT).dumps(
        {"e": "a@example.org", "n": "x"}
    )
    assert_error(client.post("/account/welcome", json={"token": other}), 422, "VALIDATION_ERROR")


def test_expired_link(client, engine, monkeypatch):
    client.post("/account/welcome", json={"email": "old@example.org"})
    token = _token_from_outbox(engine, "old@example.org")
    monkeypatch.setattr(sessions, "LINK_MINUTES", -1)
    resp = client.post("/account/welcome", json={"token": token})
    assert_error(resp, 422, "VALIDATION_ERROR")
    assert resp.json()["error"]["details"][0]["reason"] == "expired"


def test_links_per_address_are_limited(client):
    for _ in range(sessions.LINKS_PER_HOUR):
        assert client.post("/account/welcome", json={"email": "flood@example.org"}).status_code == 202
    assert_error(client.post("/account/welcome", json={"email": "flood@example.org"}), 429, "RATE_LIMITED")


def test_unicode_address(client, engine):
    csrf = sign_in(client, engine, "jürgen@bücher.example")
    assert csrf and assert_envelope(client.get("/account"))["email"] == "jürgen@bücher.example"


def test_no_session_401_and_bad_cookie(client):
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")
    assert_error(client.get("/account/watches/state"), 401, "UNAUTHORIZED")
    assert_error(client.post("/account/api-keys", json={"name": "x"}), 401, "UNAUTHORIZED")
    client.cookies.set("regintel_session", "tampered")
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")
    forged = URLSafeTimedSerializer("another secret", salt=sessions.SESSION_SALT).dumps("abc")
    client.cookies.set("regintel_session", forged)
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")


def test_csrf_is_required_on_every_post(client, engine, data):
    csrf = sign_in(client, engine)
    posts = [
        ("/account/api-keys", {"name": "k"}),
        ("/account/api-keys/1/rename", {"name": "k"}),
        ("/account/api-keys/1/renew", None),
        ("/account/api-keys/1/revoke", None),
        ("/account/watches", {"ico": "31333532"}),
        ("/account/watches/1/unsubscribe", None),
        ("/account/watches/1/unwatch", None),
        ("/account/fo-addendum/revoke", None),
        (
            "/account/fo-addendum/accept",
            {"text_version": FO_ADDENDUM_VERSION, "person_name": "A", "accept": True},
        ),
        ("/account/identities/google/unlink", None),
    ]
    for path, body in posts:
        assert_error(client.post(path, json=body), 403, "FORBIDDEN")
        assert_error(client.post(path, json=body, headers={"X-CSRF-Token": "wrong"}), 403, "FORBIDDEN")
        assert_error(
            client.post(path, json=body, headers={**csrf, "Origin": "https://evil.example"}), 403, "FORBIDDEN"
        )
    # the right token from the right origin passes
    resp = client.post(
        "/account/api-keys", json={"name": "k"}, headers={**csrf, "Origin": "http://testserver"}
    )
    assert resp.status_code == 201


def test_keys_lifecycle_and_use(client, engine, settings):
    csrf = sign_in(client, engine)
    created = assert_envelope(
        client.post("/account/api-keys", json={"name": "Production ✓"}, headers=csrf), 201
    )
    raw, key_id = created["key"], created["id"]
    assert raw.startswith("ri_") and created["plan"] == settings.default_plan and created["active"]
    assert assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"}))
    listed = assert_envelope(client.get("/account"))["api_keys"]
    assert [k["id"] for k in listed] == [key_id] and "key" not in listed[0]
    with engine.connect() as conn:  # stored hashed only
        stored = conn.execute(select(api_keys.c.key_hash).where(api_keys.c.id == key_id)).scalar_one()
    assert raw not in stored
    renamed = assert_envelope(
        client.post(f"/account/api-keys/{key_id}/rename", json={"name": "CI"}, headers=csrf)
    )
    assert renamed["name"] == "CI"
    assert_error(
        client.post(f"/account/api-keys/{key_id}/rename", json={"name": "   "}, headers=csrf),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.post(f"/account/api-keys/{key_id}/rename", json={"name": "x" * 101}, headers=csrf),
        422,
        "VALIDATION_ERROR",
    )
    renewed = assert_envelope(client.post(f"/account/api-keys/{key_id}/renew", headers=csrf))
    assert renewed["active"]
    revoked = assert_envelope(client.post(f"/account/api-keys/{key_id}/revoke", headers=csrf))
    assert revoked["revoked_at"] is not None and not revoked["active"]
    assert_error(client.post(f"/account/api-keys/{key_id}/renew", headers=csrf), 409, "CONFLICT")
    fresh = app_client_without_cache(client)
    assert_error(fresh.get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"}), 401, "UNAUTHORIZED")
    for path in ("rename", "renew", "revoke"):
        assert_error(
            client.post(
                f"/account/api-keys/999/{path}",
                json={"name": "x"} if path == "rename" else None,
                headers=csrf,
            ),
            404,
            "NOT_FOUND",
        )
    assert_error(client.post("/account/api-keys/abc/revoke", headers=csrf), 422, "VALIDATION_ERROR")


def app_client_without_cache(client):
    client.app.state.key_cache._entries.clear()
    return client


def test_renew_a_pass_extends_it(app_factory, engine, settings):
    client = app_factory(default_plan="week_pass")
    csrf = sign_in(client, engine)
    key = assert_envelope(client.post("/account/api-keys", json={"name": "pass"}, headers=csrf), 201)
    expires = datetime.fromisoformat(key["expires_at"])
    assert timedelta(days=6) < expires - datetime.now(UTC) <= timedelta(days=7)
    renewed = assert_envelope(client.post(f"/account/api-keys/{key['id']}/renew", headers=csrf))
    assert datetime.fromisoformat(renewed["expires_at"]) >= expires


def test_cli_keys_still_work_and_are_not_listed(client, engine, make_key):
    raw = make_key("business")
    assert assert_envelope(client.get("/api/v1/me", headers={"Authorization": f"Bearer {raw}"}))
    sign_in(client, engine)
    assert assert_envelope(client.get("/account"))["api_keys"] == []


def test_one_account_cannot_touch_anothers(app_factory, engine, data):
    alice, bob = app_factory(), app_factory()
    a_csrf = sign_in(alice, engine, "alice@example.org")
    b_csrf = sign_in(bob, engine, "bob@example.org")
    key = assert_envelope(alice.post("/account/api-keys", json={"name": "a"}, headers=a_csrf), 201)
    watch = assert_envelope(alice.post("/account/watches", json={"ico": "31333532"}, headers=a_csrf), 201)
    for path in ("rename", "renew", "revoke"):
        assert_error(
            bob.post(
                f"/account/api-keys/{key['id']}/{path}",
                json={"name": "x"} if path == "rename" else None,
                headers=b_csrf,
            ),
            404,
            "NOT_FOUND",
        )
    for path in ("unsubscribe", "unwatch"):
        assert_error(bob.post(f"/account/watches/{watch['id']}/{path}", headers=b_csrf), 404, "NOT_FOUND")
    # Bob's CSRF token is not Alice's
    assert_error(alice.post("/account/api-keys", json={"name": "x"}, headers=b_csrf), 403, "FORBIDDEN")
    bob_view = assert_envelope(bob.get("/account"))
    assert bob_view["api_keys"] == [] and bob_view["watches"] == []
    assert assert_envelope(alice.get("/account"))["api_keys"][0]["active"]


def test_one_account_cannot_read_anothers_reports_or_jobs(app_factory, engine, settings, data):
    """Reports and enrichment jobs belong to the key that asked for them: another account's keys get 404,
    exactly as for an unknown id (ids reveal nothing)."""
    alice, bob = app_factory(), app_factory()
    a_csrf, b_csrf = sign_in(alice, engine, "alice@example.org"), sign_in(bob, engine, "bob@example.org")
    a_key = assert_envelope(alice.post("/account/api-keys", json={"name": "a"}, headers=a_csrf), 201)["key"]
    b_key = assert_envelope(bob.post("/account/api-keys", json={"name": "b"}, headers=b_csrf), 201)["key"]
    a_auth, b_auth = {"Authorization": f"Bearer {a_key}"}, {"Authorization": f"Bearer {b_key}"}
    report = assert_envelope(
        alice.post("/api/v1/companies/sk/31333532/report", headers=a_auth, json={"sections": ["identity"]}),
        202,
    )
    job = assert_envelope(
        alice.post("/api/v1/enrich/jobs", headers=a_auth, json={"identifiers": ["31333532"]}), 202
    )
    run_due(engine, settings, "test-worker")
    assert assert_envelope(alice.get(report["statusUrl"], headers=a_auth))["status"] == "done"
    assert assert_envelope(alice.get(f"/api/v1/enrich/jobs/{job['id']}", headers=a_auth))["status"] == "done"
    for path in (
        report["statusUrl"],
        f"{report['statusUrl']}?download=true",
        f"/api/v1/enrich/jobs/{job['id']}",
        f"/api/v1/enrich/jobs/{job['id']}/result",
    ):
        assert_error(bob.get(path, headers=b_auth), 404, "NOT_FOUND")
    assert_error(
        bob.get(report["statusUrl"], headers=b_auth | {"Accept": "application/pdf"}), 404, "NOT_FOUND"
    )


def test_watches(client, engine, data):
    csrf = sign_in(client, engine)
    watch = assert_envelope(client.post("/account/watches", json={"ico": "31333532"}, headers=csrf), 201)
    assert watch["status"] == "confirmed" and watch["company_name"] == "ESET, spol. s r.o."
    again = assert_envelope(
        client.post("/account/watches", json={"ico": "31333532", "country": "sk"}, headers=csrf), 201
    )
    assert again["id"] == watch["id"]
    assert_error(client.post("/account/watches", json={"ico": "99999999"}, headers=csrf), 404, "NOT_FOUND")
    assert_error(
        client.post("/account/watches", json={"ico": "12345679"}, headers=csrf), 409, "AMBIGUOUS_IDENTIFIER"
    )
    assert_error(client.post("/account/watches", json={"ico": "abc!"}, headers=csrf), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/account/watches", json={"ico": 31333532}, headers=csrf), 422, "VALIDATION_ERROR"
    )
    state = assert_envelope(client.get("/account/watches/state"))
    assert state["total"] == 1 and state["confirmed"] == 1
    off = assert_envelope(client.post(f"/account/watches/{watch['id']}/unsubscribe", headers=csrf))
    assert off["status"] == "unsubscribed" and off["unsubscribed_at"]
    state = assert_envelope(client.get("/account/watches/state"))
    assert state["unsubscribed"] == 1 and state["confirmed"] == 0
    gone = assert_envelope(client.post(f"/account/watches/{watch['id']}/unwatch", headers=csrf))
    assert gone["status"] == "deleted"
    assert assert_envelope(client.get("/account/watches/state"))["total"] == 0
    assert_error(client.post(f"/account/watches/{watch['id']}/unwatch", headers=csrf), 404, "NOT_FOUND")
    assert_error(client.get("/account/watches/state?x=1"), 422, "VALIDATION_ERROR")


def test_fo_addendum_opens_the_natural_persons_gate(client, engine, data):
    csrf = sign_in(client, engine)
    raw = assert_envelope(client.post("/account/api-keys", json={"name": "kyc"}, headers=csrf), 201)["key"]
    auth = {"Authorization": f"Bearer {raw}"}
    items = assert_envelope(client.get("/api/v1/people/search?q=novak jan", headers=auth))
    person = items[0]["key"]
    assert (
        "birthDate"
        not in assert_envelope(client.get(f"/api/v1/companies/person/{person}", headers=auth))["person"]
    )
    body = {"text_version": FO_ADDENDUM_VERSION, "person_name": "Anna Nováková", "accept": True}
    for bad in (
        {**body, "accept": False},
        {**body, "text_version": "1999-01"},
        {**body, "person_name": " "},
        {**body, "accept": "yes"},
        {**body, "extra": 1},
    ):
        assert_error(
            client.post("/account/fo-addendum/accept", json=bad, headers=csrf), 422, "VALIDATION_ERROR"
        )
    accepted = assert_envelope(client.post("/account/fo-addendum/accept", json=body, headers=csrf))
    assert accepted["accepted"] and accepted["person_name"] == "Anna Nováková"
    assert accepted["text_version"] == FO_ADDENDUM_VERSION and accepted["accepted_at"]
    shown = assert_envelope(client.get(f"/api/v1/companies/person/{person}", headers=auth))["person"]
    assert shown["birthDate"] == "1970-05"
    assert assert_envelope(client.get("/account"))["fo_addendum"]["accepted"]
    assert not assert_envelope(client.post("/account/fo-addendum/revoke", headers=csrf))["accepted"]
    assert (
        "birthDate"
        not in assert_envelope(client.get(f"/api/v1/companies/person/{person}", headers=auth))["person"]
    )


def test_addendum_of_one_account_does_not_open_others(client, engine, data, make_key):
    csrf = sign_in(client, engine)
    client.post(
        "/account/fo-addendum/accept",
        headers=csrf,
        json={"text_version": FO_ADDENDUM_VERSION, "person_name": "A", "accept": True},
    )
    other = {"Authorization": f"Bearer {make_key('business')}"}
    person = assert_envelope(client.get("/api/v1/people/search?q=novak jan", headers=other))[0]["key"]
    assert (
        "birthDate"
        not in assert_envelope(client.get(f"/api/v1/companies/person/{person}", headers=other))["person"]
    )


def test_identity_unlink_without_a_linked_identity_is_404(client, engine):
    csrf = sign_in(client, engine)  # test_oidc.py links and unlinks against a fake provider
    assert_error(client.post("/account/identities/google/unlink", headers=csrf), 404, "NOT_FOUND")


def test_sign_out_ends_the_session_and_clears_the_cookies(client, app_factory, engine):
    csrf = sign_in(client, engine)
    other = app_factory()  # a second browser of the same account keeps its session
    other_csrf = sign_in(other, engine)
    cookie = client.cookies.get("regintel_session")
    assert_error(client.post("/account/sign-out"), 403, "FORBIDDEN")  # CSRF as every POST
    resp = client.post("/account/sign-out", headers=csrf)
    assert assert_envelope(resp) == {"status": "signed_out"}
    cleared = {c.split("=", 1)[0]: c for c in resp.headers.get_list("set-cookie")}
    for name in ("regintel_session", "regintel_csrf"):
        assert "Max-Age=0" in cleared[name] and "Path=/" in cleared[name]
    assert "HttpOnly" in cleared["regintel_session"]
    assert client.cookies.get("regintel_session") is None
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")
    client.cookies.set("regintel_session", cookie)  # a copy of the cookie is worthless: the row is gone
    assert_error(client.get("/account"), 401, "UNAUTHORIZED")
    assert_error(client.post("/account/sign-out", headers=csrf), 401, "UNAUTHORIZED")
    assert assert_envelope(other.get("/account"))["email"] == "anna@example.org"
    assert assert_envelope(other.post("/account/api-keys", json={"name": "k"}, headers=other_csrf), 201)


@pytest.mark.parametrize("name", ["ok", " padded ", "Production ✓", "\u3000x", "\u200b"])
def test_a_key_name_the_schema_takes_is_taken(client, engine, name):
    schema = client.app.openapi()["components"]["schemas"]["KeyRenameIn"]["properties"]["name"]
    assert re.search(schema["pattern"], name)
    csrf = sign_in(client, engine)
    created = assert_envelope(client.post("/account/api-keys", json={"name": name}, headers=csrf), 201)
    assert created["name"] == name.strip()
    renamed = client.post(f"/account/api-keys/{created['id']}/rename", json={"name": name}, headers=csrf)
    assert assert_envelope(renamed)["name"] == name.strip()


@pytest.mark.parametrize("name", ["   ", "\t\n", "\x1c\x1f", "\x85", "\u3000\u2028", "\ufeff"])
def test_a_blank_key_name_is_refused_by_the_schema(client, engine, name):
    for model in ("KeyCreateIn", "KeyRenameIn"):
        schema = client.app.openapi()["components"]["schemas"][model]["properties"]["name"]
        assert re.search(schema["pattern"], name) is None
    csrf = sign_in(client, engine)
    assert_error(client.post("/account/api-keys", json={"name": name}, headers=csrf), 422, "VALIDATION_ERROR")
