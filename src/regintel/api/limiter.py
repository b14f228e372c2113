"""Rate limits and quotas of spec sections 7 and 8, over the `limits` library's fixed windows.

Three layers, checked in this order:
1. the shared per-IP limiter (about 600/min; keyed calls get the plan limit when higher, public
   operations sent a valid key too) -> 429 RATE_LIMITED *with* Retry-After;
2. the per-key plan limit in a fixed window -> 429 RATE_LIMITED *without* Retry-After (spec 7);
3. the monthly quota, or the fixed budget of a day/week pass -> 429 QUOTA_EXCEEDED with Retry-After
   and the X-Quota-* headers.
Public operations (no key needed) pass the first layer only, with a valid key's allowance when sent one.

The monthly quota of a key that belongs to an account is the account's (spec 7-8: "the monthly request
quota of the plan"): every key and OAuth token of the account counts against one counter, so making
another key gives no more requests. A key made by `regintel keys create` (no account) has its own; a
pass's budget is its key's own (each pass is paid for apart).
"""

from __future__ import annotations

import functools
import math
import time
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from regintel.config import Settings
from regintel.db.counters import SQLiteCounterStorage, WouldWait
from regintel.db.keys import KeyRecord
from regintel.errors import QuotaExceeded, RateLimited


@dataclass(frozen=True)
class Quota:
    """Where a key stands against its monthly quota or pass budget."""

    limit: int
    used: int
    reset_at: int  # Unix seconds: start of next month, or the end of the pass
    scope: str = "key"  # `account`: the account's monthly quota, shared by its keys; `key`: the key's own

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    def headers(self) -> dict[str, str]:
        return {
            "X-Quota-Limit": str(self.limit),
            "X-Quota-Remaining": str(self.remaining),
            "X-Quota-Reset": str(self.reset_at),
        }


def make_storage(settings: Settings) -> Storage:
    kind = settings.rate_limit_storage
    if kind == "auto":
        kind = "redis" if settings.redis_url else "sqlite"
    if kind == "redis":
        if not settings.redis_url:
            raise ValueError("REGINTEL_RATE_LIMIT_STORAGE=redis needs REGINTEL_REDIS_URL")
        return _sync_storage(settings.redis_url)
    if kind == "memory":
        return _sync_storage("memory://")
    return SQLiteCounterStorage(f"regintel+sqlite:///{settings.data_dir / 'counters.db'}")


def _sync_storage(uri: str) -> Storage:
    """The storage of `uri`; the limiter is synchronous, so an `async+…` scheme is refused."""
    storage = storage_from_string(uri)
    if not isinstance(storage, Storage):
        raise ValueError(
            f"{uri.split(':', 1)[0]}: an asynchronous limits storage; the limiter needs a synchronous one"
        )
    return storage


def next_month_start(now: datetime) -> datetime:
    if now.month == 12:
        return datetime(now.year + 1, 1, 1, tzinfo=UTC)
    return datetime(now.year, now.month + 1, 1, tzinfo=UTC)


def account_subject(account_id: int) -> str:
    """Whose monthly counter an account's keys share (`quota/acct:{account id}/{YYYY-MM}`)."""
    return f"acct:{account_id}"


