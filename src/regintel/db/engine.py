"""Engine construction for SQLite (embedded default) and PostgreSQL, plus dialect helpers."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Table, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

from regintel.db.driver import driver_cursor
from regintel.db.prepared import note_statement


def normalise_url(url: str) -> str:
    """Accept plain `postgresql://` URLs and route them to psycopg 3."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def make_engine(
    url: str,
    *,
    statement_timeout_ms: int | None = None,
    pool: bool = True,
    pool_size: int = 10,
    pre_ping: bool = True,
    max_overflow: int = 16,
) -> Engine:
    """An engine with the pragmas every connection needs (WAL, foreign keys, busy timeout on SQLite).
    The pool keeps `pool_size` connections and lends up to `max_overflow` more under bursts (the API
    gates its requests to `pool_size - 4`, api/db_gate.py, so their checkouts never wait)."""
    pool_args: dict[str, Any] = {"pool_size": pool_size, "max_overflow": max_overflow, "pool_timeout": 10}
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            **(pool_args if pool else {"poolclass": NullPool}),
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        # pysqlite's own transaction handling defers BEGIN; emit it ourselves so that
        # SQLAlchemy's transaction boundaries are SQLite's (documented SQLAlchemy recipe).
        event.listen(engine, "begin", _sqlite_begin)
        event.listen(engine, "before_cursor_execute", note_statement)
        return engine
    # Timestamps leave the database in UTC whatever the server's zone (DESIGN.md: UTC with `Z`).
    options = "-c timezone=UTC" + (
        f" -c statement_timeout={statement_timeout_ms}" if statement_timeout_ms else ""
    )
    kwargs: dict[str, Any] = {"pool_pre_ping": pre_ping, **pool_args} if pool else {"poolclass": NullPool}
    engine = create_engine(url, connect_args={"options": options}, **kwargs)
    event.listen(engine, "before_cursor_execute", note_statement)
    return engine


