"""API keys: created once, shown once, stored only as SHA-256 hashes (DESIGN.md section 3)."""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, column, select, table, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import Id, api_keys
from regintel.errors import NotFound

KEY_PREFIX = "ri_"


@dataclass(frozen=True)
class KeyRecord:
    id: int
    name: str
    plan: str
    prefix: str
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    # The account the key belongs to (None for a key made by `regintel keys create`): the monthly quota of a
    # key with an account is the account's, shared by all its keys and OAuth tokens (api/limiter.py).
    account_id: int | None = None

    def is_active(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)


def hash_key(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def make_raw_key() -> str:
    """`ri_` + 40 url-safe random characters."""
    return KEY_PREFIX + secrets.token_urlsafe(30)[:40]


def _utc(value: datetime) -> datetime:
    # SQLite returns naive datetimes; everything we store is UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _aware(value: datetime | None) -> datetime | None:
    return _utc(value) if value is not None else None


def _record(m: RowMapping) -> KeyRecord:
    return KeyRecord(
        id=m["id"],
        name=m["name"],
        plan=m["plan"],
        prefix=m["prefix"],
        created_at=_utc(m["created_at"]),
        expires_at=_aware(m["expires_at"]),
        revoked_at=_aware(m["revoked_at"]),
        account_id=m["account_id"],
    )


def create_key(
    conn: Connection,
    name: str,
    plan: str,
    *,
    duration_days: int | None = None,
    expires_at: datetime | None = None,
) -> tuple[KeyRecord, str]:
    """Create a key; returns the record and the raw key, which is never stored."""
    raw = make_raw_key()
    now = datetime.now(UTC)
    if expires_at is None and duration_days:
        expires_at = now + timedelta(days=duration_days)
    key_id = conn.execute(
        api_keys.insert()
        .values(
            name=name,
            plan=plan,
            key_hash=hash_key(raw),
            prefix=raw[:8],
            created_at=now,
            expires_at=expires_at,
        )
        .returning(api_keys.c.id)
    ).scalar_one()
    return get_key(conn, key_id), raw


# The accounts area's link of a key to its owner (areas/accounts/tables.py, migration 0013_accounts), named
# here rather than imported because db/ imports no area: the key's account comes with the key in the same
# read (its primary key, so at most one row), and the link stays the one record of who owns a key. A test of
# the accounts area checks that these names are its table's (tests/areas_accounts/test_account_quota.py).
_owners = table("account_api_keys", column("api_key_id", Id), column("account_id", Id))


_KEYS = select(
    api_keys.c.id,
    api_keys.c.name,
    api_keys.c.plan,
    api_keys.c.prefix,
    api_keys.c.created_at,
    api_keys.c.expires_at,
    api_keys.c.revoked_at,
    _owners.c.account_id,
).select_from(api_keys.outerjoin(_owners, _owners.c.api_key_id == api_keys.c.id))


def get_key(conn: Connection, key_id: int) -> KeyRecord:
    row = conn.execute(_KEYS.where(api_keys.c.id == key_id)).first()
    if row is None:
        raise NotFound(f"No API key with id {key_id}")
    return _record(row._mapping)


def find_key_by_raw(conn: Connection, raw: str) -> KeyRecord | None:
    row = conn.execute(_KEYS.where(api_keys.c.key_hash == hash_key(raw))).first()
    return _record(row._mapping) if row is not None else None


def list_keys(conn: Connection) -> list[KeyRecord]:
    return [_record(r._mapping) for r in conn.execute(_KEYS.order_by(api_keys.c.id))]


def revoke_key(conn: Connection, key_id: int) -> KeyRecord:
    key = get_key(conn, key_id)
    if key.revoked_at is None:
        conn.execute(update(api_keys).where(api_keys.c.id == key_id).values(revoked_at=datetime.now(UTC)))
    return get_key(conn, key_id)


class KeyCache:
    """Key lookups of the last few seconds, so a busy key costs no query per request.

    A revoked key keeps working for at most `ttl` seconds in a process that saw it just before
    (documented in docs/api.md); unknown keys are cached too, so guessing costs no queries either.
    """

    def __init__(self, ttl: float = 2.0, max_size: int = 10_000):
        self.ttl = ttl
        self.max_size = max_size
        self._entries: dict[str, tuple[float, KeyRecord | None]] = {}

    def peek(self, raw: str) -> tuple[bool, KeyRecord | None]:
        """(True, the key or None when unknown) when remembered and fresh, else (False, None): no I/O."""
        hit = self._entries.get(hash_key(raw))
        if hit is not None and hit[0] > time.monotonic():
            return True, hit[1]
        return False, None

    def load(self, raw: str, conn: Connection) -> KeyRecord | None:
        """Read the key on `conn` (blocking: call it off the event loop) and remember the answer."""
        digest = hash_key(raw)
        row = conn.execute(_KEYS.where(api_keys.c.key_hash == digest)).first()
        key = _record(row._mapping) if row is not None else None
        if len(self._entries) >= self.max_size:
            self._entries.clear()
        self._entries[digest] = (time.monotonic() + self.ttl, key)
        return key

    def get(self, raw: str, engine: Engine) -> KeyRecord | None:
        """`peek`, else `load` on a connection of its own (for callers outside a request)."""
        known, key = self.peek(raw)
        if known:
            return key
        with engine.connect() as conn:
            return self.load(raw, conn)
