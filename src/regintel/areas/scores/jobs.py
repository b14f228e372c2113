"""Job handlers of the scores area, and how to queue them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.scores import benchmarks
from regintel.db import jobs as queue
from regintel.jobs.registry import JobContext, job_handler

REFRESH_PEERS = queue.REFRESH_PEERS


@job_handler(REFRESH_PEERS)
def refresh_peers(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    """Recompute the peer quartiles of `/companies/{ico}/peers`."""
    return benchmarks.refresh(ctx.engine)


def enqueue_refresh_peers(conn: Connection, now: datetime) -> int | None:
    """Queue a refresh in the caller's transaction (an import that wrote statements calls this); a
    refresh already waiting absorbs the request (None)."""
    return queue.enqueue_peer_refresh(conn, now)
