"""A `limits` storage backend in a SQLite file, so that every process on a host shares one set of
rate-limit and quota counters without Redis. The limiting algorithms stay the `limits` library's."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from limits.storage import Storage

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL,
    expires_at REAL NOT NULL
)
"""

# One statement, so the read-modify-write is atomic under SQLite's write lock.
_INCR = """
INSERT INTO counters (key, value, expires_at) VALUES (:key, :amount, :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    value = CASE WHEN counters.expires_at <= :now THEN :amount ELSE counters.value + :amount END,
    expires_at = CASE WHEN counters.expires_at <= :now THEN :now + :expiry ELSE counters.expires_at END
RETURNING value
"""


class SQLiteCounterStorage(Storage):
    """Fixed-window counters keyed like every other `limits` storage."""

    STORAGE_SCHEME = ["regintel+sqlite"]

    def __init__(
        self,
        uri: str = "regintel+sqlite:///data/counters.db",
        wrap_exceptions: bool = False,
        **options: object,
    ):
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        # Same convention as SQLAlchemy: three slashes = relative path, four = absolute.
        self.path = Path(uri.split("://", 1)[1][1:])
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        # Threads of one process take turns here rather than in SQLite's busy handler, which sleeps
        # 1, 2, 5, … 100 ms between tries: with 40 threads contending, p99 went to seconds. Processes
        # still meet at the file's write lock, one contender each.
        self._turn = threading.RLock()
        self._conn().execute(_SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            # Inside a transaction every upsert keeps a statement journal; in a temporary file (the
            # default) SQLite allocated and freed ~150 KB per statement (brk twice each time).
            conn.execute("PRAGMA temp_store=MEMORY")
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the increments of one call in a single write transaction (`BEGIN IMMEDIATE`).

        The three counters of a keyed call then cost one lock round and one WAL append instead of three
        (6 fcntl and 2 pwrite calls instead of 18 and 6; 27 instead of 47 µs of CPU), and other processes
        see them change together. What was counted is committed even when the block raises (a 429 after
        the first counter), exactly as if each statement had committed on its own.
        """
        with self._turn:
            conn = self._conn()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield
            finally:
                if conn.in_transaction:  # an I/O error may have rolled it back already
                    conn.execute("COMMIT")

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        with self._turn:
            row = (
                self._conn()
                .execute(_INCR, {"key": key, "amount": amount, "now": time.time(), "expiry": expiry})
                .fetchone()
            )
        return int(row[0])

    def get(self, key: str) -> int:
        row = (
            self._conn()
            .execute("SELECT value FROM counters WHERE key = ? AND expires_at > ?", (key, time.time()))
            .fetchone()
        )
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._conn().execute("SELECT expires_at FROM counters WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row and row[0] > time.time() else time.time()

    def check(self) -> bool:
        return self._conn().execute("SELECT 1").fetchone() is not None

    def reset(self) -> int | None:
        return self._conn().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        self._conn().execute("DELETE FROM counters WHERE key = ?", (key,))

    def purge_expired(self) -> int:
        return self._conn().execute("DELETE FROM counters WHERE expires_at <= ?", (time.time(),)).rowcount
