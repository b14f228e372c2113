"""Job handlers of the legal-records area: the refresh of a source (docs/legal-records.md, "Refresh").

`legal_records.import` with payload `{"source": "sk_court_decisions", "location": "<file, folder or URL>"}`
runs the same import as `regintel import <source> <location>`; a cron entry or any client of the jobs
table queues it. A malformed input fails the job for good (the reject file says why); anything else is
retried with the worker's back-off."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.db.jobs import RELINK_LEGAL
from regintel.ingest.base import SourceAbort
from regintel.jobs.registry import JobContext, Permanent, job_handler
from regintel.jobs.relink import relink_country
from regintel.search import get_backend

from .importing import TABLE_OF
from .relink import relink

KIND = "legal_records.import"


@job_handler(KIND)
def refresh(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Import one file, folder or URL of one legal-records source."""
    from regintel.ingest.sources import get_source

    source_id, location = payload.get("source"), payload.get("location")
    if source_id not in TABLE_OF or not isinstance(location, str) or not location:
        raise Permanent(f"payload needs source (one of {', '.join(sorted(TABLE_OF))}) and location")
    source: Any = get_source(str(source_id))
    try:
        run_id, stats, rejects = source.import_into(ctx.engine, location, ctx.settings.data_dir)
    except SourceAbort as exc:
        raise Permanent(f"{source_id}: {exc}") from None
    return {"run_id": run_id, **stats.as_dict(), "rejects": str(rejects) if rejects else None}


@job_handler(RELINK_LEGAL)
def relink_job(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """`legal_records.relink`, queued by a company import that wrote companies (`db.jobs.enqueue_relink`):
    parties stored without a company are resolved again (`relink.py`). Payload `{"country": "SK"}` or `{}`."""
    country = relink_country(payload)
    return relink(ctx.engine, get_backend(ctx.engine, ctx.settings), country)
