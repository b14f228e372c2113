"""Selects compiled once per dialect and run straight on the DB-API cursor: the hot read path.

SQLAlchemy's execution machinery (cache key, execution context, result metadata, events) costs
about 60 µs a statement; SQLite answers an indexed read in about 15 µs, so a company record of
four reads spent most of its time in the toolkit (bench/bench_lookup.py; docs/performance.md).
A `Prepared` select keeps what matters of that machinery, computed once per dialect: the SQL
text, the order of positional parameters, the bind processors, and each result column's result
processor (the same functions a `CursorResult` applies: dates and timestamps parsed on SQLite,
JSON decoded, booleans). Rows come back as plain dicts keyed by column name.

What it gives up: SQLAlchemy's `begin` event does not fire, so on SQLite the reads run outside
an explicit transaction unless the connection is already in one (each read sees committed
data; the record's reads need not share one snapshot, the same trade as the PostgreSQL lookups
make in api/routers/lookup.py). Use it for plain reads only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NoReturn

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import Select

from regintel.db.driver import driver_cursor


@dataclass
class _Plan:
    sql: str
    positional: tuple[str, ...] | None  # parameter names in placeholder order; None for named styles
    defaults: dict[str, Any]  # values bound in the statement itself (LIMIT 1)
    binds: dict[str, Callable[[Any], Any]]
    keys: tuple[str, ...]
    types: tuple[Any, ...]
    # Some drivers' processors depend on the type code the cursor reports (psycopg's numerics), so
    # they are looked up at the first execution, as a CursorResult does at every one.
    processors: tuple[Callable[[Any], Any] | None, ...] | None = None


class Prepared:
    """A select to run many times with different parameters (`first`, `all`)."""

    def __init__(self, statement: Select[Any]):
        self.statement = statement
        self._plans: dict[str, _Plan] = {}

    def first(self, conn: Connection, **params: Any) -> dict[str, Any] | None:
        rows = self._run(conn, params, one=True)
        return rows[0] if rows else None

    def all(self, conn: Connection, **params: Any) -> list[dict[str, Any]]:
        return self._run(conn, params, one=False)

    def _run(self, conn: Connection, params: dict[str, Any], *, one: bool) -> list[dict[str, Any]]:
        block = _block(conn)
        if block is not None:
            if (got := block.held.get(_key(self, params, one))) is not None:
                return list(got.typed())
            block.asked()
        plan, args = self._args(conn, params)
        try:
            cursor = driver_cursor(conn)
            try:
                cursor.execute(plan.sql, args)
                return _typed(plan, _fetch(conn, plan, cursor, one))
            finally:
                cursor.close()
        except Exception as exc:
            _raise_as_sqlalchemy(conn, exc, plan.sql, args)

    def _args(self, conn: Connection, params: dict[str, Any]) -> tuple[_Plan, Any]:
        plan = self._plans.get(conn.dialect.name) or self._plan(conn.dialect)
        values = {**plan.defaults, **params}
        for name, bind in plan.binds.items():
            values[name] = bind(values[name])
        return plan, (tuple(values[n] for n in plan.positional) if plan.positional is not None else values)

    def _plan(self, dialect: Dialect) -> _Plan:
        compiled: Any = self.statement.compile(dialect=dialect)
        positional = tuple(compiled.positiontup) if compiled.positional else None
        defaults = {name: value for name, value in compiled.params.items() if value is not None}
        binds = {name: proc for name, proc in compiled._bind_processors.items() if proc is not None}
        keys = tuple(column[0] for column in compiled._result_columns)
        types = tuple(column[3] for column in compiled._result_columns)
        plan = self._plans[dialect.name] = _Plan(str(compiled), positional, defaults, binds, keys, types)
        return plan


def _fetch(conn: Connection, plan: _Plan, cursor: Any, one: bool) -> list[tuple[Any, ...]]:
    """The rows as the driver returns them (tuples), before any result processor."""
    if plan.processors is None:
        plan.processors = tuple(
            t._cached_result_processor(conn.dialect, d[1])
            for t, d in zip(plan.types, cursor.description, strict=True)
        )
    if one:
        row = cursor.fetchone()
        return [] if row is None else [row]
    rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


def _typed(plan: _Plan, raw: Sequence[tuple[Any, ...]]) -> list[dict[str, Any]]:
    keys, processors = plan.keys, plan.processors
    assert processors is not None  # set by `_fetch`, which every row passed through
    return [
        {
            k: (p(v) if p is not None and v is not None else v)
            for k, p, v in zip(keys, processors, row, strict=True)
        }
        for row in raw
    ]


Read = tuple[Prepared, dict[str, Any], bool]  # (select, parameters, first row only)


def run_together(conn: Connection, reads: list[Read]) -> list[list[dict[str, Any]]]:
    """Reads whose parameters are all known beforehand. On PostgreSQL they are sent in one pipeline
    (psycopg's pipeline mode): one network round trip for all of them instead of one each, which is
    most of what a read costs there. Elsewhere one after another."""
    block = _block(conn)
    if block is not None:  # what a read-ahead holds already is not asked again
        held = [block.held.get(_key(prepared, params, one)) for prepared, params, one in reads]
        if any(got is not None for got in held):
            missing = [read for read, got in zip(reads, held, strict=True) if got is None]
            fetched = iter(run_together(conn, missing))
            return [list(got.typed()) if got is not None else next(fetched) for got in held]
        if reads:
            block.asked()
    return [got.typed() for got in _read_raw(conn, reads)]


def _read_raw(conn: Connection, reads: Sequence[Read]) -> list[_Ahead]:
    if conn.dialect.name != "postgresql":
        out = []
        sqlite: Any = conn.connection.driver_connection
        for prepared, params, one in reads:
            plan, args = prepared._args(conn, params)
            try:
                cursor = sqlite.cursor()
                try:
                    cursor.execute(plan.sql, args)
                    out.append(_Ahead(plan, _fetch(conn, plan, cursor, one)))
                finally:
                    cursor.close()
            except Exception as exc:
                _raise_as_sqlalchemy(conn, exc, plan.sql, args)
        return out
    planned = [(prepared._args(conn, params), one) for prepared, params, one in reads]
    try:
        driver: Any = conn.connection.driver_connection
        cursors = [driver.cursor() for _ in planned]
        try:
            with driver.pipeline():
                for cursor, ((plan, args), _) in zip(cursors, planned, strict=True):
                    cursor.execute(plan.sql, args)
            return [
                _Ahead(plan, _fetch(conn, plan, cursor, one))
                for cursor, ((plan, _), one) in zip(cursors, planned, strict=True)
            ]
        finally:
            for cursor in cursors:
                cursor.close()
    except Exception as exc:
        _raise_as_sqlalchemy(conn, exc, "; ".join(plan.sql for (plan, _), _ in planned), None)


def _raise_as_sqlalchemy(conn: Connection, exc: Exception, sql: str, args: Any) -> NoReturn:
    """A driver error raised as SQLAlchemy raises it from its own execution: wrapped in the `DBAPIError`
    subclass of its kind (`OperationalError` for a statement timeout or a dropped connection), so the API's
    error handlers answer 503 for what they answer 503 elsewhere, and with the connection invalidated when
    the server dropped it (a restart: the pool must not hand it out again)."""
    dialect = conn.dialect
    if not isinstance(exc, dialect.loaded_dbapi.Error):
        raise exc
    gone = dialect.is_disconnect(exc, conn.connection.dbapi_connection, None)
    if gone:
        conn.invalidate(exc)
    raise DBAPIError.instance(
        sql, args, exc, dialect.loaded_dbapi.Error, connection_invalidated=gone, dialect=dialect
    ) from exc


class _Ahead:
    """One read's rows as read ahead: the driver's tuples, typed (result processors applied) only when
    a read inside the block asks for them, so a caller that answers from `Block.rows` alone types none."""

    __slots__ = ("plan", "raw", "_rows")

    def __init__(self, plan: _Plan, raw: list[tuple[Any, ...]]):
        self.plan, self.raw = plan, raw
        self._rows: list[dict[str, Any]] | None = None

    def typed(self) -> list[dict[str, Any]]:
        if self._rows is None:
            self._rows = _typed(self.plan, self.raw)
        return self._rows


class Block:
    """A `read_ahead` block: the rows it holds, and whether a `Prepared` read inside it went to the
    database (`missed`): then the block's rows are not all the code inside it read."""

    __slots__ = ("conn", "held", "parent", "missed", "_order")

    def __init__(
        self,
        conn: Connection,
        held: dict[tuple[Any, ...], _Ahead],
        order: list[tuple[Any, ...]],
        parent: Block | None,
    ):
        self.conn, self.held, self.parent, self._order = conn, held, parent, order
        self.missed = False

    def asked(self) -> None:
        block: Block | None = self
        while block is not None:
            block.missed = True
            block = block.parent

    @property
    def rows(self) -> tuple[tuple[tuple[Any, ...], ...], ...]:
        """Every read's rows as the driver returned them, in the order the reads were given: all the
        block read, to key what is derived from it (a changed row is a new key)."""
        return tuple(tuple(self.held[key].raw) for key in self._order)


# The open `read_ahead` block, bound to the connection it read on. A context variable, not
# `Connection.info`: every `Prepared` read inside the block looks here, and `info` is three property hops
# through the pool's connection record (13 lookups were about 5% of the LEI record's reads).
_AHEAD: ContextVar[Block | None] = ContextVar("regintel.read_ahead", default=None)


def _block(conn: Connection) -> Block | None:
    block = _AHEAD.get()
    return block if block is not None and block.conn is conn else None


def note_statement(conn: Connection, *_event: Any) -> None:
    """The engines' `before_cursor_execute` listener (db/engine.py): a statement that SQLAlchemy runs on
    a connection inside its read-ahead block is a read the block does not hold, so `missed` covers the
    reads made past `Prepared` too."""
    block = _block(conn)
    if block is not None:
        block.asked()


def _key(prepared: Prepared, params: dict[str, Any], one: bool) -> tuple[Any, ...]:
    if len(params) < 2:  # most reads take one parameter (a company id): nothing to order
        return (prepared, one, *params.items())
    return (prepared, one, *sorted(params.items()))


@contextmanager
def read_ahead(conn: Connection, reads: Sequence[Read]) -> Iterator[Block]:
    """Run `reads` together now (one round trip on PostgreSQL, `run_together`) and let the code inside the
    block find their answers: a `Prepared` read with the same parameters on the same connection returns the
    rows read ahead instead of asking the database, as often as it is made. For a use case whose reads are
    spread over several areas' functions but all known from one row (the LEI record: the company's
    screening, hits, statements, notices and NIS2 assessment), so the areas keep their functions and the
    path makes one round trip for all of them. Plain reads only: a write inside the block is not seen by
    the reads it answers. The `Block` it yields has the rows as read (`rows`) and says whether a read
    inside went to the database after all (`missed`)."""
    outer = _block(conn)
    held = dict(outer.held) if outer is not None else {}
    order = [_key(*read) for read in reads]
    wanted: dict[tuple[Any, ...], Read] = {}
    for key, read in zip(order, reads, strict=True):
        if key not in held:
            wanted[key] = read
    held.update(zip(wanted, _read_raw(conn, list(wanted.values())), strict=True))
    block = Block(conn, held, order, outer)
    token = _AHEAD.set(block)
    try:
        yield block
    finally:
        _AHEAD.reset(token)
