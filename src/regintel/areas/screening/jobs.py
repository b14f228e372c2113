"""Job handlers of the screening area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.screening.hits import refresh_company_hits
from regintel.areas.screening.importer import HITS_JOB
from regintel.jobs.registry import JobContext, job_handler


@job_handler(HITS_JOB)
def company_hits(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Recompute every company's sanctions hits after a list import changed entries."""
    return refresh_company_hits(ctx.engine)
