"""The per-process screening index: built from the tables on first use and rebuilt when a list import
changed the data (`queries.data_version`, one aggregate over the few `sanction_lists` rows, read on
every request). One index per database URL, built under a lock; readers use whichever is current."""

from __future__ import annotations

import sys
import threading
from collections import defaultdict
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.screening import queries
from regintel.domain.screening import Candidate, ListedName
from regintel.domain.screening_index import ScreeningIndex

_LOCK = threading.Lock()
_CACHE: dict[str, tuple[tuple[Any, ...], ScreeningIndex]] = {}


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
        Candidate(int(entry_id), schema, tuple(names[entry_id]), frozenset(countries.get(entry_id, ())),
                  tuple(dates.get(entry_id, ())), frozenset(idents.get(entry_id, ())))
        for entry_id, schema in rows["entries"] if names.get(entry_id))


def current_index(conn: Connection) -> tuple[ScreeningIndex, tuple[Any, ...]]:
    """The index of the lists as they are now, and the data version it was built from."""
    key = str(conn.engine.url)
    version = queries.data_version(conn)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == version:
        return cached[1], version
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is None or cached[0] != version:
            cached = (version, build_index(conn))
            _CACHE[key] = cached
    return cached[1], version
