"""OpenID Connect identities through HTTP against a local fake provider on 127.0.0.1 that signs ID tokens
with an RSA key made in the test (joserfc): sign-in, account creation from a verified address, linking,
unlinking, and every way a callback can be forged (state, cookie, nonce, audience, issuer, key, expiry)."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from regintel.config import OidcProvider
from tests.areas_accounts.fakes import FakeOidc, serve
from tests.areas_accounts.test_account_api import sign_in
from tests.helpers import assert_envelope, assert_error


@pytest.fixture
def idp() -> Iterator[FakeOidc]:
    fake = FakeOidc()
    with serve(fake.app) as url:
        fake.issuer = url
        yield fake


@pytest.fixture
def app(app_factory, idp):
    conf = OidcProvider(
        title="Test IdP",
        issuer=idp.issuer,
        client_id=FakeOidc.CLIENT_ID,
        client_secret=FakeOidc.CLIENT_SECRET,
    )
    return app_factory(oidc_providers={"test": conf})


def _to_provider(client, start: httpx.Response) -> str:
    """Follow the provider's authorize redirect (it signs the fake user in at once): the callback path."""
    assert start.status_code in (200, 302), start.text
    url = start.headers["location"] if start.status_code == 302 else start.json()["data"]["authorization_url"]
    query = parse_qs(urlsplit(url).query)
    assert query["code_challenge_method"] == ["S256"] and query["nonce"] and query["state"]
    assert query["redirect_uri"][0].endswith("/account/identities/test/callback")
    back = httpx.get(url, follow_redirects=False)
    assert back.status_code == 302
    parts = urlsplit(back.headers["location"])
    return f"{parts.path}?{parts.query}"


def _login(client) -> httpx.Response:
    return client.get(
        _to_provider(client, client.get("/account/identities/test/login", follow_redirects=False)),
        follow_redirects=False,
    )


def test_sign_in_creates_an_account_then_signs_it_in_again(app, idp, settings):
    resp = _login(app)
    assert resp.status_code == 302, resp.text
    assert resp.headers["location"] == f"{settings.base_url}/account?identity=signed_in"
    cookies = resp.headers.get_list("set-cookie")
    assert any(c.startswith("regintel_session=") and "HttpOnly" in c for c in cookies)
    assert any(c.startswith("regintel_oidc=") and "Max-Age=0" in c for c in cookies)  # the flow cookie ends
    account = assert_envelope(app.get("/account"))
    assert account["email"] == "oidc@example.org" and account["identity_providers"] == ["test"]
    assert [i["provider"] for i in account["identities"]] == ["test"]
    app.cookies.clear()
    assert _login(app).status_code == 302  # the same identity signs the same account in
    assert assert_envelope(app.get("/account"))["id"] == account["id"]


def test_link_and_unlink(app, idp, engine):
    csrf = sign_in(app, engine, "anna@example.org")
    assert_error(app.post("/account/identities/test/link"), 403, "FORBIDDEN")  # CSRF
    idp.user = {"sub": "anna-at-idp", "email": "anna.other@example.org", "email_verified": True}
    start = app.post("/account/identities/test/link", headers=csrf)
    resp = app.get(_to_provider(app, start), follow_redirects=False)
    assert resp.status_code == 302 and resp.headers["location"].endswith("/account?identity=linked")
    account = assert_envelope(app.get("/account"))
    assert (
        account["email"] == "anna@example.org"
        and account["identities"][0]["email"] == "anna.other@example.org"
    )
    # signing in with the linked identity reaches Anna's account
    app.cookies.clear()
    _login(app)
    assert assert_envelope(app.get("/account"))["id"] == account["id"]
    csrf = {"X-CSRF-Token": app.cookies.get("regintel_csrf")}
    assert_error(app.post("/account/identities/test/unlink"), 403, "FORBIDDEN")
    out = assert_envelope(app.post("/account/identities/test/unlink", headers=csrf))
    assert out == {"provider": "test", "unlinked": 1}
    assert assert_envelope(app.get("/account"))["identities"] == []
    assert_error(app.post("/account/identities/test/unlink", headers=csrf), 404, "NOT_FOUND")
    assert_error(app.post("/account/identities/other/unlink", headers=csrf), 404, "NOT_FOUND")


def test_identity_of_another_account_is_not_linked(app, idp, engine):
    _login(app)  # oidc@example.org's account owns user-1
    app.cookies.clear()
    csrf = sign_in(app, engine, "bob@example.org")
    resp = app.get(
        _to_provider(app, app.post("/account/identities/test/link", headers=csrf)), follow_redirects=False
    )
    assert_error(resp, 409, "CONFLICT")


def test_existing_address_is_never_linked_silently(app, idp, engine):
    sign_in(app, engine, "oidc@example.org")
    app.cookies.clear()
    assert_error(_login(app), 409, "CONFLICT")
    idp.user = {"sub": "u2", "email": "new@example.org", "email_verified": False}
    assert_error(_login(app), 403, "FORBIDDEN")  # an unverified address makes no account


@pytest.mark.parametrize("tamper", ["nonce", "aud", "iss", "key", "expired"])
def test_forged_id_tokens_are_refused(app, idp, tamper):
    idp.tamper = tamper
    assert_error(_login(app), 403, "FORBIDDEN")
    assert app.cookies.get("regintel_session") is None


def test_forged_callbacks_are_refused(app, idp, app_factory):
    path = _to_provider(app, app.get("/account/identities/test/login", follow_redirects=False))
    other_browser = app_factory(oidc_providers=app.app.state.settings.oidc_providers)
    assert_error(
        other_browser.get(path, follow_redirects=False), 403, "FORBIDDEN"
    )  # no flow cookie: login CSRF
    code = parse_qs(urlsplit(path).query)["code"][0]
    assert_error(
        app.get(f"/account/identities/test/callback?code={code}&state=wrong", follow_redirects=False),
        403,
        "FORBIDDEN",
    )
    assert_error(app.get(f"{path}&iss=https://evil.example", follow_redirects=False), 403, "FORBIDDEN")
    assert_error(
        app.get(
            f"/account/identities/test/callback?error=access_denied&state="
            f"{parse_qs(urlsplit(path).query)['state'][0]}",
            follow_redirects=False,
        ),
        403,
        "FORBIDDEN",
    )
    assert_error(app.get(f"{path}&extra=1", follow_redirects=False), 422, "VALIDATION_ERROR")
    assert app.get(path, follow_redirects=False).status_code == 302  # the genuine callback still works once
    assert_error(app.get(path, follow_redirects=False), 403, "FORBIDDEN")  # and only once (flow cookie gone)


def test_unknown_and_unconfigured_providers(app, client, engine):
    assert_error(app.get("/account/identities/nope/login", follow_redirects=False), 404, "NOT_FOUND")
    assert_error(
        app.get("/account/identities/b%C3%A4d/login", follow_redirects=False), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/account/identities/test/login", follow_redirects=False), 404, "NOT_FOUND")
    csrf = sign_in(client, engine)
    assert_error(client.post("/account/identities/test/unlink", headers=csrf), 404, "NOT_FOUND")
    assert assert_envelope(client.get("/account"))["identity_providers"] == []


def test_unreachable_provider_is_a_502(app_factory):
    conf = OidcProvider(issuer="http://127.0.0.1:9", client_id="x")
    app = app_factory(oidc_providers={"down": conf})
    assert_error(
        app.get("/account/identities/down/login", follow_redirects=False), 502, "UPSTREAM_UNAVAILABLE"
    )
