"""Statistics snapshots: the whole-database aggregates of the statistics endpoints, precomputed for a
data version and stored (`stats_snapshots`), so that no request computes one while a current snapshot
exists; restarts and new API processes start warm.

A snapshot is keyed by the aggregate and its default parameters (`overview`, `breakdown:nace:100`,
`shell-addresses:10:50`); only unfiltered requests with those defaults read it, filtered ones are
computed live as before. `refresh` writes them (`regintel stats refresh`, the end of `import`, `demo`
and `synth`, the worker when the data version moved); a request that finds none current computes
the answer itself and stores it. Either way a snapshot is stored only if the data version it was
computed at is still the current one, so a figure taken while an import was writing never passes
for current.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeVar

import orjson
from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from regintel.areas.pages.aggregates import SNAPSHOTS as PAGE_SNAPSHOTS
from regintel.areas.search.company_filters import CompanyFilters
from regintel.areas.stats import service as stats
from regintel.areas.stats.breakdown import DIMENSIONS
from regintel.db import stats_snapshots as db
from regintel.db.company_filters import Conditions, reference
from regintel.db.engine import begin_write
from regintel.db.stats import data_version
from regintel.errors import NotImplementedYet
from regintel.result_cache import ResultCache

log = logging.getLogger("regintel.stats")
T = TypeVar("T")

BREAKDOWN_LIMIT = 100
SHELL_MIN_COMPANIES = 10
SHELL_LIMIT = 50
SHELL_KEY = f"shell-addresses:{SHELL_MIN_COMPANIES}:{SHELL_LIMIT}"
PUBLIC_SHELL_KEY = f"public-shell-addresses:{SHELL_MIN_COMPANIES}:{SHELL_LIMIT}"
EVERYTHING = Conditions([], False)


def breakdown_key(by: str) -> str:
    return f"breakdown:{by}:{BREAKDOWN_LIMIT}"


def unfiltered(filters: CompanyFilters) -> bool:
    """True when no filter of `filters` is set (extra fields such as `by` or `limit` do not count)."""
    return all(getattr(filters, name) is None for name in CompanyFilters.model_fields)


def _breakdown(by: str) -> Callable[[Connection], Any]:
    return lambda conn: stats.breakdown(conn, by, EVERYTHING, reference(conn), BREAKDOWN_LIMIT)


def _shell(public: bool) -> Callable[[Connection], Any]:
    addresses = stats.public_shell_addresses if public else stats.shell_addresses
    return lambda conn: addresses(conn, EVERYTHING, SHELL_MIN_COMPANIES, SHELL_LIMIT)


AGGREGATES: dict[str, Callable[[Connection], Any]] = {
    "overview": stats.overview,
    "freshness": stats.freshness,
    "public-stats": stats.public_stats,
    SHELL_KEY: _shell(public=False),
    PUBLIC_SHELL_KEY: _shell(public=True),
    **{breakdown_key(by): _breakdown(by) for by in DIMENSIONS},
    **PAGE_SNAPSHOTS,  # the region counts, shell addresses and largest companies of the public pages
}


def answer(conn: Connection, cache: ResultCache, key: str, compute: Callable[[], T]) -> tuple[T, bool]:
    """(value, served from a cache or snapshot) for one of AGGREGATES: the process's cache, else the
    snapshot stored for the current data version, else `compute()`, stored as the new snapshot."""
    version = data_version(conn)

    def load() -> tuple[Any, bool]:
        stored = db.find_snapshot(conn, key, version)
        if stored is not None:
            return stored, True
        value = compute()
        try:
            write(conn.engine, key, version, value)
        except SQLAlchemyError:
            # The answer stands without its snapshot (a read-only replica, a lock held too long).
            log.warning("Could not store the statistics snapshot %s", key, exc_info=True)
        return value, False

    (value, from_snapshot), hit = cache.get((key, version), load)
    return value, hit or from_snapshot


def write(engine: Engine, key: str, version: tuple[Any, ...], value: Any) -> bool:
    """Store `value`, computed at `version`, as the snapshot of `key` if that version is still the
    current one; False when the data moved meanwhile."""
    with begin_write(engine) as conn:
        if data_version(conn) != version:
            return False
        db.record_snapshot(conn, key, version, _plain(value), datetime.now(UTC))
    return True


def refresh(
    engine: Engine, *, stale_only: bool = True, stop: Callable[[], bool] = lambda: False
) -> list[str]:
    """Compute and store the snapshots (with `stale_only` only those not computed for the current data
    version); returns the keys written. `stop` is asked between aggregates."""
    with engine.connect() as conn:
        stored = db.list_versions(conn)
    written = []
    for key, compute in AGGREGATES.items():
        if stop():
            break
        started = time.perf_counter()
        with engine.connect() as conn:
            version = data_version(conn)  # read first: data written while computing makes it stale
            if stale_only and stored.get(key) == db.version_text(version):
                continue
            try:
                value = compute(conn)
            except NotImplementedYet:
                continue  # answers 501 whatever the data holds
        if write(engine, key, version, value):
            written.append(key)
            log.info("Computed statistics snapshot %s in %.2f s", key, time.perf_counter() - started)
    return written


def _plain(value: Any) -> Any:
    """JSON values exactly as the envelope renders them (timestamps in UTC with `Z`), so that an answer
    from a snapshot and one computed live are the same bytes."""
    option = orjson.OPT_NON_STR_KEYS | orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z
    return orjson.loads(orjson.dumps(value, default=_default, option=option))


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (set, frozenset)):
        return list(value)
    raise TypeError(f"Cannot serialise {type(value).__name__}")
