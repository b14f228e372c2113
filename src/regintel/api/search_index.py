"""The `SearchIndex` dependency: the app's search backend, kept current with the database.

The backend is made once per app. Every `search_refresh_seconds` a request first asks the database
whether rows changed since the index last saw it (two indexed MAX queries) and indexes those; when
the index is missing it is built on the spot (`regintel search rebuild` does it ahead of time)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Annotated

from fastapi import Depends, Request

from regintel.search import IndexBusy, SearchBackend, get_backend

log = logging.getLogger(__name__)
_refresh_lock = threading.Lock()


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
                _refresh(request, backend)
                state.search_checked = time.monotonic()
    return backend


def _refresh(request: Request, backend: SearchBackend) -> None:
    try:
        with request.app.state.engine.begin() as conn:
            backend.ensure_current(conn)
    except IndexBusy:
        log.info("search index busy (an import or rebuild holds it); serving the current one")


SearchIndex = Annotated[SearchBackend, Depends(get_search)]