def _sqlite_begin(conn: Connection) -> None:
    # A transaction that reads, then writes while another connection committed in between, fails at
    # once with "database is locked" (WAL snapshot); BEGIN IMMEDIATE takes the write lock first and
    # waits for it instead. Writers that read first ask for it: `execution_options(sqlite_immediate=True)`.
    immediate = conn.get_execution_options().get("sqlite_immediate", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def begin_write(engine: Engine) -> AbstractContextManager[Connection]:
    """A transaction that writes: on SQLite it holds the write lock from its first statement (BEGIN
    IMMEDIATE), so reads before its writes cannot go stale under another writer's commit; elsewhere a
    plain transaction. Every transaction that writes begins here, whatever it reads first: which of
    them read before writing changes as the code does, and a deferred one fails only under load."""
    return engine.execution_options(sqlite_immediate=True).begin()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA cache_size=-65536")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.close()


def is_sqlite(conn_or_engine: Connection | Engine) -> bool:
    return conn_or_engine.dialect.name == "sqlite"


# The INSERT of either dialect: both offer `on_conflict_do_update`, `on_conflict_do_nothing`, `excluded`.
DialectInsert = sqlite.Insert | postgresql.Insert


def insert_for(conn: Connection | Engine, table: Table) -> DialectInsert:
    """The dialect's INSERT, which offers `on_conflict_do_update` / `on_conflict_do_nothing`."""
    if is_sqlite(conn):
        return sqlite.insert(table)
    return postgresql.insert(table)


def upsert(
    conn: Connection,
    table: Table,
    rows: Sequence[dict[str, Any]],
    keys: Sequence[str],
    update: Sequence[str] | None = None,
) -> None:
    """Insert rows, updating `update` columns (default: all non-key columns) when `keys` collide.

    One statement executed with many parameter sets: the statement compiles once (cached), the
    driver batches the rows. A multi-row VALUES statement instead recompiles per batch, which
    profiling showed to dominate bulk imports.
    """
    if not rows:
        return
    columns = list(rows[0])
    update = [c for c in (update if update is not None else columns) if c not in keys]
    cache_key = (conn.dialect.name, table, tuple(columns), tuple(keys), tuple(update))
    stmt = _UPSERTS.get(cache_key)
    if stmt is None:
        stmt = insert_for(conn, table)
        if update:
            stmt = stmt.on_conflict_do_update(
                index_elements=list(keys), set_={c: stmt.excluded[c] for c in update}
            )
        else:
            stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
        _UPSERTS[cache_key] = stmt
    execute_many(conn, stmt, rows)


_UPSERTS: dict[tuple[Any, ...], DialectInsert] = {}
_COMPILED: dict[tuple[Any, ...], tuple[str, list[tuple[str, Any]]]] = {}


def execute_many(conn: Connection, stmt: Any, rows: Sequence[dict[str, Any]]) -> None:
    """Execute a DML statement without RETURNING once per row, all rows of a dict shape alike.

    The statement compiles once per column set (cached by statement object, so pass statements
    built once, like those of `upsert`) and each value goes through its column type's bind
    processor as SQLAlchemy would, straight to the driver's executemany (SQLite: tuples;
    psycopg: pipelined). SQLAlchemy's own executemany spends about 10 us a row building
    parameters, which profiling showed to be the larger part of the loader's time on SQLite.
    """
    if not rows:
        return
    columns = tuple(rows[0])
    entry = _COMPILED.get((stmt, columns, conn.dialect.name))
    if entry is None:
        compiled = stmt.compile(dialect=conn.dialect, column_keys=list(columns), for_executemany=True)
        processors = compiled._bind_processors  # noqa: SLF001 - the type conversions SQLAlchemy applies
        names = compiled.positiontup if compiled.positional else list(compiled.binds)
        entry = (str(compiled), [(name, processors.get(name)) for name in names or ()])
        _COMPILED[(stmt, columns, conn.dialect.name)] = entry
    sql, order = entry
    if is_sqlite(conn):
        conn.exec_driver_sql(
            sql,
            [tuple(row[name] if proc is None else proc(row[name]) for name, proc in order) for row in rows],
        )
        return
    params = [{name: row[name] if proc is None else proc(row[name]) for name, proc in order} for row in rows]
    with driver_cursor(conn) as cursor:
        cursor.executemany(sql, params)  # psycopg pipelines the rows


def insert_returning(
    conn: Connection, table: Table, rows: Sequence[dict[str, Any]], returning: Sequence[str]
) -> list[tuple[Any, ...]]:
    """Insert rows (all of a dict shape alike) and return the `returning` columns of each, in no
    particular order. On SQLite in multi-row VALUES statements of up to 500 rows, their SQL cached
    and the values converted as in `execute_many`; on PostgreSQL one short statement through
    psycopg's pipelined executemany. (SQLAlchemy's batched RETURNING sends 1,000-row statements
    that psycopg re-parses uncached: a third of a PostgreSQL import's time in profiles.)"""
    if not rows:
        return []
    columns = tuple(rows[0])
    if not is_sqlite(conn):
        return _pg_insert_returning(conn, table, columns, rows, tuple(returning))
    entry = _COMPILED.get((table, columns))
    if entry is None:
        compiled = table.insert().compile(dialect=conn.dialect, column_keys=list(columns))
        processors = compiled._bind_processors  # noqa: SLF001 - the type conversions SQLAlchemy applies
        entry = ("", [(name, processors.get(name)) for name in compiled.positiontup or ()])
        _COMPILED[(table, columns)] = entry
    order = entry[1]
    quote = conn.dialect.identifier_preparer.quote
    head = f"INSERT INTO {quote(table.name)} ({', '.join(quote(name) for name, _ in order)}) VALUES "
    group = "(" + ", ".join("?" * len(order)) + ")"
    tail = " RETURNING " + ", ".join(quote(c) for c in returning)
    per = max(1, min(500, 30_000 // max(1, len(order))))
    out: list[tuple[Any, ...]] = []
    for start in range(0, len(rows), per):
        chunk = rows[start : start + per]
        params = [row[name] if proc is None else proc(row[name]) for row in chunk for name, proc in order]
        sql = head + ", ".join([group] * len(chunk)) + tail
        out.extend(conn.exec_driver_sql(sql, tuple(params)).all())
    return out


def _pg_insert_returning(
    conn: Connection,
    table: Table,
    columns: tuple[str, ...],
    rows: Sequence[dict[str, Any]],
    returning: tuple[str, ...],
) -> list[tuple[Any, ...]]:
    key = (table, columns, returning)
    entry = _PG_COMPILED.get(key)
    if entry is None:
        stmt = table.insert().returning(*(table.c[c] for c in returning))
        compiled = stmt.compile(dialect=conn.dialect, column_keys=list(columns))
        processors = compiled._bind_processors  # noqa: SLF001 - the type conversions SQLAlchemy applies
        entry = (str(compiled), [(name, processors.get(name)) for name in compiled.binds])
        _PG_COMPILED[key] = entry
    sql, order = entry
    params = [{name: row[name] if proc is None else proc(row[name]) for name, proc in order} for row in rows]
    cursor = driver_cursor(conn)
    try:
        cursor.executemany(sql, params, returning=True)
        out: list[tuple[Any, ...]] = []
        while True:
            out.extend(cursor.fetchall())
            if not cursor.nextset():
                return out
    finally:
        cursor.close()


_PG_COMPILED: dict[tuple[Any, ...], tuple[str, list[tuple[str, Any]]]] = {}
