"""Job handlers of the nis2 area: `nis2.sweep` (POST /compliance/nis2-sweep when large) and
`nis2.refresh` (recompute every company's stored scoping for the `nis2_scope` filter)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from regintel.areas.nis2 import queries, service, sweep
from regintel.db import jobs as jobs_db
from regintel.db.engine import begin_write
from regintel.jobs.registry import JobContext, Permanent, job_handler

REFRESH_BATCH = 2_000
REFRESH_SECONDS = 240


@job_handler(sweep.KIND)
def run_sweep(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    if "identifiers" not in payload and "filter" not in payload:
        raise Permanent("a sweep needs `identifiers` or `filter`")
    return sweep.run_job(ctx.engine, payload, ctx.job_id)


@job_handler("nis2.refresh")
def refresh(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """Assess companies in id order from `after` (optionally one `country`) and store the results; hands
    over to a continuation job after about four minutes."""
    after, country, done = int(payload.get("after", 0)), payload.get("country"), 0
    started = time.monotonic()
    while True:
        with begin_write(ctx.engine) as conn:
            ids = queries.company_ids_after(
                conn, after, REFRESH_BATCH, str(country).upper() if country else None
            )
            if not ids:
                return {"assessed": done, "finished": True}
            service.save_batch(conn, service.assess_batch(conn, ids))
        after, done = ids[-1], done + len(ids)
        if time.monotonic() - started > REFRESH_SECONDS:
            with begin_write(ctx.engine) as conn:
                nxt = jobs_db.enqueue(
                    conn, "nis2.refresh", {"after": after, "country": country}, now=datetime.now(UTC)
                )
            return {"assessed": done, "finished": False, "continued_by": nxt}
