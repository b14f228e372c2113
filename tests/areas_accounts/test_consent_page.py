"""The OAuth consent page (docs/accounts.md, "OAuth 2.1"): a browser at `/oauth/authorize` gets a
server-rendered page naming the client and the scope with an Allow / Deny form (CSRF token as a field),
tested over HTTP against a real uvicorn and in a real browser (Playwright driving Debian's Chromium, axe-core
as the pages tests run it), then the code from the page is exchanged by authlib's client. The JSON consent
API stays as it was (test_oauth.py)."""

from __future__ import annotations

import http.server
import re
import shutil
import subprocess
import threading
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.integrations.httpx_client import OAuth2Client
from markupsafe import escape

from tests.areas_accounts.test_oauth import REDIRECT, browser, register
from tests.helpers import assert_envelope, assert_error

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
HOSTILE = '<script>alert("x")</script> & Co'
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _authorize_url(base: str, client_id: str, redirect: str = REDIRECT) -> tuple[OAuth2Client, str, str]:
    oauth = OAuth2Client(
        client_id=client_id,
        redirect_uri=redirect,
        scope="api",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )
    url, state = oauth.create_authorization_url(f"{base}/oauth/authorize", code_verifier="v" * 64)
    return oauth, url, state


def _form_token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_the_consent_page_over_http(base, engine):
    http_, csrf = browser(base, engine)
    client = assert_envelope(
        http_.post(
            "/account/oauth-clients", headers=csrf, json={"name": HOSTILE, "redirect_uris": [REDIRECT]}
        ),
        201,
    )
    oauth, url, state = _authorize_url(base, client["client_id"])
    path = url.removeprefix(base)
    resp = http_.get(path, headers=HTML)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    page = resp.text
    assert HOSTILE not in page and str(escape(HOSTILE)) in page  # the name is text, never markup
    assert "owner@example.org" in page and f"<code>{REDIRECT}</code>" in page and "<code>api</code>" in page
    assert "Unverified name" not in page  # registered on an account page
    assert resp.headers["x-frame-options"] == "DENY" and resp.headers["cache-control"] == "no-store"
    csp = resp.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "form-action 'self' http://127.0.0.1:9;" in csp
    assert "<script" not in page  # the page runs no script
    token = _form_token(page)
    assert token == csrf["X-CSRF-Token"]  # the session's own token, sent back as a field
    # the JSON answer for API clients is unchanged
    assert assert_envelope(http_.get(path))["client_name"] == HOSTILE

    form = {"decision": "approve", "csrf_token": token}
    for bad, code in (
        ({"decision": "approve"}, 422),
        ({"decision": "maybe", "csrf_token": token}, 422),
        ({**form, "extra": "x"}, 422),
        ({"decision": "approve", "csrf_token": "wrong"}, 403),
    ):
        assert http_.post(path, data=bad).status_code == code, bad
    assert http_.post(path, data=form, headers={"Origin": "https://evil.example"}).status_code == 403
    other, _ = browser(base, engine, "someone@example.org")  # another session's token does not pass
    assert other.post(path, data=form).status_code == 403

    denied = http_.post(path, data={"decision": "deny", "csrf_token": token})
    assert denied.status_code == 302 and "error=access_denied" in denied.headers["location"]
    approved = http_.post(path, data=form, headers={"Origin": base})
    assert approved.status_code == 302
    location = approved.headers["location"]
    assert location.startswith(REDIRECT) and parse_qs(urlsplit(location).query)["state"] == [state]
    fetched = oauth.fetch_token(
        f"{base}/oauth/token", authorization_response=location, code_verifier="v" * 64
    )
    assert assert_envelope(oauth.get(f"{base}/api/v1/me")) and fetched["access_token"].startswith("rio_")


def test_the_page_says_when_it_cannot_ask(base, engine):
    anonymous = httpx.Client(base_url=base, follow_redirects=False, timeout=10)
    http_, csrf = browser(base, engine)
    client_id = register(http_, csrf)["client_id"]
    _, url, _ = _authorize_url(base, client_id)
    path = url.removeprefix(base)
    out = anonymous.get(path, headers=HTML)
    assert out.status_code == 401 and "<h1>Sign in first</h1>" in out.text
    assert "frame-ancestors 'none'" in out.headers["content-security-policy"]
    assert_error(anonymous.get(path), 401, "UNAUTHORIZED")  # API clients keep the JSON error
    unknown = http_.get(path.replace(client_id, "ric_unknown"), headers=HTML)
    assert unknown.status_code == 400 and "not valid" in unknown.text and "location" not in unknown.headers
    # a self-registered client's name is marked as unverified
    registered = httpx.post(
        f"{base}/oauth/register", json={"client_name": "Claude Desktop", "redirect_uris": [REDIRECT]}
    ).json()
    _, url, _ = _authorize_url(base, registered["client_id"])
    assert "Unverified name" in http_.get(url.removeprefix(base), headers=HTML).text


@pytest.fixture
def callback():
    """The client's redirect target: a real server on another port, so the browser lands somewhere."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            self.wfile.write(b"back at the client")

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/callback"
    httpd.shutdown()


@pytest.fixture(scope="module")
def axe_source(tmp_path_factory) -> str:
    """axe-core at the version the pages tests pin (their package-lock), installed by `npm ci` into a
    temporary folder (not into tests/pages); skips only without npm."""
    from tests.pages.test_browser_pages import AXE, AXE_DIR

    if AXE.exists():
        return AXE.read_text(encoding="utf-8")
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: axe-core cannot be installed (apt-get install npm)")
    folder = tmp_path_factory.mktemp("axe")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(AXE_DIR / name, folder / name)
    subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=folder, check=True, timeout=300, capture_output=True
    )
    return (folder / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")
def test_the_consent_page_in_a_real_browser(base, engine, callback, axe_source, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test dependency")
    from tests.pages.test_browser_pages import _serious

    http_, csrf = browser(base, engine)
    client = assert_envelope(
        http_.post(
            "/account/oauth-clients", headers=csrf, json={"name": "Notebook", "redirect_uris": [callback]}
        ),
        201,
    )
    oauth, url, state = _authorize_url(base, client["client_id"], callback)
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
        )
        context.add_cookies(
            [
                {"name": n, "value": v, "url": base}
                for n, v in http_.cookies.items()
                if n.startswith("regintel")
            ]
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        assert page.goto(url).status == 200
        assert (
            page.get_by_role("heading", level=1).inner_text()
            == "Allow Notebook to use your regintel account?"
        )
        assert page.get_by_role("group", name="Your decision").is_visible()
        assert _serious(page, axe_source) == []  # axe-core: no serious or critical violation
        page.screenshot(path=str(tmp_path / "oauth-consent.png"))
        # keyboard only: the Allow button takes focus and Enter submits the form
        page.get_by_role("button", name="Allow").focus()
        with page.expect_navigation(url=re.compile(re.escape(callback) + r"\?")):
            page.keyboard.press("Enter")
        landed = page.url
        assert page.inner_text("body") == "back at the client" and errors == []
        context.close()
    assert parse_qs(urlsplit(landed).query)["state"] == [state]
    oauth.fetch_token(f"{base}/oauth/token", authorization_response=landed, code_verifier="v" * 64)
    assert assert_envelope(oauth.get(f"{base}/api/v1/me"))
