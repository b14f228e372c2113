"""Job handlers of the pages area: `pages.contract-totals` recomputes the public-contract value per supplier
company and currency (`contract_totals`), which the `public-contracts` ranking reads.

Payload (optional): `every_hours` (1-168): the job then queues its next run that many hours on (one queued at
a time). Queue it with `python -m regintel.areas.pages contract-totals [HOURS]`."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from regintel.db.jobs import enqueue
from regintel.jobs.registry import JobContext, Permanent, job_handler

from . import queries

CONTRACT_TOTALS_JOB = "pages.contract-totals"


@job_handler(CONTRACT_TOTALS_JOB)
def contract_totals(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    every = payload.get("every_hours")
    if every is not None and not (
        isinstance(every, int) and not isinstance(every, bool) and 1 <= every <= 168
    ):
        raise Permanent(f"bad payload: every_hours not 1-168: {every!r}")
    started = time.perf_counter()
    now = datetime.now(UTC)
    with ctx.engine.begin() as conn:  # one transaction: readers see the old totals or the new, never a mix
        rows = queries.refresh_contract_totals(conn, now)
    if every is not None:
        with ctx.engine.begin() as conn:
            enqueue(
                conn,
                CONTRACT_TOTALS_JOB,
                dict(payload),
                now=now,
                run_after=now + timedelta(hours=every),
                dedupe_key=f"{CONTRACT_TOTALS_JOB}:every",
            )
    return {"totals": rows, "seconds": round(time.perf_counter() - started, 3)}
