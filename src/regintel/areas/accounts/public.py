"""Public forms (spec 4.7): lead capture, newsletter intent, API signup, and data-protection requests.

Everything that sends e-mail is double opt-in: the first call records the request and mails a signed,
expiring link (itsdangerous); the same endpoint, called with that `token`, confirms it. Answers never
say whether an address is known. Nothing here deletes register data (docs/accounts.md, "Privacy").
"""

from __future__ import annotations

import calendar
import json
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, overload

from fastapi import Request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy.engine import Connection

from regintel.areas.accounts import queries as q
from regintel.areas.accounts import service
from regintel.areas.accounts.sessions import mail_base
from regintel.config import Settings
from regintel.errors import ValidationFailed

LINK_HOURS = 72
RESEND_AFTER = timedelta(minutes=10)
PENDING = {
    "status": "pending_confirmation",
    "message": "If this address can receive e-mail, a confirmation "
    "link is on its way; nothing is recorded as confirmed until it is opened.",
}


def _invalid(field: str, message: str, reason: str) -> ValidationFailed:
    return ValidationFailed(
        message, details=[{"field": field, "in": "body", "reason": reason, "message": message}]
    )


@overload
def _aware(value: datetime) -> datetime: ...
@overload
def _aware(value: datetime | None) -> datetime | None: ...
def _aware(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def _sign(settings: Settings, salt: str, data: dict[str, Any]) -> str:
    return URLSafeTimedSerializer(settings.secret_key, salt=salt).dumps(data)


def _read(settings: Settings, salt: str, token: str) -> dict[str, Any]:
    try:
        data = URLSafeTimedSerializer(settings.secret_key, salt=salt).loads(token, max_age=LINK_HOURS * 3600)
        if not isinstance(data, dict):
            raise TypeError
        return data
    except SignatureExpired:
        raise _invalid("token", "This link has expired; send the form again", "expired") from None
    except (BadSignature, TypeError, ValueError):
        raise _invalid("token", "This link is not valid", "invalid") from None


# --- leads and newsletter ----------------------------------------------------------------------------


def request_lead(
    conn: Connection,
    request: Request,
    settings: Settings,
    kind: str,
    email: str,
    use_case: str | None,
    source: str | None,
) -> dict[str, Any]:
    now = datetime.now(UTC)
    answer = PENDING
    if q.is_suppressed(conn, email):
        return answer  # the address erased or objected: no mail, same answer
    lead = q.find_lead(conn, kind, email)
    if lead is None:
        lead_id = q.insert_lead(
            conn, kind=kind, email=email, use_case=use_case, source=source, status="pending", created_at=now
        )
    else:
        lead_id = lead["id"]
        last = _aware(lead["last_mail_at"])
        if lead["status"] == "confirmed" or (last is not None and now - last < RESEND_AFTER):
            return answer
        q.update_lead(conn, lead_id, use_case=use_case, source=source, status="pending")
    token = _sign(settings, f"{kind}-confirm", {"l": lead_id, "e": email})
    path = "/api/v1/public/signup" if kind == "lead" else "/api/v1/public/newsletter-intent"
    what = "hear from us about regintel" if kind == "lead" else "receive the regintel newsletter"
    body = (
        f"Someone (we hope you) asked to {what} at this address.\n\nTo confirm, open this link:\n"
        f"{mail_base(settings)}{path}?token={token}\n\n"
        f'Or POST the token to {mail_base(settings)}{path} as {{"token": "..."}}:\n{token}\n\n'
        f"The link is valid {LINK_HOURS} hours. If it was not you, ignore this message.\n"
    )
    q.queue_mail(conn, f"{kind}_confirm", email, "Please confirm your e-mail address", body, now)
    q.update_lead(conn, lead_id, last_mail_at=now)
    return answer


def confirm_lead(conn: Connection, settings: Settings, kind: str, token: str) -> dict[str, Any]:
    data = _read(settings, f"{kind}-confirm", token)
    lead = q.find_lead(conn, kind, str(data.get("e")))
    if lead is None or lead["id"] != data.get("l") or lead["status"] == "suppressed":
        raise _invalid("token", "This link is not valid", "invalid")
    if lead["status"] != "confirmed":
        q.update_lead(conn, lead["id"], status="confirmed", confirmed_at=datetime.now(UTC))
    return {"status": "confirmed", "message": "Thank you: your address is confirmed."}


def signup_stats(conn: Connection) -> dict[str, Any]:
    total, recent = q.lead_counts(conn, datetime.now(UTC) - timedelta(days=30))
    return {"total": total, "last30d": recent}


# --- privacy requests --------------------------------------------------------------------------------


def request_privacy(
    conn: Connection,
    request: Request,
    settings: Settings,
    kind: str,
    email: str,
    details: str | None,
    person_name: str | None = None,
    person_keys: list[str] | None = None,
) -> dict[str, Any]:
    now = datetime.now(UTC)
    recent = [
        r
        for r in q.requests_of(conn, email)
        if r["kind"] == kind and now - _aware(r["created_at"]) < RESEND_AFTER
    ]
    if not recent:
        keys = sorted({k.removeprefix("p:") for k in person_keys or []})
        request_id = q.insert_request(
            conn,
            kind=kind,
            email=email,
            details=details,
            status="unverified",
            created_at=now,
            person_name=person_name.strip() if person_name else None,
            person_keys=json.dumps(keys) if keys else None,
        )
        token = _sign(settings, "privacy-verify", {"r": request_id, "e": email})
        body = (
            f"We received a data-protection request ({kind}) for this address.\n\n"
            "To confirm that it is yours, open this link:\n"
            f"{mail_base(settings)}/api/v1/privacy/{kind}?token={token}\n\n"
            f'Or POST the token to {mail_base(settings)}/api/v1/privacy/{kind} as {{"token": "..."}}:\n'
            f"{token}\n\nThe link is valid {LINK_HOURS} hours. If you did not ask, ignore this message: "
            "nothing happens without it.\n"
        )
        q.queue_mail(
            conn, "privacy_verify", email, f"Confirm your data-protection request ({kind})", body, now
        )
    return {
        "status": "verification_sent",
        "kind": kind,
        "message": "The request is recorded. If this address can "
        "receive e-mail, a link to confirm it is on its way; it is acted on once confirmed.",
    }


def one_month_after(moment: datetime) -> datetime:
    """The deadline of GDPR art. 12(3), "within one month", counted as Regulation 1182/71 art. 3(2)(c)
    counts months: the same date of the next month, or its last day when it has no such date (verified on
    31 January, due on 28 February: 30 days ran past the deadline in February and a day short of it in the
    months of 31 days)."""
    year, month = moment.year + moment.month // 12, moment.month % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def verify_privacy(conn: Connection, settings: Settings, kind: str, token: str) -> dict[str, Any]:
    data = _read(settings, "privacy-verify", token)
    row = q.get_request(conn, int(data.get("r") or 0))
    if row is None or row["email"] != data.get("e") or row["kind"] != kind:
        raise _invalid("token", "This link is not valid", "invalid")
    now = datetime.now(UTC)
    email = row["email"]
    out: dict[str, Any] = {"request_id": row["id"], "kind": kind}
    if row["status"] == "unverified":
        q.update_request(conn, row["id"], status="verified", verified_at=now, due_at=one_month_after(now))
    if kind == "access":
        out["export"] = export(conn, email)
        outcome = "export given on verification"
    elif kind == "erase":
        q.suppress(conn, email, "erase", row["id"], now)
        out["removed_leads"] = q.delete_leads(conn, email)
        out["ended_watches"] = q.end_watches(conn, email, now)
        q.drop_pending_mail(conn, email, now)
        outcome = "address suppressed, leads deleted, watches ended; account left for the operator"
    elif kind == "object":
        q.suppress(conn, email, "object", row["id"], now)
        out["suppressed_leads"] = q.suppress_leads(conn, email)
        out["ended_watches"] = q.end_watches(conn, email, now)
        q.drop_pending_mail(conn, email, now)
        outcome = "address suppressed, leads and watches stopped"
    else:
        outcome = "recorded for the operator to answer"
    # Register records the requester says are them: the operator matches them to the verified person
    # (`regintel privacy show|answer`) before anything is withheld, so nobody can suppress another's record.
    names_people = kind in ("erase", "object") and bool(row["person_name"] or row["person_keys"])
    if names_people:
        outcome += "; the register records named are matched and withheld by the operator by due_at"
    done = kind not in ("rectify",) and not names_people
    q.update_request(
        conn, row["id"], status="done" if done else "verified", done_at=now if done else None, outcome=outcome
    )
    current = q.get_request(conn, row["id"])
    assert current is not None
    out.update(status=current["status"], outcome=outcome, due_at=_aware(current["due_at"]))
    return out


def export(conn: Connection, email: str) -> dict[str, Any]:
    """What the service holds about an address: its account, keys' metadata, watches, form entries and
    privacy requests (register data is not keyed by e-mail: see docs/accounts.md)."""
    account = q.find_account(conn, email)
    out: dict[str, Any] = {"email": email, "account": None, "api_keys": [], "watches": []}
    if account is not None:
        session = {"account_id": account["id"], "email": email}
        view = service.account_view(conn, session, [])
        out.update(
            account={k: view[k] for k in ("id", "email", "plan", "created_at", "last_login_at")},
            api_keys=view["api_keys"],
            watches=view["watches"],
            fo_addendum=view["fo_addendum"],
            identities=view["identities"],
        )
    else:
        out["watches"] = [service.watch_out(w) for w in q.account_watches(conn, email)]
    out["signups"] = [
        {k: _aware(v) if isinstance(v, datetime) else v for k, v in r.items() if k != "id"}
        for r in q.leads_of(conn, email)
    ]
    out["privacy_requests"] = [_req_out(r) for r in q.requests_of(conn, email)]
    return out


def _req_out(row: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _aware(v) if isinstance(v, datetime) else v for k, v in row.items()}
