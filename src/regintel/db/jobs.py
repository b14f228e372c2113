"""The jobs table's SQL: queue in the caller's transaction, claim with leases, record outcomes.

Claims take `FOR UPDATE SKIP LOCKED` on PostgreSQL, so any number of workers can drain the table; on
SQLite the claim runs in a `BEGIN IMMEDIATE` transaction (one writer at a time). A running job whose
lease ran out (its worker died) is claimed again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, or_, select, text, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.engine import insert_for, is_sqlite
from regintel.db.schema import jobs

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
# Kinds the loader queues itself (it may not import the areas that run them).
REFRESH_PEERS = "scores.refresh_peers"
# Re-resolving the records stored without a company, once a company import wrote companies
# (docs/public-money.md, docs/funds.md, docs/legal-records.md, "Relinking").
RELINK_PUBLIC_MONEY, RELINK_FUNDS, RELINK_LEGAL = (
    "public_money.relink",
    "funds.relink",
    "legal_records.relink",
)
RELINK_KINDS = (RELINK_PUBLIC_MONEY, RELINK_FUNDS, RELINK_LEGAL)
# Bringing the search index up to what the database holds (jobs/search_index.py, docs/search.md).
SEARCH_INDEX = "search.index"
# Screening the companies an import added or renamed (areas/screening/jobs.py, docs/screening.md), and the
# change rows that call for it: the company's name and identifiers and its officers' names are what is
# screened, so any other change leaves its screening as good as it was.
SCREEN_CHANGED = "screening.changed_companies"
SCREENED_FIELDS = frozenset({"created", "name", "lei", "vat_id", "roles"})


def enqueue(
    conn: Connection,
    kind: str,
    payload: Mapping[str, Any],
    *,
    now: datetime,
    dedupe_key: str | None = None,
    run_after: datetime | None = None,
    priority: int = 100,
    max_attempts: int = 5,
    owner_key_id: int | None = None,
) -> int | None:
    """Queue a job in the caller's transaction. Returns its id, or None when a queued job with the
    same `dedupe_key` is already waiting (that one will do the work)."""
    row = {
        "kind": kind,
        "payload": dict(payload),
        "dedupe_key": dedupe_key,
        "owner_key_id": owner_key_id,
        "status": QUEUED,
        "priority": priority,
        "attempts": 0,
        "max_attempts": max_attempts,
        "run_after": run_after or now,
        "created_at": now,
    }
    stmt = insert_for(conn, jobs).values(row)
    if dedupe_key is not None:
        # The predicate as a literal: with a bound parameter PostgreSQL's generic plan (from the 11th
        # execution on one connection) cannot match the partial index and the insert fails.
        stmt = stmt.on_conflict_do_nothing(
            index_elements=["dedupe_key"], index_where=text(f"status = '{QUEUED}'")
        )
    found = conn.execute(stmt.returning(jobs.c.id)).first()
    return None if found is None else int(found[0])


def claim(
    conn: Connection,
    worker_id: str,
    limit: int,
    now: datetime,
    lease: timedelta,
    kinds: Sequence[str] | None = None,
) -> list[RowMapping]:
    """Mark up to `limit` due jobs as running for `worker_id` and return them (highest priority,
    then oldest, first)."""
    due = or_(
        and_(jobs.c.status == QUEUED, jobs.c.run_after <= now),
        and_(jobs.c.status == RUNNING, jobs.c.lease_until < now),
    )
    pick = select(jobs.c.id).where(due).order_by(jobs.c.priority, jobs.c.id).limit(limit)
    if kinds is not None:
        pick = pick.where(jobs.c.kind.in_(list(kinds)))
    if not is_sqlite(conn):
        pick = pick.with_for_update(skip_locked=True)
    stmt = (
        update(jobs)
        .where(jobs.c.id.in_(pick.scalar_subquery()))
        .values(
            status=RUNNING,
            worker_id=worker_id,
            lease_until=now + lease,
            attempts=jobs.c.attempts + 1,
            started_at=now,
        )
        .returning(*jobs.c)
    )
    return sorted((r._mapping for r in conn.execute(stmt)), key=lambda r: (r["priority"], r["id"]))


def finish(
    conn: Connection, job_id: int, worker_id: str, now: datetime, result: Mapping[str, Any] | None
) -> None:
    conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.worker_id == worker_id)
        .values(
            status=DONE,
            result=None if result is None else dict(result),
            finished_at=now,
            lease_until=None,
            last_error=None,
        )
    )


def fail(
    conn: Connection, job_id: int, worker_id: str, now: datetime, error: str, retry_at: datetime | None
) -> None:
    """Record a failed attempt: queued again at `retry_at`, or failed for good when it is None."""
    values: dict[str, Any] = {"last_error": error[:4000], "lease_until": None}
    if retry_at is None:
        values |= {"status": FAILED, "finished_at": now}
    else:
        values |= {"status": QUEUED, "run_after": retry_at}
    conn.execute(update(jobs).where(jobs.c.id == job_id, jobs.c.worker_id == worker_id).values(**values))


def get(conn: Connection, job_id: int) -> RowMapping | None:
    row = conn.execute(select(jobs).where(jobs.c.id == job_id)).first()
    return None if row is None else row._mapping


def counts(conn: Connection) -> dict[str, int]:
    """Jobs per status (for `/metrics` and the status page)."""
    from sqlalchemy import func

    rows = conn.execute(select(jobs.c.status, func.count()).group_by(jobs.c.status))
    return {status: int(n) for status, n in rows}


def enqueue_peer_refresh(conn: Connection, now: datetime) -> int | None:
    """Queue the peer benchmarks' refresh in the caller's transaction (an import that changed statements);
    a refresh already waiting absorbs the request (None)."""
    return enqueue(conn, REFRESH_PEERS, {}, now=now, dedupe_key=REFRESH_PEERS, priority=200, max_attempts=3)


def enqueue_relink(conn: Connection, now: datetime, country: str | None) -> list[int]:
    """Queue the relink of each area holding linked records, for `country` (None: all countries), in the
    caller's transaction; a relink already waiting for the same country absorbs the request."""
    payload = {"country": country} if country else {}
    queued = [
        enqueue(
            conn, kind, payload, now=now, dedupe_key=f"{kind}:{country or '*'}", priority=200, max_attempts=3
        )
        for kind in RELINK_KINDS
    ]
    return [job_id for job_id in queued if job_id is not None]


