"""Job handlers of the pages area.

- `pages.contract-totals` recomputes the public-contract value per supplier company and currency
  (`contract_totals`), which the `public-contracts` ranking reads. Payload (optional): `every_hours` (1-168):
  the job then queues its next run that many hours on (one queued at a time). Queue it with
  `python -m regintel.areas.pages contract-totals [HOURS]`.
- `pages.sitemaps` writes the sitemap pages of the current data version, and `pages.og-ahead` renders the
  social images most likely to be shared (payload, optional: `companies`, 0-10,000 most viewed, default
  1,000); the worker queues both each time the data version settles at a new value (`follows_data`), so
  requests read stored pages and images (renders.py)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from regintel.db.engine import begin_write
from regintel.db.jobs import enqueue
from regintel.jobs.registry import JobContext, Permanent, follows_data, job_handler

from . import landing_routes, queries, renders, service

CONTRACT_TOTALS_JOB = "pages.contract-totals"
SITEMAPS_JOB = "pages.sitemaps"
OG_AHEAD_JOB = "pages.og-ahead"
follows_data(SITEMAPS_JOB)
follows_data(OG_AHEAD_JOB)


@job_handler(SITEMAPS_JOB)
def sitemaps(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    started = time.perf_counter()
    return renders.store_sitemaps(ctx.engine, ctx.settings) | {
        "seconds": round(time.perf_counter() - started)
    }


@job_handler(OG_AHEAD_JOB)
def og_ahead(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    limit = payload.get("companies", renders.OG_AHEAD)
    if not (isinstance(limit, int) and not isinstance(limit, bool) and 0 <= limit <= 10_000):
        raise Permanent(f"bad payload: companies not 0-10000: {limit!r}")
    started = time.perf_counter()
    with ctx.engine.connect() as conn:
        sources = landing_routes.og_sources(conn) + service.most_viewed_og(conn, limit)
    rendered = renders.render_ahead(ctx.engine, sources)
    return {"images": len(sources), "rendered": rendered, "seconds": round(time.perf_counter() - started, 3)}


@job_handler(CONTRACT_TOTALS_JOB)
def contract_totals(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    every = payload.get("every_hours")
    if every is not None and not (
        isinstance(every, int) and not isinstance(every, bool) and 1 <= every <= 168
    ):
        raise Permanent(f"bad payload: every_hours not 1-168: {every!r}")
    started = time.perf_counter()
    now = datetime.now(UTC)
    # one transaction: readers see the old totals or the new, never a mix
    with begin_write(ctx.engine) as conn:
        rows = queries.refresh_contract_totals(conn, now)
    if every is not None:
        with begin_write(ctx.engine) as conn:
            enqueue(
                conn,
                CONTRACT_TOTALS_JOB,
                dict(payload),
                now=now,
                run_after=now + timedelta(hours=every),
                dedupe_key=f"{CONTRACT_TOTALS_JOB}:every",
            )
    return {"totals": rows, "seconds": round(time.perf_counter() - started, 3)}
