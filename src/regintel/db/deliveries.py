"""The webhook outbox: claiming due deliveries, recording every attempt, pausing failing subscriptions.

Claims are leases: a claimed delivery is `delivering` until `lease_until`; a worker that dies (even
by SIGKILL) leaves it to be claimed again after the lease, so every delivery is attempted at least
once more. On PostgreSQL the claim takes the rows `FOR UPDATE SKIP LOCKED`, so any number of workers
can run; SQLite serialises writers and ignores the clause, and there one worker is the supported setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, bindparam, desc, exists, func, or_, select, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import deliveries, delivery_attempts, subscriptions
from regintel.domain.monitoring import retry_delay

IN_QUEUE = ("pending", "delivering")


@dataclass(frozen=True)
class Outcome:
    """What one attempt of one claimed delivery gave."""

    delivery_id: int
    subscription_id: int
    attempts: int  # attempts before this one
    ok: bool
    status_code: int | None
    error: str | None
    duration_ms: int
    attempted_at: datetime


def claim_deliveries(
    conn: Connection, worker: str, limit: int, now: datetime, lease: timedelta
) -> list[RowMapping]:
    """Claim up to `limit` due deliveries of active subscriptions, each the earliest of its
    subscription still queued (per-subscription order by detection time), with what is needed to send."""
    d, earlier = deliveries, deliveries.alias("earlier")
    due = or_(
        and_(d.c.status == "pending", d.c.next_attempt_at <= now),
        and_(d.c.status == "delivering", d.c.lease_until < now),
    )
    blocked = exists().where(
        earlier.c.subscription_id == d.c.subscription_id,
        earlier.c.status.in_(IN_QUEUE),
        or_(
            earlier.c.detected_at < d.c.detected_at,
            and_(earlier.c.detected_at == d.c.detected_at, earlier.c.id < d.c.id),
        ),
    )
    active = select(subscriptions.c.id).where(subscriptions.c.status == "active")
    chosen = (
        select(d.c.id)
        .where(due, ~blocked, d.c.subscription_id.in_(active))
        .order_by(d.c.next_attempt_at, d.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True, of=d)
    )
    claimed = (
        conn.execute(
            update(d)
            .where(d.c.id.in_(chosen.scalar_subquery()))
            .values(status="delivering", lease_until=now + lease, claimed_by=worker)
            .returning(d.c.id)
        )
        .scalars()
        .all()
    )
    if not claimed:
        return []
    query = (
        select(
            d.c.id,
            d.c.message_id,
            d.c.subscription_id,
            d.c.body,
            d.c.attempts,
            d.c.detected_at,
            subscriptions.c.url,
            subscriptions.c.secret,
            subscriptions.c.previous_secret,
            subscriptions.c.previous_secret_until,
        )
        .join(subscriptions, subscriptions.c.id == d.c.subscription_id)
        .where(d.c.id.in_(list(claimed)))
        .order_by(d.c.id)
    )
    return list(conn.execute(query).mappings())


def record_outcomes(
    conn: Connection, outcomes: Sequence[Outcome], worker: str, schedule: Sequence[float], now: datetime
) -> int:
    """Store each attempt, move each delivery on (succeeded, retry later or failed) and keep the
    subscription's figures; a delivery out of retries pauses its subscription. Returns pauses.
    A delivery this worker no longer holds (lease expired and taken over, or cancelled) is left alone."""
    if not outcomes:
        return 0
    conn.execute(
        delivery_attempts.insert(),
        [
            {
                "delivery_id": o.delivery_id,
                "attempt": o.attempts + 1,
                "attempted_at": o.attempted_at,
                "status_code": o.status_code,
                "error": o.error,
                "duration_ms": o.duration_ms,
                "worker": worker,
            }
            for o in outcomes
        ],
    )
    d, s = deliveries.c, subscriptions.c
    mine = and_(d.id == bindparam("b_id"), d.status == "delivering", d.claimed_by == worker)
    common: dict[str, Any] = {
        "attempts": bindparam("b_attempts"),
        "lease_until": None,
        "last_status_code": bindparam("b_code"),
    }
    ok = [o for o in outcomes if o.ok]
    if ok:
        conn.execute(
            update(deliveries)
            .where(mine)
            .values(status="succeeded", delivered_at=bindparam("b_at"), last_error=None, **common),
            [_params(o) for o in ok],
        )
        conn.execute(
            update(subscriptions)
            .where(s.id == bindparam("b_sub"))
            .values(
                last_delivery_at=bindparam("b_at"),
                last_status=bindparam("b_code"),
                last_error=None,
                consecutive_failures=0,
                total_deliveries=s.total_deliveries + 1,
            ),
            [_params(o) for o in ok],
        )
    failed = [o for o in outcomes if not o.ok]
    if not failed:
        return 0
    retries = [(o, retry_delay(o.attempts + 1, schedule)) for o in failed]
    conn.execute(
        update(deliveries)
        .where(mine)
        .values(
            status=bindparam("b_status"),
            next_attempt_at=bindparam("b_next"),
            last_error=bindparam("b_error"),
            **common,
        ),
        [
            _params(o)
            | {
                "b_status": "pending" if delay else "failed",
                "b_next": now + delay if delay else o.attempted_at,
            }
            for o, delay in retries
        ],
    )
    conn.execute(
        update(subscriptions)
        .where(s.id == bindparam("b_sub"))
        .values(
            last_delivery_at=bindparam("b_at"),
            last_status=bindparam("b_code"),
            last_error=bindparam("b_error"),
            consecutive_failures=s.consecutive_failures + 1,
            total_failures=s.total_failures + 1,
        ),
        [_params(o) for o in failed],
    )
    return sum(_pause(conn, o, now) for o, delay in retries if delay is None)


def _params(o: Outcome) -> dict[str, Any]:
    return {
        "b_id": o.delivery_id,
        "b_sub": o.subscription_id,
        "b_attempts": o.attempts + 1,
        "b_at": o.attempted_at,
        "b_code": o.status_code,
        "b_error": o.error,
    }


def _pause(conn: Connection, o: Outcome, now: datetime) -> int:
    """Pause (never drop) the subscription of a delivery that exhausted its retries."""
    s = subscriptions.c
    reason = f"delivery {o.delivery_id} failed {o.attempts + 1} times; last error: {o.error or o.status_code}"
    result = conn.execute(
        update(subscriptions)
        .where(s.id == o.subscription_id, s.status == "active")
        .values(status="paused", paused_at=now, pause_reason=reason[:500], updated_at=now)
    )
    return int(result.rowcount)


def list_deliveries(
    conn: Connection, sub_id: int, *, before_id: int | None, limit: int, status: str | None = None
) -> list[dict[str, Any]]:
    """A subscription's deliveries, newest first, each with its attempts."""
    query = select(deliveries).where(deliveries.c.subscription_id == sub_id)
    if before_id is not None:
        query = query.where(deliveries.c.id < before_id)
    if status:
        query = query.where(deliveries.c.status == status)
    rows = [dict(r) for r in conn.execute(query.order_by(desc(deliveries.c.id)).limit(limit)).mappings()]
    attempts: dict[int, list[dict[str, Any]]] = {r["id"]: [] for r in rows}
    if rows:
        for a in conn.execute(
            select(delivery_attempts)
            .where(delivery_attempts.c.delivery_id.in_(list(attempts)))
            .order_by(delivery_attempts.c.id)
        ).mappings():
            attempts[a["delivery_id"]].append(dict(a))
    return [r | {"attempt_log": attempts[r["id"]]} for r in rows]


def count_queued(conn: Connection, sub_id: int) -> int:
    return int(
        conn.execute(
            select(func.count()).where(
                deliveries.c.subscription_id == sub_id, deliveries.c.status.in_(IN_QUEUE)
            )
        ).scalar_one()
    )
