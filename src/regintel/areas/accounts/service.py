"""Use cases of the account page: keys, watches and the natural-persons addendum of the signed-in account."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.api.limiter import Limiter
from regintel.areas.accounts import queries as q
from regintel.areas.companies.service import resolve_ico
from regintel.areas.people import service as people
from regintel.config import Settings
from regintel.db import watches as watch_db
from regintel.db.keys import create_key
from regintel.errors import Conflict, NotFound, ValidationFailed

FO_ADDENDUM_VERSION = "2026-11"  # the version of the addendum text in docs/accounts.md


def _aware(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def key_out(row: Mapping[str, Any]) -> dict[str, Any]:
    now = datetime.now(UTC)
    expires, revoked = _aware(row["expires_at"]), _aware(row["revoked_at"])
    return {
        "id": row["id"],
        "name": row["name"],
        "plan": row["plan"],
        "prefix": row["prefix"],
        "created_at": _aware(row["created_at"]),
        "expires_at": expires,
        "revoked_at": revoked,
        "last_used_at": _aware(row["last_used_at"]),
        "active": revoked is None and (expires is None or expires > now),
    }


def watch_out(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **{k: row[k] for k in ("id", "status", "country", "national_id", "company_name", "company_status")},
        **{k: _aware(row[k]) for k in ("created_at", "confirmed_at", "unsubscribed_at")},
    }


def addendum_out(row: Mapping[str, Any] | None) -> dict[str, Any]:
    if row is None:
        return {
            "accepted": False,
            "text_version": None,
            "person_name": None,
            "accepted_at": None,
            "revoked_at": None,
        }
    return {
        "accepted": row["revoked_at"] is None,
        "text_version": row["text_version"],
        "person_name": row["person_name"],
        "accepted_at": _aware(row["accepted_at"]),
        "revoked_at": _aware(row["revoked_at"]),
    }


def account_view(
    conn: Connection, session: Mapping[str, Any], providers: list[str], limiter: Limiter | None = None
) -> dict[str, Any]:
    """The account page; with the `limiter`, also where the account stands against its monthly quota."""
    account = q.get_account(conn, session["account_id"])
    assert account is not None
    quota = limiter.account_quota(account["id"], account["plan"]) if limiter is not None else None
    return {
        "id": account["id"],
        "email": account["email"],
        "plan": account["plan"],
        "created_at": _aware(account["created_at"]),
        "last_login_at": _aware(account["last_login_at"]),
        "api_keys": [key_out(k) for k in q.account_keys(conn, account["id"])],
        "watches": [watch_out(w) for w in q.account_watches(conn, account["email"])],
        "fo_addendum": addendum_out(q.current_addendum(conn, account["id"])),
        "identities": [
            {
                "id": r["id"],
                "provider": r["provider"],
                "email": r["email"],
                "created_at": _aware(r["created_at"]),
                "last_login_at": _aware(r["last_login_at"]),
            }
            for r in q.account_identities_of(conn, account["id"])
        ],
        "identity_providers": providers,
        "passes": [pass_out(r) for r in q.account_passes_of(conn, account["id"])],
        "usage": None
        if quota is None
        else {
            "used": min(quota.used, quota.limit),
            "limit": quota.limit,
            "remaining": quota.remaining,
            "resets_at": datetime.fromtimestamp(quota.reset_at, UTC),
        },
    }


# An unused pass must become a key within this many days of its payment (docs/accounts.md, "One-time
# packs"): a pass bought for an event is not meant to wait a year, and an end keeps unclaimed budget from
# piling up on an account. The pass's own validity (1 or 7 days) runs from the key's creation.
PASS_CLAIM_DAYS = 90


class PassExpired(Conflict):
    code: ClassVar[str] = "PASS_EXPIRED"


class PassRefunded(Conflict):
    code: ClassVar[str] = "PASS_REFUNDED"


def _pass_status(row: Mapping[str, Any], now: datetime) -> str:
    if row["refunded_at"] is not None:
        return "refunded"
    if row["claimed_at"] is not None:
        return "claimed"
    return "expired" if _use_by(row) <= now else "unused"


def _use_by(row: Mapping[str, Any]) -> datetime:
    paid = _aware(row["paid_at"])
    assert paid is not None
    return paid + timedelta(days=PASS_CLAIM_DAYS)


def pass_out(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "plan": row["plan"],
        "paid_at": _aware(row["paid_at"]),
        "claimed_at": _aware(row["claimed_at"]),
        "api_key_id": row["api_key_id"],
        "use_by": _use_by(row),
        "refunded_at": _aware(row["refunded_at"]),
        "status": _pass_status(row, datetime.now(UTC)),
    }


def create_account_key(
    conn: Connection, settings: Settings, session: Mapping[str, Any], name: str, pass_id: int | None = None
) -> dict[str, Any]:
    """A key of the account's plan (its calls count against the account's monthly quota, shared by all its
    keys), or of a paid pass (`pass_id`): the pass's plan (so its budget, counted on that key alone by the
    limiter) and a validity of the pass's days from now. A pass becomes one key, once."""
    plan = session["plan"]
    if pass_id is not None:
        paid = q.get_pass(conn, session["account_id"], pass_id)
        if paid is None:
            raise NotFound(f"No pass with id {pass_id} on this account")
        status = _pass_status(paid, datetime.now(UTC))
        if status == "refunded":
            raise PassRefunded(f"Pass {pass_id} was refunded")
        if paid["claimed_at"] is not None:
            raise Conflict(f"Pass {pass_id} is already key {paid['api_key_id']}")
        if status == "expired":
            raise PassExpired(
                f"Pass {pass_id} was not used within {PASS_CLAIM_DAYS} days of its payment "
                f"(by {_use_by(paid).date().isoformat()})"
            )
        plan = str(paid["plan"])
    record, raw = create_key(
        conn, name.strip() or "key", plan, duration_days=settings.plan(plan).duration_days
    )
    q.link_key(conn, record.id, session["account_id"])
    if pass_id is not None and not q.claim_pass(
        conn, session["account_id"], pass_id, record.id, datetime.now(UTC)
    ):
        raise Conflict(f"Pass {pass_id} was used at the same moment by another request")  # rolled back
    row = q.account_key(conn, session["account_id"], record.id)
    assert row is not None
    return {**key_out(row), "key": raw}


