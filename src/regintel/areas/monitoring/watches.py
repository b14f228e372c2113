"""Public e-mail watches (spec 4.7): double opt-in with signed, expiring tokens (itsdangerous).

Answers never reveal whether an address already watches a company. Unsubscribing by address only
sends a link to that address: nobody can silence someone else's insolvency alerts.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from email_validator import EmailNotValidError, validate_email
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.engine import Connection

from regintel.areas.companies.service import resolve_ico
from regintel.config import Settings
from regintel.db import watches as db
from regintel.errors import ValidationFailed

CONFIRM, UNSUBSCRIBE = "watch-confirm", "watch-unsubscribe"
RESEND_AFTER = timedelta(minutes=10)  # at most one confirmation or link mail per watch in this time


def _invalid(field: str, message: str, reason: str, where: str = "body") -> ValidationFailed:
    return ValidationFailed(
        message, details=[{"field": field, "in": where, "reason": reason, "message": message}]
    )


def make_token(settings: Settings, purpose: str, watch: dict[str, Any] | Any) -> str:
    return URLSafeTimedSerializer(settings.secret_key, salt=purpose).dumps(
        {"w": watch["id"], "e": watch["email"]}
    )


def read_token(settings: Settings, purpose: str, token: str, max_age: int | None) -> tuple[int, str]:
    """(watch id, e-mail) from a token made for `purpose`; 422 when forged, altered or expired."""
    serializer = URLSafeTimedSerializer(settings.secret_key, salt=purpose)
    try:
        data = serializer.loads(token, max_age=max_age)
        return int(data["w"]), str(data["e"])
    except SignatureExpired:
        raise _invalid("token", "This link has expired; ask for a new one", "expired", "query") from None
    except (BadSignature, KeyError, TypeError, ValueError):
        raise _invalid("token", "This link is not valid", "invalid", "query") from None


def normalise_email(value: str) -> str:
    try:
        return validate_email(value, check_deliverability=False).normalized.lower()
    except EmailNotValidError as exc:
        raise _invalid("email", f"Not a valid e-mail address: {exc}", "email") from None


def _throttled(watch: Any, now: datetime) -> bool:
    last = watch["last_mail_at"]
    return (
        last is not None and now - (last.replace(tzinfo=UTC) if last.tzinfo is None else last) < RESEND_AFTER
    )


def request_watch(conn: Connection, email: str, ico: str, country: str | None) -> dict[str, Any]:
    """Start (or restart) a watch and queue its confirmation e-mail."""
    company = resolve_ico(conn, ico, country)
    address = normalise_email(email)
    now = datetime.now(UTC)
    watch = db.find_watch(conn, address, company["id"])
    if watch is None:
        created = {"id": db.insert_watch(conn, address, company["id"], now), "email": address}
        db.queue_mail(conn, "watch_confirm", created, now)
    elif watch["status"] != "confirmed" and not _throttled(watch, now):
        db.set_status(conn, watch["id"], "pending", now)
        db.queue_mail(conn, "watch_confirm", watch, now)
    return {
        "status": "pending_confirmation",
        "ico": company["national_id"],
        "country": company["country"],
        "message": "If this address can receive e-mail, a confirmation link is on its way. The watch starts "
        "when the link is opened.",
    }


def confirm(conn: Connection, token: str, settings: Settings) -> dict[str, Any]:
    watch_id, email = read_token(settings, CONFIRM, token, max_age=settings.watch_confirm_hours * 3600)
    watch = db.get_watch(conn, watch_id)
    if watch is None or watch["email"] != email:
        raise _invalid("token", "This link is not valid", "invalid", "query")
    if watch["status"] != "confirmed":
        db.set_status(conn, watch_id, "confirmed", datetime.now(UTC))
    return {
        "status": "confirmed",
        "ico": watch["national_id"],
        "country": watch["country"],
        "company_name": watch["company_name"],
    }


def unsubscribe_by_token(conn: Connection, token: str, settings: Settings) -> dict[str, Any]:
    watch_id, email = read_token(settings, UNSUBSCRIBE, token, max_age=None)
    watch = db.get_watch(conn, watch_id)
    if watch is None or watch["email"] != email:
        raise _invalid("token", "This link is not valid", "invalid", "query")
    if watch["status"] != "unsubscribed":
        db.set_status(conn, watch_id, "unsubscribed", datetime.now(UTC))
    return {"status": "unsubscribed", "ico": watch["national_id"], "country": watch["country"]}


def request_unsubscribe(conn: Connection, email: str, ico: str, country: str | None) -> dict[str, Any]:
    """Send an unsubscribe link to the address, if it watches the company (never said either way)."""
    company = resolve_ico(conn, ico, country)
    now = datetime.now(UTC)
    watch = db.find_watch(conn, normalise_email(email), company["id"])
    if watch is not None and watch["status"] != "unsubscribed" and not _throttled(watch, now):
        db.queue_mail(conn, "watch_unsubscribe", watch, now)
    return {
        "status": "unsubscribe_link_sent",
        "ico": company["national_id"],
        "country": company["country"],
        "message": "If this address watches the company, an e-mail with an unsubscribe link is on its way.",
    }
