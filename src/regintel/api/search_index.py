"""The `SearchIndex` dependency, and the serve process's part in keeping the index current.

Requests only read the index. The app's lifespan opens the backend once (`open_search`) and starts
`SearchJobs`, a thread that runs the queued `search.index` jobs (jobs/search_index.py) and follows
the index's watermark, so a lone `regintel serve` sees what any other process wrote; `regintel
worker` runs the same jobs, and whichever claims one first runs it. Every API process of a host
reads the same index: tantivy readers reload when a writer of any process committed, and reopen
when a rebuild moved `CURRENT` (file stats per query); SQLite FTS5 and pg_trgm live in the
database. docs/search.md."""

from __future__ import annotations

import logging
import os
import threading
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from regintel.config import Settings
from regintel.db import jobs as jobs_db
from regintel.db.jobs import SEARCH_INDEX, enqueue_search_index
from regintel.search import IndexBusy, SearchBackend, get_backend, index_transaction

log = logging.getLogger(__name__)
# At start-up a backlog this small (a new database, a test's few rows) is caught up before the first
# request is served; a bigger one (a missing index over millions of rows) is queued for the thread,
# while the index that exists keeps serving.
STARTUP_LIMIT = 5_000
POLL_FLOOR = 0.05  # seconds: `search_refresh_seconds=0` polls often, it does not spin


def search_backend(request: Request) -> SearchBackend:
    """The backend the lifespan opened; a process that runs no lifespan (`regintel mcp` over stdio)
    opens it on first use, once (that reads the database: call it off the event loop)."""
    state = request.app.state
    backend: SearchBackend | None = getattr(state, "search", None)
    return backend if backend is not None else open_search(state)


async def get_search(request: Request) -> SearchBackend:
    """`search_backend` as a dependency. A coroutine, because FastAPI runs a plain-`def` dependency in
    its thread pool, and that hop on every search request cost more than handing out the open backend
    (docs/architecture.md, "Serving")."""
    backend: SearchBackend | None = getattr(request.app.state, "search", None)
    return backend if backend is not None else await run_in_threadpool(search_backend, request)


def open_search(state: Any) -> SearchBackend:
    """Open the app's backend and catch up a small backlog now (a big one is queued as a job)."""
    backend = get_backend(state.engine, state.settings)
    try:
        with index_transaction(state.engine) as conn:
            if backend.ensure_current(conn, STARTUP_LIMIT) == "deferred":
                enqueue_search_index(conn, datetime.now(UTC))
    except IndexBusy:  # an import or the worker is writing it: the index that exists serves meanwhile
        log.info("search index busy at start-up; serving the current one")
    except SQLAlchemyError:  # the database locked or away: the thread catches up once it answers
        log.exception("search index start-up catch-up failed; serving the current one")
    state.search = backend
    return backend


class SearchJobs:
    """A thread that, every `search_refresh_seconds`, runs the due `search.index` jobs and then follows
    the index's watermark. The jobs: one indexed read per poll, a claim (SQLite's write lock) only
    when one is due. The watermark: each host keeps its own tantivy copy, and a job claimed on another
    host (or by a worker there) caught up that host's copy only. Off the event loop, so a catch-up
    that takes minutes never delays a request."""

    def __init__(self, engine: Engine, settings: Settings, backend: SearchBackend):
        self.engine = engine
        self.settings = settings
        self.backend = backend
        self.worker_id = f"serve:{os.getpid()}:{id(self):x}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="search-index-jobs", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=30)

    def run_due(self) -> int:
        """Run the jobs due now; returns how many ran."""
        from regintel.jobs.runner import run_due

        with self.engine.connect() as conn:
            if not jobs_db.due(conn, [SEARCH_INDEX], datetime.now(UTC)):
                return 0
        return run_due(self.engine, self.settings, self.worker_id, limit=1, kinds=[SEARCH_INDEX])

    def follow(self) -> str:
        """Catch this host's index up with the database (two indexed MAX reads when it is current)."""
        try:
            # A tantivy catch-up writes files only: no write lock on the database for its length.
            with index_transaction(self.engine, writes=self.backend.name == "sqlite_fts") as conn:
                return self.backend.ensure_current(conn)
        except IndexBusy:  # another process of this host is writing it: it catches up for all of them
            return "busy"

    def _loop(self) -> None:
        interval = max(POLL_FLOOR, self.settings.search_refresh_seconds)
        while not self._stop.wait(interval):
            try:
                while self.run_due() and not self._stop.is_set():
                    pass
                self.follow()
            except SQLAlchemyError:  # the database is away (restart, lock timeout): look again later
                log.exception("search index jobs: database error; retrying in %s s", interval)


SearchIndex = Annotated[SearchBackend, Depends(get_search)]