def _owned(conn: Connection, session: Mapping[str, Any], key_id: int) -> Mapping[str, Any]:
    row = q.account_key(conn, session["account_id"], key_id)
    if row is None:
        raise NotFound(f"No API key with id {key_id} on this account")
    return row


def rename_key(conn: Connection, session: Mapping[str, Any], key_id: int, name: str) -> dict[str, Any]:
    _owned(conn, session, key_id)
    if not name.strip():
        raise ValidationFailed(
            "The name is empty", details=[{"field": "name", "in": "body", "reason": "empty"}]
        )
    q.update_key(conn, key_id, name=name.strip())
    return key_out(_owned(conn, session, key_id))


def renew_key(
    conn: Connection, settings: Settings, session: Mapping[str, Any], key_id: int
) -> dict[str, Any]:
    """A new validity period from now for a key of a plan with one (passes); a revoked key stays revoked."""
    row = _owned(conn, session, key_id)
    if row["revoked_at"] is not None:
        raise Conflict("A revoked key cannot be renewed; create a new one")
    if q.key_is_paid_pass(conn, key_id):
        raise Conflict("A paid pass is not renewed: buy another pass (POST /account/billing, kind=pack)")
    days = settings.plan(row["plan"]).duration_days
    q.update_key(conn, key_id, expires_at=datetime.now(UTC) + timedelta(days=days) if days else None)
    return key_out(_owned(conn, session, key_id))


def revoke_key(conn: Connection, session: Mapping[str, Any], key_id: int) -> dict[str, Any]:
    row = _owned(conn, session, key_id)
    if row["revoked_at"] is None:
        q.update_key(conn, key_id, revoked_at=datetime.now(UTC))
    return key_out(_owned(conn, session, key_id))


