"""Job handlers of the regulatory area: `regulatory.refresh` re-imports the regulators' feeds.

Payload (all optional): `sources` (ids; default all five) and `locations` ({source id: file or URL};
default each source's published feed URL, `SourceInfo.url`). Each feed is its own import run, so one
regulator's outage does not hold back the others; when any failed the job raises after trying them all
and the worker retries it with back-off (a re-import of what did succeed writes nothing). With
`every_hours` (1-168) the job queues its next run that many hours on (one queued at a time)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from regintel.db.engine import begin_write
from regintel.db.jobs import enqueue
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources import get_source
from regintel.jobs.registry import JobContext, Permanent, job_handler

from .importing import FeedSource, run_feed_import
from .service import SOURCES

REFRESH_JOB = "regulatory.refresh"


@job_handler(REFRESH_JOB)
def refresh(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Import every requested regulator's feed; the result holds each run's figures or its error."""
    wanted = list(payload.get("sources") or SOURCES)
    locations = dict(payload.get("locations") or {})
    every = payload.get("every_hours")
    unknown = [s for s in wanted + list(locations) if s not in SOURCES]
    if unknown or (every is not None and not (isinstance(every, int) and 1 <= every <= 168)):
        raise Permanent(f"bad payload: unknown sources {unknown} or every_hours not 1-168: {every!r}")
    results: dict[str, Any] = {}
    for source_id in wanted:
        source = cast(FeedSource, get_source(source_id))
        location = str(locations.get(source_id) or source.info.url)
        try:
            run_id, stats, _ = run_feed_import(ctx.engine, source, location, ctx.settings.data_dir)
            results[source_id] = {"run_id": run_id, **stats.as_dict()}
        except (SourceAbort, OSError, ValueError) as exc:  # the run record keeps the failure too
            results[source_id] = {"error": str(exc)}
    if every is not None:
        _schedule_next(ctx, payload, every)
    failed = sorted(s for s, r in results.items() if "error" in r)
    if failed:
        raise RuntimeError(
            f"feeds not refreshed: {', '.join(failed)}: " + "; ".join(results[s]["error"] for s in failed)
        )
    return {"sources": results}


def _schedule_next(ctx: JobContext, payload: Mapping[str, Any], every: int) -> None:
    now = datetime.now(UTC)
    with begin_write(ctx.engine) as conn:
        enqueue(
            conn,
            REFRESH_JOB,
            payload,
            now=now,
            run_after=now + timedelta(hours=every),
            dedupe_key=f"{REFRESH_JOB}:every",
        )
