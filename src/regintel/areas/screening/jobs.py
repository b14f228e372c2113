"""Job handlers of the screening area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.screening.hits import refresh_company_hits, screen_changed_companies
from regintel.areas.screening.importer import HITS_JOB
from regintel.db.jobs import SCREEN_CHANGED
from regintel.jobs.registry import JobContext, Permanent, job_handler


@job_handler(HITS_JOB)
def company_hits(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Recompute every company's sanctions hits after a list import changed entries."""
    return refresh_company_hits(ctx.engine)


@job_handler(SCREEN_CHANGED)
def changed_companies(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Screen the companies an import added or renamed (queued in the loader's batch transaction)."""
    from_change = payload.get("from_change")
    if not isinstance(from_change, int) or isinstance(from_change, bool) or from_change < 1:
        raise Permanent(f"payload needs a positive from_change, got {from_change!r}")
    return screen_changed_companies(ctx.engine, from_change)