class Limiter:
    """Applies the three layers; raises `RateLimited` / `QuotaExceeded` when a call must not pass."""

    def __init__(self, settings: Settings, storage: Storage | None = None):
        self.settings = settings
        self.storage = storage or make_storage(settings)
        self.windows = FixedWindowRateLimiter(self.storage)
        # Redis answers over the network, so an event loop calls the checks in a thread; the counter file
        # is written inline unless that would wait (`WouldWait`); in-memory counters are always inline.
        self.blocking = not isinstance(self.storage, MemoryStorage)

    def _counting(self, wait: bool) -> AbstractContextManager[None]:
        """The scope of one call's increments: on the counter file one write transaction (a keyed call's
        three increments in one lock round); Redis and memory count each increment atomically."""
        if isinstance(self.storage, SQLiteCounterStorage):
            return self.storage.transaction(wait)
        if not wait and self.blocking:
            raise WouldWait("the counters are on the network")
        return nullcontext()

    def _shared(self, ip: str, amount: int) -> None:
        item = RateLimitItemPerSecond(amount, self.settings.shared_window_seconds, namespace="ip")
        if not self.windows.hit(item, ip):
            reset, _ = self.windows.get_window_stats(item, ip)
            raise RateLimited(
                f"Too many requests from this address: {amount} per {self.settings.shared_window_seconds} s",
                headers={"Retry-After": str(max(1, math.ceil(reset - time.time())))},
            )

    def check_anonymous(self, ip: str, wait: bool = True) -> None:
        """`wait=False`: raise `WouldWait`, having counted nothing, where counting would wait."""
        with self._counting(wait):
            self._shared(ip, self.settings.shared_limit_per_minute)

    def shared_allowance(self, key: KeyRecord) -> int:
        """A keyed call's allowance in the shared per-IP window: the plan's per-minute limit when that is
        higher than the anonymous one."""
        return max(self.settings.shared_limit_per_minute, self.settings.plan(key.plan).rate_per_minute)

    def check_public_keyed(self, key: KeyRecord, ip: str, wait: bool = True) -> None:
        """A public operation sent a valid key: the shared per-IP window with the key's allowance, and
        nothing else (no plan window, no quota: a public operation costs a key nothing).
        `wait=False`: raise `WouldWait`, having counted nothing, where counting would wait."""
        with self._counting(wait):
            self._shared(ip, self.shared_allowance(key))

    def check_key(self, key: KeyRecord, ip: str, wait: bool = True) -> Quota | None:
        """`wait=False`: raise `WouldWait`, having counted nothing, where counting would wait."""
        plan = self.settings.plan(key.plan)
        with self._counting(wait):
            self._shared(ip, self.shared_allowance(key))
            item = RateLimitItemPerSecond(
                plan.rate_per_minute, self.settings.rate_window_seconds, namespace="key"
            )
            if not self.windows.hit(item, str(key.id)):
                # Spec 7: the per-key plan limit answers without Retry-After.
                raise RateLimited(
                    f"Plan limit of {plan.rate_per_minute} requests per "
                    f"{self.settings.rate_window_seconds} s reached"
                )
            quota = self._consume_quota(key)
        if quota is not None and quota.used > quota.limit:
            headers = quota.headers() | {"Retry-After": str(max(1, quota.reset_at - int(time.time())))}
            raise QuotaExceeded(
                "The monthly request quota of this account is used up (its keys and OAuth tokens share it)"
                if quota.scope == "account"
                else "The request quota of this key is used up",
                details={"limit": quota.limit, "reset_at": quota.reset_at, "scope": quota.scope},
                headers=headers,
            )
        return quota

    def _quota_counter(self, key: KeyRecord) -> tuple[str, int, int, str] | None:
        """(counter name, limit, reset time, scope) of the key's quota, None for an unlimited plan."""
        plan = self.settings.plan(key.plan)
        now = datetime.now(UTC)
        if plan.budget is not None:
            end = key.expires_at or next_month_start(now)
            return f"pass/{key.id}", plan.budget, int(end.timestamp()), "key"
        if plan.monthly_quota is None:
            return None
        if key.account_id is not None:
            return _monthly(account_subject(key.account_id), plan.monthly_quota, now) + ("account",)
        return _monthly(str(key.id), plan.monthly_quota, now) + ("key",)

    def _consume_quota(self, key: KeyRecord) -> Quota | None:
        counter = self._quota_counter(key)
        if counter is None:
            return None
        name, limit, reset_at, scope = counter
        # Keep the counter a day past its period so a late reader still sees the final figure.
        used = self.storage.incr(name, max(1, reset_at - int(time.time())) + 86_400)
        return Quota(limit=limit, used=used, reset_at=reset_at, scope=scope)

    def quota(self, key: KeyRecord) -> Quota | None:
        """The key's quota without consuming it."""
        counter = self._quota_counter(key)
        if counter is None:
            return None
        name, limit, reset_at, scope = counter
        return Quota(limit=limit, used=self.storage.get(name), reset_at=reset_at, scope=scope)

    def account_quota(self, account_id: int, plan_name: str) -> Quota | None:
        """The account's monthly quota this month, counted across all its keys and OAuth tokens, without
        consuming it; None when the plan has none (a pass: its budget is its key's; or unlimited)."""
        plan = self.settings.plan(plan_name)
        if plan.budget is not None or plan.monthly_quota is None:
            return None
        name, limit, reset_at = _monthly(account_subject(account_id), plan.monthly_quota, datetime.now(UTC))
        return Quota(limit=limit, used=self.storage.get(name), reset_at=reset_at, scope="account")


def _monthly(subject: str, limit: int, now: datetime) -> tuple[str, int, int]:
    """(counter name, limit, reset time) of a monthly quota: `subject` is a key id or `acct:{account id}`."""
    return _month_counter(subject, limit, now.year, now.month)


@functools.lru_cache(maxsize=4096)
def _month_counter(subject: str, limit: int, year: int, month: int) -> tuple[str, int, int]:
    # Remembered per key and month: formatting the name and the month's end was 2% of a keyed lookup.
    start = datetime(year, month, 1, tzinfo=UTC)
    return f"quota/{subject}/{start:%Y-%m}", limit, int(next_month_start(start).timestamp())
