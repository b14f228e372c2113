"""Chunk writers for SQLite (executemany) and PostgreSQL (COPY), and the index handling of a fresh
build: secondary indexes are dropped before the load and created again from their own definitions
afterwards, because building an index once by sorting is far cheaper than updating twenty indexes
row by row (companies alone carries about twenty).

The `latest_financials` triggers derive one row per company from its statements; each chunk writes
its earlier statements with them off and each company's latest statement with them on, so they run
once per company and leave the same result as running on every row. On SQLite the name trigram
table (`db.name_trigrams`) is filled the same way: its triggers off during the load, one pass in
name order after it; on PostgreSQL its name table likewise, its GIN index built after the fill.
"""

from __future__ import annotations

from typing import Any

from regintel.db.name_trigrams import FTS_TABLE, PG_FILL, SQLITE_FILL
from regintel.synth.encode import EARLIER, LATEST, TABLES

Encoded = dict[str, Any]
# The tables a build writes, and the derived table its statements feed.
WRITTEN = tuple(t.name for t in TABLES) + ("latest_financials",)
DERIVED_TRIGGER = "trg_latest_financials"
_ORDER = [t.name for t in TABLES if t.name != "financial_statements"]


def _columns(name: str) -> tuple[str, ...]:
    return next(t.columns for t in TABLES if t.name == name.split(":")[0])


class SqliteWriter:
    """executemany per table on a sqlite3 connection: one transaction per chunk, or with `chunk_commits`
    off none at all (the caller holds one around the whole load)."""

    def __init__(self, db: Any, chunk_commits: bool = True):
        self.db = db
        self.chunk_commits = chunk_commits
        self.statements = {
            t.name: f"INSERT INTO {t.name} ({', '.join(t.columns)}) "
            f"VALUES ({', '.join('?' * len(t.columns))})"
            for t in TABLES
        }
        self.triggers = list(
            db.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = "
                "'financial_statements' AND name LIKE ?",
                (DERIVED_TRIGGER + "%",),
            )
        )

    def write(self, rows: Encoded) -> None:
        if not self.chunk_commits:
            self._insert(rows)
            return
        self.db.execute("BEGIN")
        try:
            self._insert(rows)
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _insert(self, rows: Encoded) -> None:
        for name in _ORDER:
            self.db.executemany(self.statements[name], rows[name])
        for name, _ in self.triggers:
            self.db.execute(f'DROP TRIGGER "{name}"')
        self.db.executemany(self.statements["financial_statements"], rows[EARLIER])
        for _, sql in self.triggers:
            self.db.execute(sql)
        self.db.executemany(self.statements["financial_statements"], rows[LATEST])


def sqlite_drop_indexes(db: Any) -> list[str]:
    """Drop the secondary indexes of the written tables; returns their CREATE statements."""
    marks = ",".join("?" * len(WRITTEN))
    saved = [
        (name, sql)
        for name, sql in db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN "
            f"({marks})",
            WRITTEN,
        )
    ]
    for name, _ in saved:
        db.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in saved]


def sqlite_drop_name_triggers(db: Any) -> list[str]:
    """Drop the triggers that keep the name trigram table in step with `companies` (one FTS5 insert per
    company row); returns the statements that fill it afterwards in one pass and create them again."""
    saved = list(
        db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'companies' "
            "AND name LIKE ?",
            (FTS_TABLE + "%",),
        )
    )
    for name, _ in saved:
        db.execute(f'DROP TRIGGER "{name}"')
    return [SQLITE_FILL, *(sql for _, sql in saved)] if saved else []


class PostgresWriter:
    """COPY per table on a psycopg connection; the caller owns the transaction."""

    def __init__(self, db: Any):
        self.db = db
        with db.cursor() as cur:
            cur.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'financial_statements'::regclass "
                "AND NOT tgisinternal AND tgname LIKE %s",
                (DERIVED_TRIGGER + "%",),
            )
            self.triggers = [r[0] for r in cur.fetchall()]

    def write(self, rows: Encoded) -> None:
        with self.db.cursor() as cur:
            for name in _ORDER:
                self._copy(cur, name, rows[name])
            self._switch(cur, "DISABLE")
            self._copy(cur, EARLIER, rows[EARLIER])
            self._switch(cur, "ENABLE")
            self._copy(cur, LATEST, rows[LATEST])

    def _switch(self, cur: Any, action: str) -> None:
        for name in self.triggers:
            cur.execute(f'ALTER TABLE financial_statements {action} TRIGGER "{name}"')

    @staticmethod
    def _copy(cur: Any, name: str, data: bytes) -> None:
        if data:
            with cur.copy(f"COPY {name.split(':')[0]} ({', '.join(_columns(name))}) FROM STDIN") as copy:
                copy.write(data)


def postgres_drop_indexes(db: Any) -> list[str]:
    """Drop the secondary indexes (those no constraint owns) of the written tables; returns their
    definitions. Run inside the build's transaction, so a failed build restores them."""
    return _drop_indexes(db, list(WRITTEN))


def _drop_indexes(db: Any, tables: list[str]) -> list[str]:
    with db.cursor() as cur:
        cur.execute(
            """
            SELECT i.indexname, i.indexdef FROM pg_indexes i
            JOIN pg_class c ON c.relname = i.indexname AND c.relkind = 'i'
            WHERE i.schemaname = current_schema() AND i.tablename = ANY(%s)
              AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid)""",
            (tables,),
        )
        saved = cur.fetchall()
        for name, _ in saved:
            cur.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in saved]


def postgres_drop_name_table(db: Any) -> list[str]:
    """Switch off the triggers that copy each `companies` row into the name table and drop its indexes
    (other than the primary key); returns the statements that fill it in one pass and put both back.
    A fresh build only: the table is as empty as `companies`."""
    with db.cursor() as cur:
        cur.execute("SELECT to_regclass(%s)", (FTS_TABLE,))
        if cur.fetchone()[0] is None:
            return []  # a schema before migration 0010
        cur.execute(
            "SELECT tgname FROM pg_trigger WHERE tgrelid = 'companies'::regclass AND NOT tgisinternal "
            "AND tgname LIKE %s",
            (FTS_TABLE + "%",),
        )
        triggers = [r[0] for r in cur.fetchall()]
        for name in triggers:
            cur.execute(f'ALTER TABLE companies DISABLE TRIGGER "{name}"')
    indexes = _drop_indexes(db, [FTS_TABLE])
    return [PG_FILL, *indexes, *(f'ALTER TABLE companies ENABLE TRIGGER "{name}"' for name in triggers)]
