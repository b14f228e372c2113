"""The search index's catch-up as a job (`search.index`, docs/search.md).

Every loader batch that wrote rows queues it in its own transaction (`db.jobs.enqueue_search_index`;
one waiting job absorbs the others), and `regintel worker`, the end of `regintel import`/`demo`/`synth`
and each `regintel serve` process run it. The handler follows the index's watermark
(`SearchBackend.ensure_current`), so the job names no rows: whoever runs it catches up with everything
written so far. Requests only read the index (api/search_index.py)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from regintel.config import Settings
from regintel.db.engine import begin_write
from regintel.db.jobs import SEARCH_INDEX, enqueue_search_index
from regintel.jobs.registry import JobContext, job_handler
from regintel.search import IndexBusy, get_backend, index_transaction, refresh_index

# Another process holds the index's writer (an import's own catch-up, a rebuild, another worker): it
# catches up with what it saw when it started, so the rows written since need one more run, soon.
BUSY_AGAIN = timedelta(seconds=2)


@job_handler(SEARCH_INDEX)
def catch_up(ctx: JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    backend = get_backend(ctx.engine, ctx.settings)
    try:
        with index_transaction(ctx.engine) as conn:
            outcome = backend.ensure_current(conn)
    except IndexBusy:
        # Queued again rather than failed: the runner's back-off grows to half an hour, and an import's
        # own catch-up may hold the writer for minutes.
        now = datetime.now(UTC)
        with begin_write(ctx.engine) as conn:
            enqueue_search_index(conn, now, run_after=now + BUSY_AGAIN)
        outcome = "busy"
    return {"backend": backend.name, "outcome": outcome}


def finish(engine: Engine, settings: Settings) -> str:
    """What the end of an import does: bring the index up to date, waiting while another process
    writes it, then finish the jobs the run's batches queued (they find it current), so that no
    worker has to be running for it. Returns the catch-up's outcome."""
    from regintel.jobs.runner import run_due

    outcome = refresh_index(engine, settings)
    while run_due(engine, settings, "import", limit=10, kinds=[SEARCH_INDEX]):
        pass
    return outcome
