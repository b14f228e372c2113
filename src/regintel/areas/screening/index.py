"""The per-process screening index: built from the tables on first use and rebuilt when a list import
changed the data (`queries.data_version`, one aggregate over the few `sanction_lists` rows, read on
every request). One index per database URL.

The first index of a process is built in the request that needs it. A rebuild of a large index
(`BACKGROUND_FROM` entries or more: tens of seconds at 100,000 entries) runs in a background thread
while requests go on with the previous index, so a list import never stalls screening; a small one is
rebuilt at once."""

from __future__ import annotations

import logging
import sys
import threading
from collections import defaultdict
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.screening import queries
from regintel.domain.screening import Candidate, ListedName
from regintel.domain.screening_index import ScreeningIndex

BACKGROUND_FROM = 20_000
_LOCK = threading.Lock()
_CACHE: dict[str, tuple[tuple[Any, ...], ScreeningIndex]] = {}
_BUILDING: set[str] = set()
log = logging.getLogger(__name__)


def build_index(conn: Connection) -> ScreeningIndex:
    rows = queries.index_rows(conn)
    names: dict[int, list[ListedName]] = defaultdict(list)
    for entry_id, name, norm, kind in rows["names"]:
        names[entry_id].append(ListedName(name, kind, tuple(sys.intern(t) for t in norm.split())))
    countries: dict[int, set[str]] = defaultdict(set)
    for entry_id, country in rows["countries"]:
        countries[entry_id].add(country)
    dates: dict[int, list[str]] = defaultdict(list)
    for entry_id, value in rows["dates"]:
        dates[entry_id].append(value)
    idents: dict[int, set[str]] = defaultdict(set)
    for entry_id, value in rows["ids"]:
        idents[entry_id].add(value)
    return ScreeningIndex(
        Candidate(
            int(entry_id),
            schema,
            tuple(names[entry_id]),
            frozenset(countries.get(entry_id, ())),
            tuple(dates.get(entry_id, ())),
            frozenset(idents.get(entry_id, ())),
        )
        for entry_id, schema in rows["entries"]
        if names.get(entry_id)
    )


def _rebuild(engine: Engine, key: str) -> None:
    try:
        with engine.connect() as conn:
            version = queries.data_version(conn)
            index = build_index(conn)
        _CACHE[key] = (version, index)
    except Exception:  # the next request tries again; the previous index keeps serving
        log.exception("screening index rebuild failed")
    finally:
        with _LOCK:
            _BUILDING.discard(key)


def current_index(conn: Connection, *, fresh: bool = False) -> tuple[ScreeningIndex, tuple[Any, ...]]:
    """The index of the lists as they are now (or, while a large one is rebuilt, the previous one,
    unless `fresh`), and the data version it was built from."""
    key = str(conn.engine.url)
    version = queries.data_version(conn)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == version:
        return cached[1], cached[0]
    if cached is not None and not fresh and len(cached[1]) >= BACKGROUND_FROM:
        with _LOCK:
            start = key not in _BUILDING
            _BUILDING.add(key)
        if start:
            threading.Thread(
                target=_rebuild, args=(conn.engine, key), name="screening-index", daemon=True
            ).start()
        return cached[1], cached[0]
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None or cached[0] != version:
            cached = (version, build_index(conn))
            _CACHE[key] = cached
    return cached[1], cached[0]
