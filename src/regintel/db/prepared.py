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
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import Select


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
        ahead = _held(conn)
        if ahead is not None and (rows := ahead.get(_key(self, params, one))) is not None:
            return list(rows)
        plan, args = self._args(conn, params)
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(plan.sql, args)
            return _rows(conn, plan, cursor, one)
        finally:
            cursor.close()

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


def _rows(conn: Connection, plan: _Plan, cursor: Any, one: bool) -> list[dict[str, Any]]:
    if plan.processors is None:
        plan.processors = tuple(
            t._cached_result_processor(conn.dialect, d[1])
            for t, d in zip(plan.types, cursor.description, strict=True)
        )
    raw = [cursor.fetchone()] if one else cursor.fetchall()
    keys, processors = plan.keys, plan.processors
    return [
        {
            k: (p(v) if p is not None and v is not None else v)
            for k, p, v in zip(keys, processors, row, strict=True)
        }
        for row in raw
        if row is not None
    ]


Read = tuple[Prepared, dict[str, Any], bool]  # (select, parameters, first row only)


def run_together(conn: Connection, reads: list[Read]) -> list[list[dict[str, Any]]]:
    """Reads whose parameters are all known beforehand. On PostgreSQL they are sent in one pipeline
    (psycopg's pipeline mode): one network round trip for all of them instead of one each, which is
    most of what a read costs there. Elsewhere one after another."""
    ahead = _held(conn)
    if ahead is not None:  # what a read-ahead holds already is not asked again
        held = [ahead.get(_key(prepared, params, one)) for prepared, params, one in reads]
        if any(rows is not None for rows in held):
            missing = [read for read, rows in zip(reads, held, strict=True) if rows is None]
            fetched = iter(run_together(conn, missing))
            return [list(rows) if rows is not None else next(fetched) for rows in held]
    if conn.dialect.name != "postgresql":
        return [prepared._run(conn, params, one=one) for prepared, params, one in reads]
    driver: Any = conn.connection.driver_connection
    planned = [(prepared._args(conn, params), one) for prepared, params, one in reads]
    cursors = [driver.cursor() for _ in planned]
    try:
        with driver.pipeline():
            for cursor, ((plan, args), _) in zip(cursors, planned, strict=True):
                cursor.execute(plan.sql, args)
        return [
            _rows(conn, plan, cursor, one) for cursor, ((plan, _), one) in zip(cursors, planned, strict=True)
        ]
    finally:
        for cursor in cursors:
            cursor.close()


# The rows a `read_ahead` block holds, with the connection they were read on. A context variable, not
# `Connection.info`: every `Prepared` read inside the block looks here, and `info` is three property hops
# through the pool's connection record (13 lookups were about 5% of the LEI record's reads).
_AHEAD: ContextVar[tuple[Connection, dict[tuple[Any, ...], list[dict[str, Any]]]] | None] = ContextVar(
    "regintel.read_ahead", default=None
)


def _held(conn: Connection) -> dict[tuple[Any, ...], list[dict[str, Any]]] | None:
    ahead = _AHEAD.get()
    return ahead[1] if ahead is not None and ahead[0] is conn else None


def _key(prepared: Prepared, params: dict[str, Any], one: bool) -> tuple[Any, ...]:
    if len(params) < 2:  # most reads take one parameter (a company id): nothing to order
        return (prepared, one, *params.items())
    return (prepared, one, *sorted(params.items()))


@contextmanager
def read_ahead(conn: Connection, reads: Sequence[Read]) -> Iterator[None]:
    """Run `reads` together now (one round trip on PostgreSQL, `run_together`) and let the code inside the
    block find their answers: a `Prepared` read with the same parameters on the same connection returns the
    rows read ahead instead of asking the database, as often as it is made. For a use case whose reads are
    spread over several areas' functions but all known from one row (the LEI record: the company's
    screening, hits, statements, notices and NIS2 assessment), so the areas keep their functions and the
    path makes one round trip for all of them. Plain reads only: a write inside the block is not seen by
    the reads it answers."""
    outer = _held(conn)
    held = dict(outer or {})
    wanted: dict[tuple[Any, ...], Read] = {}
    for read in reads:
        if (key := _key(*read)) not in held:
            wanted[key] = read
    held.update(zip(wanted, run_together(conn, list(wanted.values())), strict=True))
    token = _AHEAD.set((conn, held))
    try:
        yield
    finally:
        _AHEAD.reset(token)
