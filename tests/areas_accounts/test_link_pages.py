"""The links in the account mails open pages that work (docs/accounts.md, "Links in e-mails"): the sign-in
link, the lead and newsletter confirmations and the privacy-request verification. Before, the sign-in link
opened `GET /account?welcome_token=…` (a 422) and the other mails asked the person to POST the token.
Tested over HTTP (opening a link changes nothing; the page's headers) and in Chromium (press the button:
signed in, confirmed, the access export shown)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import select

from regintel.areas.accounts.tables import privacy_requests, signup_leads
from regintel.db.schema import email_outbox
from tests.areas_accounts.test_consent_page import CHROMIUM
from tests.helpers import assert_error

LINK = re.compile(r"^(https?://\S+\?token=(\S+))$", re.MULTILINE)


def _mail(engine, email: str, kind: str) -> str:
    with engine.connect() as conn:
        return conn.execute(
            select(email_outbox.c.body)
            .where(email_outbox.c.to_addr == email, email_outbox.c.kind == kind)
            .order_by(email_outbox.c.id.desc())
        ).scalar_one()


def _link(body: str) -> tuple[str, str]:
    """(the link, its token) of a mail."""
    match = LINK.search(body)
    assert match is not None, body
    return match.group(1), match.group(2)


def _status(engine, table, email: str) -> str:
    with engine.connect() as conn:
        return conn.execute(select(table.c.status).where(table.c.email == email)).scalar_one()


@pytest.mark.parametrize(
    ("path", "kind", "title"),
    [
        ("/account/welcome", "account_login", "Sign in to regintel"),
        ("/api/v1/public/signup", "lead_confirm", "Confirm your e-mail address"),
        ("/api/v1/public/newsletter-intent", "newsletter_confirm", "Confirm your newsletter subscription"),
        ("/api/v1/privacy/erase", "privacy_verify", "Confirm your data-protection request"),
    ],
)
def test_each_mail_links_to_a_page_that_changes_nothing_until_pressed(base, engine, path, kind, title):
    http = httpx.Client(base_url=base, timeout=10)
    assert http.post(path, json={"email": "link@example.org"}).status_code == 202
    link, token = _link(_mail(engine, "link@example.org", kind))
    assert urlsplit(link).path == path and link.startswith(base)  # REGINTEL_BASE_URL, the same route
    for _ in range(2):  # a mail scanner opening the link, then the person
        page = http.get(link)
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert f"<h1>{title}</h1>" in page.text and token not in page.text  # the script reads the query
        assert page.headers["cache-control"] == "no-store" and page.headers["x-frame-options"] == "DENY"
        csp = page.headers["content-security-policy"]
        assert (
            "script-src 'sha256-" in csp and "connect-src 'self'" in csp and "frame-ancestors 'none'" in csp
        )
    if kind == "lead_confirm":
        assert _status(engine, signup_leads, "link@example.org") == "pending"
    if kind == "privacy_verify":
        assert _status(engine, privacy_requests, "link@example.org") == "unverified"
    if kind == "account_login":  # whose account the link signs into, so a link from someone else shows
        assert "This link signs this browser in as link@example.org." in page.text
        assert "not valid or has expired" in http.get(f"{path}?token={token[:-3]}abc").text
    # the token is still good: opening the page spent nothing (a sign-in link is single use)
    assert http.post(path, json={"token": token}).status_code == 200
    assert http.get(f"{path}?token=x&y=1").status_code == 422  # strict query, as everywhere
    assert_error(http.get(f"{path}?token=" + "%3C" * 3), 422, "VALIDATION_ERROR")


def test_the_links_in_a_real_browser(base, engine, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    http = httpx.Client(base_url=base, timeout=10)
    http.post("/account/welcome", json={"email": "person@example.org"})
    http.post("/api/v1/public/signup", json={"email": "person@example.org", "use_case": "KYC"})
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # the sign-in link: press the button, and this browser is signed in
        assert page.goto(_link(_mail(engine, "person@example.org", "account_login"))[0]).status == 200
        page.get_by_role("button", name="Sign in").click()
        sync_api.expect(page.get_by_role("status")).to_have_text("Signed in", timeout=30_000)
        account = page.evaluate("fetch('/account').then(r => r.json())")
        assert account["data"]["email"] == "person@example.org"
        # the lead confirmation
        page.goto(_link(_mail(engine, "person@example.org", "lead_confirm"))[0])
        page.get_by_role("button", name="Confirm").click()
        sync_api.expect(page.get_by_role("status")).to_contain_text("is confirmed", timeout=30_000)
        assert _status(engine, signup_leads, "person@example.org") == "confirmed"
        # an access request: the export is shown on the page
        http.post("/api/v1/privacy/access", json={"email": "person@example.org"})
        page.goto(_link(_mail(engine, "person@example.org", "privacy_verify"))[0])
        page.get_by_role("button", name="Confirm the request").click()
        sync_api.expect(page.locator("#data")).to_be_visible(timeout=30_000)
        assert '"email": "person@example.org"' in page.locator("#data").inner_text()
        # a link used already says so, and the button comes back
        page.goto(_link(_mail(engine, "person@example.org", "account_login"))[0])
        page.get_by_role("button", name="Sign in").click()
        sync_api.expect(page.get_by_role("status")).to_contain_text("used already", timeout=30_000)
        sync_api.expect(page.get_by_role("button", name="Sign in")).to_be_enabled()
        assert [e for e in errors if "Content Security Policy" in e] == []  # the script ran under the CSP
        context.close()


def test_the_signup_link_makes_the_account_only_when_pressed(base, engine, tmp_path):
    """The API signup mail's page used to post its token as it loaded: a mail scanner that runs scripts made
    the account and saw the key, shown once, instead of the person; and the link itself was a 422 (the page
    did not declare `token`)."""
    httpx.post(f"{base}/api/v1/public/api-signup", json={"email": "dev@example.org"})
    link = _link(_mail(engine, "dev@example.org", "account_login"))[0]
    assert urlsplit(link).path == "/api/v1/public/api-signup"
    assert httpx.get(link).status_code == 200 and httpx.get(f"{link}&x=1").status_code == 422
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")
    if CHROMIUM is None:
        pytest.skip("no chromium on this machine")
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        page = context.new_page()
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        assert page.goto(link, wait_until="networkidle").status == 200
        assert posts == []  # opening the link sent nothing
        page.get_by_role("button", name="Create my account and key").click()
        sync_api.expect(page.get_by_role("status")).to_contain_text(
            "Your key (shown once): ri_", timeout=30_000
        )
        assert posts == [urlsplit(link)._replace(query="").geturl()]
        context.close()
