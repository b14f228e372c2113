"""Public forms through HTTP (spec 4.7): lead capture, newsletter intent, signup stats, API signup and
data-protection requests, each double opt-in through the e-mail outbox."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

from regintel.areas.accounts import router as accounts_router
from regintel.areas.accounts.public import one_month_after
from regintel.areas.accounts.tables import signup_leads
from regintel.db.schema import email_outbox
from tests.areas_accounts.test_account_api import sign_in
from tests.helpers import assert_envelope, assert_error


@pytest.fixture(autouse=True)
def _fresh_stats():
    accounts_router._stats_cache.clear()


def outbox(engine, email):
    with engine.connect() as conn:
        return list(
            conn.execute(
                select(email_outbox.c.kind, email_outbox.c.body, email_outbox.c.status)
                .where(email_outbox.c.to_addr == email)
                .order_by(email_outbox.c.id)
            ).mappings()
        )


def token_in(body):
    return re.search(r"(?:token=|:\n)([A-Za-z0-9_\-.]{30,})", body).group(1)


@pytest.mark.parametrize(
    ("verified", "due"),
    [
        ("2026-01-31T10:00:00+00:00", "2026-02-28T10:00:00+00:00"),  # no 31 February: its last day
        ("2028-01-30T10:00:00+00:00", "2028-02-29T10:00:00+00:00"),  # a leap year
        ("2026-02-28T23:59:00+00:00", "2026-03-28T23:59:00+00:00"),  # 28 days, not 30
        ("2026-12-02T11:00:00+00:00", "2027-01-02T11:00:00+00:00"),  # 31 days, into the next year
        ("2026-04-30T08:00:00+00:00", "2026-05-30T08:00:00+00:00"),
    ],
)
def test_a_privacy_request_is_due_one_calendar_month_after_verification(verified, due):
    assert one_month_after(datetime.fromisoformat(verified)) == datetime.fromisoformat(due)


def test_lead_double_opt_in_and_stats(client, engine):
    assert assert_envelope(client.get("/api/v1/public/signup-stats")) == {"total": 0, "last30d": 0}
    accounts_router._stats_cache.clear()
    resp = client.post(
        "/api/v1/public/signup", json={"email": "Lead@Example.org", "use_case": "KYC ✓", "source": "landing"}
    )
    assert resp.status_code == 202 and resp.json()["data"]["status"] == "pending_confirmation"
    mails = outbox(engine, "lead@example.org")
    assert [m["kind"] for m in mails] == ["lead_confirm"]
    # a second request within 10 minutes sends no second mail, same answer
    assert client.post("/api/v1/public/signup", json={"email": "lead@example.org"}).status_code == 202
    assert len(outbox(engine, "lead@example.org")) == 1
    assert assert_envelope(client.get("/api/v1/public/signup-stats"))["total"] == 0  # pending does not count
    accounts_router._stats_cache.clear()
    confirmed = assert_envelope(
        client.post("/api/v1/public/signup", json={"token": token_in(mails[0]["body"])})
    )
    assert confirmed["status"] == "confirmed"
    stats = client.get("/api/v1/public/signup-stats").json()
    assert stats["data"] == {"total": 1, "last30d": 1} and "@" not in str(stats)
    # cached for 10 minutes
    client.post("/api/v1/public/signup", json={"email": "second@example.org"})
    again = client.get("/api/v1/public/signup-stats")
    assert again.json()["meta"]["cached"] is True and again.json()["data"]["total"] == 1
    assert again.headers["cache-control"] == "public, max-age=600"  # spec 8: 10 min, for clients too


def test_lead_edges(client, engine):
    for body in (
        {},
        {"email": "nope"},
        {"email": "a@example.org", "extra": 1},
        {"email": 5},
        {"email": "a@example.org", "token": "x"},
        {"token": "x", "use_case": "y"},
        {"email": "a@example.org", "use_case": "x" * 2001},
        {"email": "x" * 400 + "@example.org"},
    ):
        assert_error(client.post("/api/v1/public/signup", json=body), 422, "VALIDATION_ERROR")
    assert_error(client.post("/api/v1/public/signup", json={"token": "forged"}), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/api/v1/public/signup?x=1", json={"email": "a@example.org"}), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/public/signup-stats?x=1"), 422, "VALIDATION_ERROR")
    # honeypot: same answer, nothing recorded or sent
    resp = client.post("/api/v1/public/signup", json={"email": "bot@example.org", "website": "http://spam"})
    assert resp.status_code == 202 and outbox(engine, "bot@example.org") == []


def test_newsletter_token_is_not_a_lead_token(client, engine):
    client.post("/api/v1/public/newsletter-intent", json={"email": "news@example.org"})
    token = token_in(outbox(engine, "news@example.org")[0]["body"])
    assert_error(client.post("/api/v1/public/signup", json={"token": token}), 422, "VALIDATION_ERROR")
    assert (
        assert_envelope(client.post("/api/v1/public/newsletter-intent", json={"token": token}))["status"]
        == "confirmed"
    )
    assert (
        assert_envelope(client.get("/api/v1/public/signup-stats"))["total"] == 0
    )  # newsletter is not a lead
    assert_error(
        client.post("/api/v1/public/newsletter-intent", json={"email": "a@example.org", "use_case": "x"}),
        422,
        "VALIDATION_ERROR",
    )


def test_api_signup_creates_account_and_free_key(client, engine):
    page = client.get("/api/v1/public/api-signup")
    assert (
        page.status_code == 200
        and "<form" in page.text
        and page.headers["content-type"].startswith("text/html")
    )
    assert client.post("/api/v1/public/api-signup", json={"email": "dev@example.org"}).status_code == 202
    body = outbox(engine, "dev@example.org")[0]["body"]
    assert "/api/v1/public/api-signup?token=" in body
    data = assert_envelope(client.post("/api/v1/public/api-signup", json={"token": token_in(body)}), 201)
    assert data["api_key"]["plan"] == "free" and data["api_key"]["key"].startswith("ri_")
    assert assert_envelope(
        client.get("/api/v1/me", headers={"Authorization": f"Bearer {data['api_key']['key']}"})
    )
    account = assert_envelope(client.get("/account"))  # the session cookie is set too
    assert account["email"] == "dev@example.org" and len(account["api_keys"]) == 1
    assert_error(
        client.post("/api/v1/public/api-signup", json={"token": token_in(body)}), 422, "VALIDATION_ERROR"
    )


def test_privacy_access_exports_what_is_held(client, engine):
    csrf = sign_in(client, engine, "me@example.org")
    client.post("/account/api-keys", json={"name": "k"}, headers=csrf)
    client.post("/api/v1/public/signup", json={"email": "me@example.org", "use_case": "research"})
    resp = client.post("/api/v1/privacy/access", json={"email": "me@example.org"})
    assert resp.status_code == 202 and resp.json()["data"]["status"] == "verification_sent"
    mail = [m for m in outbox(engine, "me@example.org") if m["kind"] == "privacy_verify"][0]
    out = assert_envelope(client.post("/api/v1/privacy/access", json={"token": token_in(mail["body"])}))
    export = out["export"]
    assert export["account"]["email"] == "me@example.org" and len(export["api_keys"]) == 1
    assert "key" not in export["api_keys"][0] and "key_hash" not in str(export)
    assert export["signups"][0]["use_case"] == "research"
    assert export["privacy_requests"][0]["kind"] == "access" and out["status"] == "done"
    # a token for `access` cannot act as `erase`
    assert_error(
        client.post("/api/v1/privacy/erase", json={"token": token_in(mail["body"])}), 422, "VALIDATION_ERROR"
    )


def test_privacy_erase_suppresses_without_deleting_register_data(client, engine):
    client.post("/api/v1/public/newsletter-intent", json={"email": "gone@example.org"})
    client.post("/api/v1/privacy/erase", json={"email": "gone@example.org"})
    mail = [m for m in outbox(engine, "gone@example.org") if m["kind"] == "privacy_verify"][0]
    out = assert_envelope(client.post("/api/v1/privacy/erase", json={"token": token_in(mail["body"])}))
    assert out["removed_leads"] == 1 and out["status"] == "done" and out["due_at"]
    # suppressed: a new form entry sends nothing (same answer)
    before = len(outbox(engine, "gone@example.org"))
    assert client.post("/api/v1/public/signup", json={"email": "gone@example.org"}).status_code == 202
    assert len(outbox(engine, "gone@example.org")) == before
    with engine.connect() as conn:
        pending = conn.execute(
            select(func.count())
            .select_from(email_outbox)
            .where(email_outbox.c.to_addr == "gone@example.org", email_outbox.c.status == "pending")
        ).scalar_one()
    assert pending == 0


def test_privacy_object_and_rectify(client, engine):
    client.post("/api/v1/public/signup", json={"email": "obj@example.org"})
    client.post("/api/v1/privacy/object", json={"email": "obj@example.org"})
    mail = [m for m in outbox(engine, "obj@example.org") if m["kind"] == "privacy_verify"][0]
    assert (
        assert_envelope(client.post("/api/v1/privacy/object", json={"token": token_in(mail["body"])}))[
            "suppressed_leads"
        ]
        == 1
    )
    client.post(
        "/api/v1/privacy/rectify", json={"email": "r@example.org", "details": "My name is Zoë, not Zoe"}
    )
    mail = outbox(engine, "r@example.org")[0]
    before = datetime.now(UTC)
    out = assert_envelope(client.post("/api/v1/privacy/rectify", json={"token": token_in(mail["body"])}))
    assert out["status"] == "verified" and "operator" in out["outcome"]
    due = datetime.fromisoformat(out["due_at"])  # one calendar month after the verification
    assert one_month_after(before) <= due <= one_month_after(datetime.now(UTC))
    for body in (
        {},
        {"email": "x"},
        {"email": "a@example.org", "token": "t"},
        {"email": "a@example.org", "x": 1},
        {"email": "a@example.org", "details": "d" * 5001},
    ):
        assert_error(client.post("/api/v1/privacy/rectify", json=body), 422, "VALIDATION_ERROR")


FORMS = ["/api/v1/public/signup", "/api/v1/public/newsletter-intent", "/api/v1/public/api-signup"]


@pytest.mark.parametrize("path", FORMS)
def test_the_honeypot_of_every_signup_form(client, engine, path):
    """A bot that fills the hidden `website` field gets a person's answer, and nothing is recorded or sent."""
    bot = client.post(path, json={"email": "bot@example.org", "website": "http://spam.example"})
    human = client.post(path, json={"email": "human@example.org"})
    assert bot.status_code == human.status_code == 202
    assert bot.json()["data"] == human.json()["data"]
    assert outbox(engine, "bot@example.org") == [] and len(outbox(engine, "human@example.org")) == 1
    with engine.connect() as conn:
        assert (
            conn.execute(
                select(func.count())
                .select_from(signup_leads)
                .where(signup_leads.c.email == "bot@example.org")
            ).scalar_one()
            == 0
        )


@pytest.mark.parametrize("path", [*FORMS, "/api/v1/privacy/erase", "/account/welcome"])
def test_the_forms_are_limited_per_ip(app_factory, path):
    client = app_factory(shared_limit_per_minute=2, rate_limit_storage="memory")
    for n in range(2):
        assert client.post(path, json={"email": f"p{n}@example.org"}).status_code == 202
    resp = client.post(path, json={"email": "p3@example.org"})
    assert_error(resp, 429, "RATE_LIMITED")
    assert int(resp.headers["retry-after"]) >= 1
