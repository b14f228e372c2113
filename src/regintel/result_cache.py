"""Results computed from the whole database (aggregates, filter reference data), kept for a while.

Keys carry the data version (`db.stats.data_version`): an import or any change makes new keys, so a
cached answer is never older than the data by more than the time-to-live, and usually not at all.
One computation per key at a time: concurrent callers of a missing key wait for the first one.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from cachetools import TTLCache

T = TypeVar("T")
TTL_SECONDS = 900  # spec 8: 15 minutes for `stats/*`


class ResultCache:
    def __init__(self, ttl: float = TTL_SECONDS, maxsize: int = 512):
        self._cache: TTLCache[Hashable, Any] = TTLCache(maxsize=maxsize, ttl=ttl)
        self._lock = threading.Lock()
        self._computing: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> tuple[T, bool]:
        """(value, came from the cache)."""
        with self._lock:
            if key in self._cache:
                return self._cache[key], True
            key_lock = self._computing.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._cache:
                    return self._cache[key], True
            value = compute()
            with self._lock:
                self._cache[key] = value
                self._computing.pop(key, None)
        return value, False