def add_watch(conn: Connection, session: Mapping[str, Any], ico: str, country: str | None) -> dict[str, Any]:
    """A watch for the account's own (already confirmed) address: confirmed at once, no opt-in mail."""
    company = resolve_ico(conn, ico, country)
    now = datetime.now(UTC)
    watch = watch_db.find_watch(conn, session["email"], company["id"])
    watch_id = (
        watch["id"]
        if watch is not None
        else watch_db.insert_watch(conn, session["email"], company["id"], now)
    )
    if watch is None or watch["status"] != "confirmed":
        watch_db.set_status(conn, watch_id, "confirmed", now)
    return watch_out(_watch(conn, session, watch_id))


def _watch(conn: Connection, session: Mapping[str, Any], watch_id: int) -> Mapping[str, Any]:
    row = q.account_watch(conn, session["email"], watch_id)
    if row is None:
        raise NotFound(f"No watch with id {watch_id} on this account")
    return row


def unsubscribe_watch(conn: Connection, session: Mapping[str, Any], watch_id: int) -> dict[str, Any]:
    row = _watch(conn, session, watch_id)
    if row["status"] != "unsubscribed":
        watch_db.set_status(conn, watch_id, "unsubscribed", datetime.now(UTC))
    return watch_out(_watch(conn, session, watch_id))


def unwatch(conn: Connection, session: Mapping[str, Any], watch_id: int) -> dict[str, Any]:
    row = watch_out(_watch(conn, session, watch_id))
    q.delete_watch(conn, watch_id)
    return {**row, "status": "deleted"}


def watch_state(conn: Connection, session: Mapping[str, Any]) -> dict[str, Any]:
    items = [watch_out(w) for w in q.account_watches(conn, session["email"])]
    count = {s: sum(1 for w in items if w["status"] == s) for s in ("confirmed", "unsubscribed", "pending")}
    return {"total": len(items), **count, "items": items}


def accept_addendum(
    conn: Connection, session: Mapping[str, Any], text_version: str, person: str, accept: bool
) -> dict[str, Any]:
    if not accept:
        raise ValidationFailed(
            "`accept` must be true", details=[{"field": "accept", "in": "body", "reason": "must_accept"}]
        )
    if text_version != FO_ADDENDUM_VERSION:
        raise ValidationFailed(
            f"The current addendum text is version {FO_ADDENDUM_VERSION}",
            details=[
                {
                    "field": "text_version",
                    "in": "body",
                    "reason": "not_current",
                    "current": FO_ADDENDUM_VERSION,
                }
            ],
        )
    if not person.strip():
        raise ValidationFailed(
            "Name the person accepting", details=[{"field": "person_name", "in": "body", "reason": "empty"}]
        )
    now = datetime.now(UTC)
    q.revoke_addenda(conn, session["account_id"], now)  # one live acceptance: the newest
    q.insert_addendum(conn, session["account_id"], text_version, person.strip(), now)
    forget_addenda()
    return addendum_out(q.current_addendum(conn, session["account_id"]))


def revoke_addendum(conn: Connection, session: Mapping[str, Any]) -> dict[str, Any]:
    q.revoke_addenda(conn, session["account_id"], datetime.now(UTC))
    forget_addenda()
    return addendum_out(None)


_ADDENDUM_TTL = 2.0  # seconds: as the key cache, a revocation reaches every process within this time
_addendum_cache: dict[tuple[int, int], tuple[float, bool]] = {}


def key_has_addendum(engine: Engine, key_id: int) -> bool:
    """The natural-persons gate's waiver (areas/people/service.py): one indexed read on the primary,
    remembered for `_ADDENDUM_TTL` seconds per (engine, key)."""
    slot = (id(engine), key_id)
    hit = _addendum_cache.get(slot)
    if hit is not None and hit[0] > time.monotonic():
        return hit[1]
    with engine.connect() as conn:
        answer = q.key_has_addendum(conn, key_id)
    if len(_addendum_cache) > 10_000:
        _addendum_cache.clear()
    _addendum_cache[slot] = (time.monotonic() + _ADDENDUM_TTL, answer)
    return answer


def forget_addenda() -> None:
    """Drop the remembered answers (after an accept or revoke in this process)."""
    _addendum_cache.clear()


people.ADDENDUM_LOOKUP = key_has_addendum
