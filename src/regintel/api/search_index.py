"""The `SearchIndex` dependency: the app's search backend, kept current with the database.

Every `search_refresh_seconds` a request first asks the database whether rows changed since the
index last saw them (indexed MAX queries) and indexes a few thousand inline; a bigger backlog (a
bulk import, a missing index over a big database) is handed to one background thread while the
current index keeps serving. `regintel search rebuild` builds ahead of time."""

from __future__ import annotations

import logging
import threading
import time
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from regintel.search import IndexBusy, SearchBackend, get_backend

log = logging.getLogger(__name__)
INLINE_LIMIT = 5_000
_refresh_lock = threading.Lock()
_background: dict[int, threading.Thread] = {}


def get_search(request: Request) -> SearchBackend:
    state = request.app.state
    backend: SearchBackend | None = getattr(state, "search", None)
    if backend is None:
        backend = get_backend(state.engine, state.settings)
        state.search = backend
        state.search_checked = float("-inf")  # the first request always checks
    if time.monotonic() - state.search_checked >= state.settings.search_refresh_seconds:
        with _refresh_lock:
            if time.monotonic() - state.search_checked >= state.settings.search_refresh_seconds:
                _refresh(state.engine, backend)
                state.search_checked = time.monotonic()
    return backend


def _refresh(engine: Engine, backend: SearchBackend) -> None:
    try:
        with engine.begin() as conn:
            outcome = backend.ensure_current(conn, INLINE_LIMIT)
    except IndexBusy:
        log.info("search index busy (an import or rebuild holds it); serving the current one")
        return
    if outcome == "deferred":
        _in_background(engine, backend)


def _in_background(engine: Engine, backend: SearchBackend) -> None:
    running = _background.get(id(backend))
    if running is not None and running.is_alive():
        return

    def work() -> None:
        try:
            with engine.begin() as conn:
                log.info("search index catch-up started: %s", backend.ensure_current(conn))
        except IndexBusy:
            log.info("search index busy; the catch-up waits for the next refresh")
        except Exception:  # a failed catch-up must not take the API down; the next refresh retries
            log.exception("search index catch-up failed")

    thread = threading.Thread(target=work, name="search-index-catch-up", daemon=True)
    _background[id(backend)] = thread
    thread.start()


SearchIndex = Annotated[SearchBackend, Depends(get_search)]
