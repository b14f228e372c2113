"""Job handlers of the scores area."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.scores import benchmarks
from regintel.jobs.registry import JobContext, job_handler


@job_handler("scores.refresh_peers")
def refresh_peers(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """Recompute the peer quartiles of `/companies/{ico}/peers` (queue it after an import of statements)."""
    return benchmarks.refresh(ctx.engine)
