"""PostgreSQL connections kept open for the API's plain reads (api/deps.run_read), in autocommit.

A read took a connection from SQLAlchemy's pool and gave it back: in the worker thread, the checkout,
the switch to autocommit and back, and the return's reset cost about 120 µs of CPU per request, an
eighth of an autocomplete (docs/performance.md, session 23). Held connections skip all of it: each is
switched to autocommit once, taken from a stack and put back, and one is only made when every held
one is in use. The API's `DbGate` lends at most `db_concurrency` permits, so at most that many are ever
held; they stay checked out of the engine's pool, whose overflow is sized for them (api/app.py).

Reads here are plain reads in autocommit, so a held connection carries nothing from one request to the
next: no transaction stays open (SQLAlchemy's own bookkeeping of one is ended after each call), and
session state is never set by these functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

T = TypeVar("T")


class HeldReads:
    """The idle held connections of each engine the API reads from (the primary, its replicas)."""

    def __init__(self) -> None:
        self._idle: dict[Engine, list[Connection]] = {}

    def run(self, engine: Engine, fn: Callable[..., T], *args: object) -> T:
        """`fn(conn, *args)` on a held connection of `engine`; call it in a worker thread. A connection
        the server dropped (a restart: the API's engines do not ping) fails its first statement; then
        every idle one is dropped too, the pool replaced, and the read, safe to ask again, asked once
        more on a new connection."""
        try:
            return self._run(engine, fn, args)
        except DBAPIError as exc:
            if not exc.connection_invalidated:
                raise
            self.drop(engine)
            engine.dispose()
            return self._run(engine, fn, args)

    def _run(self, engine: Engine, fn: Callable[..., T], args: tuple[object, ...]) -> T:
        idle = self._idle.setdefault(engine, [])
        try:
            conn = idle.pop()  # atomic under the GIL: no lock needed between worker threads
        except IndexError:
            conn = engine.connect()
            conn.execution_options(isolation_level="AUTOCOMMIT")
        try:
            result = fn(conn, *args)
        except BaseException:
            # Most failures are the answer (404, 409, 422) and leave the connection as it was; one in the
            # middle of a statement (a timeout, a dropped server) may not, and it is not kept.
            self._give_back(idle, conn, _idle_on_server(conn))
            raise
        self._give_back(idle, conn, True)
        return result

    @staticmethod
    def _give_back(idle: list[Connection], conn: Connection, usable: bool) -> None:
        if usable and not conn.invalidated:
            if conn.in_transaction():  # SQLAlchemy's record of one; autocommit sent no BEGIN
                conn.rollback()
            idle.append(conn)
        else:
            conn.close()

    def held(self, engine: Engine) -> int:
        """How many idle connections of `engine` are held (for tests and metrics)."""
        return len(self._idle.get(engine, ()))

    def drop(self, engine: Engine | None = None) -> None:
        """Close the idle held connections (of `engine`, or all): before the engines are disposed."""
        for held_engine, idle in self._idle.items():
            if engine is None or held_engine is engine:
                while idle:
                    idle.pop().close()


def _idle_on_server(conn: Connection) -> bool:
    """Whether the driver connection is open with no statement or transaction in progress."""
    if conn.invalidated:
        return False
    dbapi = conn.connection.dbapi_connection
    if dbapi is None or dbapi.closed:
        return False
    status = dbapi.info.transaction_status  # psycopg: the server's view, as last reported
    return bool(status == status.IDLE)
