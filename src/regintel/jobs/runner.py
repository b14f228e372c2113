"""Run due jobs: claim a few, run each handler in a thread, record the outcome.

Used by `regintel worker` (its jobs loop) and by `Worker.run_once` (tests, `--once`).
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, RowMapping

from regintel.config import Settings
from regintel.db import jobs as db
from regintel.db.engine import begin_write
from regintel.jobs.registry import JobContext, Permanent, handlers

log = logging.getLogger("regintel.jobs")
LEASE = timedelta(minutes=10)
BACKOFF = (timedelta(seconds=5), timedelta(seconds=30), timedelta(minutes=5), timedelta(minutes=30))


def run_due(
    engine: Engine,
    settings: Settings,
    worker_id: str,
    limit: int = 10,
    kinds: Sequence[str] | None = None,
) -> int:
    """Claim and run up to `limit` due jobs of known kinds (of `kinds` only, when given: the serve
    process runs the search index's), one after another. Returns how many ran."""
    known = handlers()
    wanted = sorted(known) if kinds is None else sorted(k for k in kinds if k in known)
    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        claimed = db.claim(conn, worker_id, limit, datetime.now(UTC), LEASE, kinds=wanted)
    for job in claimed:
        run_one(engine, settings, worker_id, job)
    return len(claimed)


def run_one(engine: Engine, settings: Settings, worker_id: str, job: RowMapping) -> None:
    row = dict(job)
    ctx = JobContext(engine=engine, settings=settings, job_id=row["id"], attempt=row["attempts"])
    handler = handlers()[row["kind"]]
    try:
        result = handler(ctx, row["payload"])
    except Exception as exc:  # a failing job must not stop the worker; it is retried or failed
        now = datetime.now(UTC)
        spent = isinstance(exc, Permanent) or row["attempts"] >= row["max_attempts"]
        retry_at = None if spent else now + BACKOFF[min(row["attempts"], len(BACKOFF)) - 1]
        log.warning("job %s (%s) attempt %d failed: %s", row["id"], row["kind"], row["attempts"], exc)
        with begin_write(engine) as conn:
            db.fail(
                conn,
                row["id"],
                worker_id,
                now,
                "".join(traceback.format_exception_only(exc)).strip(),
                retry_at,
            )
        return
    with begin_write(engine) as conn:
        db.finish(conn, row["id"], worker_id, datetime.now(UTC), result)
