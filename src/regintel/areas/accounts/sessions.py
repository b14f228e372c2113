"""Sign-in by e-mail magic link, cookie sessions and CSRF (docs/accounts.md, "Sessions").

- The link token is an itsdangerous signature of {e-mail, nonce}, valid `LINK_MINUTES`, single use (the
  nonce is marked used on first redemption).
- A session is a server-side row; the `regintel_session` cookie carries a signed random token whose SHA-256
  is looked up (HttpOnly, SameSite=Lax, Secure when the request came over https).
- CSRF: double submit. Sign-in also sets a readable `regintel_csrf` cookie; every cookie-authenticated POST
  must send the same value in `X-CSRF-Token`, compared in constant time with the session's own token, and
  when the browser sends `Origin`, it must be the service's own origin.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.engine import Connection

from regintel.api.deps import public_base
from regintel.areas.accounts import queries as q
from regintel.config import Settings
from regintel.errors import Forbidden, RateLimited, Unauthorized, ValidationFailed

SESSION_COOKIE, CSRF_COOKIE, CSRF_HEADER = "regintel_session", "regintel_csrf", "x-csrf-token"
LINK_SALT, SESSION_SALT = "account-login", "account-session"
LINK_MINUTES = 15
SESSION_DAYS = 30
LINKS_PER_HOUR = 5  # magic links sent to one address per hour, whatever the IPs asking


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _invalid(field: str, message: str, reason: str) -> ValidationFailed:
    return ValidationFailed(
        message, details=[{"field": field, "in": "body", "reason": reason, "message": message}]
    )


def mail_base(settings: Settings) -> str:
    """The address in e-mailed links: always REGINTEL_BASE_URL, never the request's `Host` header (a
    request naming another host must not make the service mail someone a link to that host, which would
    hand it the token: docs/security.md, "Links in e-mails")."""
    return settings.base_url.rstrip("/")


def send_link(
    conn: Connection, request: Request, settings: Settings, email: str, purpose: str = "welcome"
) -> None:
    """Queue a sign-in link to `email` (the answer is the same whether or not an account exists)."""
    now = datetime.now(UTC)
    if q.links_since(conn, email, now - timedelta(hours=1)) >= LINKS_PER_HOUR:
        raise RateLimited(
            "Too many sign-in links for this address; try again within the hour",
            headers={"Retry-After": "3600"},
        )
    nonce = secrets.token_urlsafe(24)
    q.insert_link(conn, nonce, email, now)
    token = URLSafeTimedSerializer(settings.secret_key, salt=LINK_SALT).dumps({"e": email, "n": nonce})
    if purpose == "signup":
        link, what, endpoint = (
            f"{mail_base(settings)}/api/v1/public/api-signup?token={token}",
            "create a regintel account and a Free API key",
            "/api/v1/public/api-signup",
        )
    else:
        link, what, endpoint = (
            f"{mail_base(settings)}/account/welcome?token={token}",
            "sign in",
            "/account/welcome",
        )
    body = (
        f"Someone (we hope you) asked to {what} with this address.\n\n"
        f"Open this link within {LINK_MINUTES} minutes:\n{link}\n\n"
        f'Or send this token to POST {endpoint} as {{"token": "..."}}:\n{token}\n\n'
        "If it was not you, ignore this message: nothing happens without the link.\n"
    )
    q.queue_mail(conn, "account_login", email, "Your regintel sign-in link", body, now)


def link_address(settings: Settings, token: str) -> str | None:
    """The address a sign-in link is for, if its signature is good and it has not expired (the link's page
    names it, so a link someone else sent does not sign a browser into their account unnoticed); nothing
    is marked used."""
    try:
        data = URLSafeTimedSerializer(settings.secret_key, salt=LINK_SALT).loads(
            token, max_age=LINK_MINUTES * 60
        )
        return str(data["e"])
    except (BadSignature, KeyError, TypeError, ValueError):
        return None


def redeem_link(conn: Connection, settings: Settings, token: str) -> tuple[int, str]:
    """(account id, session token) for a valid, unused link: the account is created on first sign-in."""
    try:
        data = URLSafeTimedSerializer(settings.secret_key, salt=LINK_SALT).loads(
            token, max_age=LINK_MINUTES * 60
        )
        email, nonce = str(data["e"]), str(data["n"])
    except SignatureExpired:
        raise _invalid("token", "This sign-in link has expired; ask for a new one", "expired") from None
    except (BadSignature, KeyError, TypeError, ValueError):
        raise _invalid("token", "This sign-in link is not valid", "invalid") from None
    now = datetime.now(UTC)
    if not q.use_link(conn, nonce, email, now):
        raise _invalid("token", "This sign-in link was used already; ask for a new one", "used")
    account = q.find_account(conn, email)
    account_id = (
        account["id"] if account is not None else q.insert_account(conn, email, settings.default_plan, now)
    )
    return account_id, start_session(conn, account_id)


def start_session(conn: Connection, account_id: int) -> str:
    """A new session of the account; returns its raw token (the cookie's content, never stored)."""
    now = datetime.now(UTC)
    q.touch_login(conn, account_id, now)
    raw = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(32)
    q.insert_session(conn, account_id, _hash(raw), csrf, now, now + timedelta(days=SESSION_DAYS))
    return raw


def set_cookies(response: Response, request: Request, settings: Settings, raw: str, csrf: str) -> None:
    secure = public_base(request).startswith("https://")
    signed = URLSafeTimedSerializer(settings.secret_key, salt=SESSION_SALT).dumps(raw)
    age = SESSION_DAYS * 86400
    response.set_cookie(
        SESSION_COOKIE, signed, max_age=age, httponly=True, secure=secure, samesite="lax", path="/"
    )
    response.set_cookie(
        CSRF_COOKIE, csrf, max_age=age, httponly=False, secure=secure, samesite="lax", path="/"
    )


def end_session(conn: Connection, response: Response, session: Mapping[str, Any]) -> None:
    """Sign out: the session row goes (so the cookie is worthless even if a copy survives) and both
    cookies are cleared with the attributes they were set with."""
    q.delete_session(conn, int(session["id"]))
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="lax")


