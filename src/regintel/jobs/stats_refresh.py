"""The worker's part in keeping the statistics snapshots current (`areas.stats.snapshots`).

Any process may change the data (an import on another host, a second importer), so the worker looks
at the data version itself. It refreshes once the version has held still between two looks and no
import run is in progress: an import moves the version with every batch, and aggregating millions of
rows after each one would only slow the import down. Then it queues the jobs that follow the data
(`jobs.registry.follows_data`: stored sitemap pages, social images rendered ahead).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Engine

from regintel.areas.stats.snapshots import refresh
from regintel.db.engine import begin_write
from regintel.db.jobs import enqueue
from regintel.db.stats import DataVersion, data_version
from regintel.jobs.registry import data_followers


def queue_followers(engine: Engine) -> list[int]:
    """Queue one job of each kind that follows the data (a kind already waiting absorbs it)."""
    now = datetime.now(UTC)
    with begin_write(engine) as conn:
        queued = [enqueue(conn, kind, {}, now=now, dedupe_key=kind) for kind in data_followers()]
    return [job_id for job_id in queued if job_id is not None]


class StatsRefresher:
    def __init__(self, engine: Engine):
        self.engine = engine
        self._seen: DataVersion | None = None
        self._done: DataVersion | None = None

    def poll(self, stop: Callable[[], bool] = lambda: False) -> list[str]:
        """Look once; returns the snapshots written (none while the data is moving or all are current)."""
        with self.engine.connect() as conn:
            version = data_version(conn)
        settled, self._seen = version == self._seen, version
        # A run killed outright stays unfinished until the next import; requests still store what
        # they compute meanwhile.
        if not settled or version.importing or version == self._done:
            return []
        written = refresh(self.engine, stop=stop)
        if not stop():
            queue_followers(self.engine)
            self._done = version
        return written
