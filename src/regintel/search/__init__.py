"""The name/address index behind search, autocomplete, resolve, match and reconcile.

`get_backend(engine, settings)` picks the backend: `settings.search_backend` when set, otherwise
tantivy (see docs/search.md for the measurements behind that default). One instance per database
and data folder is kept, so an API process opens its index once.
"""

from __future__ import annotations

import hashlib
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import make_url

from regintel.config import Settings
from regintel.search.base import Filters, IndexBusy, QueryWords, SearchBackend

__all__ = [
    "BACKENDS",
    "Filters",
    "IndexBusy",
    "QueryWords",
    "SearchBackend",
    "get_backend",
    "index_root",
    "index_transaction",
    "refresh_index",
]

BACKENDS = ("tantivy", "sqlite_fts", "pg_trgm")
_cache: dict[tuple[str, str, str], SearchBackend] = {}
_lock = threading.Lock()


def index_root(engine: Engine, settings: Settings) -> Path:
    """Where on-disk indexes of this database live: one folder per database, so two databases
    sharing a data folder never read each other's index."""
    url = make_url(engine.url).render_as_string(hide_password=True)
    return Path(settings.data_dir) / "search" / hashlib.sha256(url.encode()).hexdigest()[:12]


def backend_name(engine: Engine, settings: Settings) -> str:
    chosen = getattr(settings, "search_backend", "auto")
    if chosen in (None, "", "auto"):
        return "tantivy"
    if chosen == "sqlite_fts" and engine.dialect.name != "sqlite":
        raise ValueError("search_backend sqlite_fts needs a SQLite database")
    if chosen == "pg_trgm" and engine.dialect.name != "postgresql":
        raise ValueError("search_backend pg_trgm needs a PostgreSQL database")
    return str(chosen)


def get_backend(engine: Engine, settings: Settings, name: str | None = None) -> SearchBackend:
    name = name or backend_name(engine, settings)
    root = index_root(engine, settings)
    key = (name, str(engine.url), str(root))
    with _lock:
        backend = _cache.get(key)
        if backend is None:
            backend = _make(name, root)
            _cache[key] = backend
        return backend


def _make(name: str, root: Path) -> SearchBackend:
    if name == "tantivy":
        from regintel.search.tantivy_index import TantivyBackend

        return TantivyBackend(root / "tantivy")
    if name == "sqlite_fts":
        from regintel.search.sqlite_fts import SqliteFtsBackend

        return SqliteFtsBackend()
    if name == "pg_trgm":
        from regintel.search.pg_trgm import PgTrgmBackend

        return PgTrgmBackend()
    raise ValueError(f"unknown search backend {name!r}; choose one of {', '.join(BACKENDS)}")


def index_transaction(engine: Engine, *, writes: bool = True) -> AbstractContextManager[Connection]:
    """The transaction of anything that brings the index up to date (catch-up, sync, rebuild): IMMEDIATE
    on SQLite when it writes the database (the FTS tables live there; a job queued after the read). It reads
    (the watermark, the rows), then writes, and a deferred transaction that another writer overtook in
    between fails at once with 'database is locked' instead of waiting. `writes=False` (a tantivy
    catch-up, whose index is files) keeps it deferred: holding the write lock for a whole catch-up made
    the requests that write wait behind it, up to their busy timeout."""
    return engine.execution_options(sqlite_immediate=writes).begin()


def refresh_index(engine: Engine, settings: Settings) -> str:
    """Bring the configured index up to date with the database, however much changed, waiting while
    another process writes it (the end of `regintel import`/`demo`/`synth`; the `search.index` job
    does the same without waiting)."""
    backend = get_backend(engine, settings)
    while True:
        try:
            with index_transaction(engine) as conn:
                return backend.ensure_current(conn)
        except IndexBusy:  # an API process or the worker is writing: it will have caught up part of it
            time.sleep(0.05)
