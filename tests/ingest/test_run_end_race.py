"""A run's end is written while other writers commit (the app's job runner, another import): on SQLite
the transaction that reads the source's row count and then writes the run's row must not fail with
"database is locked" when a commit lands between its read and its write (CI, stop 36)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import event, select

from regintel.db.engine import is_sqlite
from regintel.db.schema import import_runs
from regintel.ingest.runner import run_import
from tests.ingest.import_helpers import FIXTURES, get_source


def test_a_commit_between_the_count_and_the_write_does_not_fail_the_run(engine, settings):
    if not is_sqlite(engine):
        pytest.skip("a WAL snapshot conflict is SQLite's; PostgreSQL rows lock one by one")
    other = sqlite3.connect(engine.url.database, timeout=0, isolation_level=None)
    other.execute("CREATE TABLE elsewhere (x INTEGER)")
    interfered: list[str] = []

    def commit_from_elsewhere(conn, cursor, statement, *_args):
        if statement.lstrip().upper().startswith("SELECT COUNT") and "company_sources" in statement:
            try:
                other.execute("INSERT INTO elsewhere VALUES (1)")
                interfered.append("committed")
            except sqlite3.OperationalError:
                interfered.append("waited")  # the run's transaction already holds the write lock

    event.listen(engine, "after_cursor_execute", commit_from_elsewhere)
    try:
        run_id, stats, _ = run_import(
            engine,
            get_source("no_brreg"),
            str(FIXTURES / "no_brreg" / "enheter-search-page1-response.json"),
            settings.data_dir,
        )
    finally:
        event.remove(engine, "after_cursor_execute", commit_from_elsewhere)
        other.close()
    assert interfered, "the row count was never read"
    with engine.connect() as conn:
        status = conn.execute(select(import_runs.c.status).where(import_runs.c.id == run_id)).scalar_one()
    assert status == "succeeded" and stats.inserted > 0