def queue_screening(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """The loader's `on_changes` hook: when a batch created companies or changed what is screened and a
    sanctions list is imported, queue their screening in the batch transaction. One job waits at a time;
    its payload names the first change row to read, and later batches' rows come after it, so the waiting
    job covers them too."""
    screened = [int(r["id"]) for r in rows if r["field"] in SCREENED_FIELDS and r.get("id") is not None]
    # Before the first list import there is nothing to screen against (and that import screens every
    # company); the table is the screening area's, named here because the loader may not import areas.
    if screened and conn.execute(text("SELECT 1 FROM sanction_lists LIMIT 1")).first() is not None:
        enqueue(
            conn,
            SCREEN_CHANGED,
            {"from_change": min(screened)},
            now=rows[0]["detected_at"],
            dedupe_key=SCREEN_CHANGED,
            priority=150,
            max_attempts=5,
        )


def enqueue_search_index(conn: Connection, now: datetime, run_after: datetime | None = None) -> int | None:
    """Queue the search index's catch-up in the caller's transaction (a loader batch that wrote rows);
    one already waiting absorbs it (None). Its handler follows the index's watermark, so it needs no ids."""
    return enqueue(
        conn,
        SEARCH_INDEX,
        {},
        now=now,
        dedupe_key=SEARCH_INDEX,
        run_after=run_after,
        priority=40,
        max_attempts=5,
    )


def due(conn: Connection, kinds: Sequence[str], now: datetime) -> bool:
    """Whether a job of these kinds could be claimed now (one indexed read: the serve process's poll,
    which takes SQLite's write lock only when there is something to claim)."""
    stmt = select(jobs.c.id).where(
        jobs.c.kind.in_(list(kinds)),
        or_(
            and_(jobs.c.status == QUEUED, jobs.c.run_after <= now),
            and_(jobs.c.status == RUNNING, jobs.c.lease_until < now),
        ),
    )
    return conn.execute(stmt.limit(1)).first() is not None
