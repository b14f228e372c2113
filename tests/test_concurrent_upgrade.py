"""Processes that start together on one new SQLite file (`regintel serve` and `regintel worker`, or an
import beside them) each bring the schema up to date: the migration transaction holds the write lock
from its start (`db.engine.begin_write`), so one migrates and the others then find nothing to do,
instead of failing half-way with "database is locked" or "table already exists"."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import inspect

from regintel.db.engine import make_engine
from regintel.db.migrate import current_revision, head_revision


def test_three_processes_upgrade_one_new_file_at_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'regintel.db'}"
    env = {**os.environ, "REGINTEL_DATABASE_URL": url, "REGINTEL_DATA_DIR": str(tmp_path)}
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "regintel", "db", "upgrade"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outcomes = [(p.wait(timeout=300), p.stderr.read() if p.stderr else "") for p in started]
    assert [code for code, _ in outcomes] == [0, 0, 0], [err[-2000:] for _, err in outcomes]
    engine = make_engine(url, pool=False)
    assert current_revision(engine) == head_revision()
    assert "companies" in inspect(engine).get_table_names()