def session_csrf(conn: Connection, raw: str) -> str:
    row = q.find_session(conn, _hash(raw))
    assert row is not None
    return str(row["csrf_token"])


def current(conn: Connection, request: Request, settings: Settings, *, write: bool) -> Mapping[str, Any]:
    """The signed-in account of a request (401 without a live session). For a state-changing call
    (`write`), the CSRF token and the origin are checked too (403)."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        raise Unauthorized("Sign in first: POST /account/welcome sends a sign-in link")
    try:
        raw = URLSafeTimedSerializer(settings.secret_key, salt=SESSION_SALT).loads(
            cookie, max_age=SESSION_DAYS * 86400
        )
    except (BadSignature, TypeError):
        raise Unauthorized("The session cookie is not valid; sign in again") from None
    row = q.find_session(conn, _hash(str(raw)))
    if row is None or _aware(row["expires_at"]) <= datetime.now(UTC):
        raise Unauthorized("The session has ended; sign in again")
    if write:
        check_csrf(request, str(row["csrf_token"]))
    return row


def check_csrf(request: Request, expected: str, sent: str | None = None) -> None:
    """The origin, and the token sent in the header (or, from a plain HTML form, in a field: `sent`)."""
    origin = request.headers.get("origin")
    if origin is not None and origin.rstrip("/") != public_base(request):
        raise Forbidden("Cross-origin request refused (the Origin header is not this service's)")
    sent = request.headers.get(CSRF_HEADER, "") if sent is None else sent
    if not sent or not hmac.compare_digest(sent.encode(), expected.encode()):
        raise Forbidden(
            "Missing or wrong CSRF token: send the `regintel_csrf` cookie's value in X-CSRF-Token"
        )
