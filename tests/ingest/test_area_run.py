"""`runner.area_run`: the run record every area importer that bypasses the Loader shares (filed statements,
debtor lists, regulated registers, public money): the run row, the reject file and the catalogue entry,
on success and when the import raises."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from regintel.db.schema import data_sources, import_runs
from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import area_run

INFO = SourceInfo(
    id="xx_area_run_test",
    name="An area's own list",
    publisher="Test",
    country="SK",
    category="reference",
    formats="CSV",
    licence="CC0",
    attribution="Test",
    url="https://example.invalid/list.csv",
    cadence="on-demand",
)


def _rows(conn, source_id):
    return 7


def _state(engine):
    with engine.connect() as conn:
        run = conn.execute(select(import_runs).where(import_runs.c.source == INFO.id)).mappings().all()
        src = conn.execute(select(data_sources).where(data_sources.c.id == INFO.id)).mappings().one()
    return run, src


def test_a_run_that_succeeds_records_its_stats_rows_and_rejects(engine, tmp_path):
    with area_run(engine, INFO, "list.csv", tmp_path, _rows) as run:
        with engine.connect() as conn:  # the run row is committed before the import starts
            started = conn.execute(select(import_runs.c.status).where(import_runs.c.id == run.id)).scalar()
        assert started == "running"
        run.stats.read = 3
        run.stats.reject("no name")
        run.rejects("no name", {"line": 2})
    run_id, stats, rejects = run.result()
    assert (run_id, stats.read) == (run.id, 3)
    assert (
        rejects == tmp_path / "rejects" / f"{INFO.id}-{run.id}.jsonl" and rejects.read_text().count("\n") == 1
    )
    runs, src = _state(engine)
    assert [(r["status"], r["location"], r["stats"]["read"]) for r in runs] == [("succeeded", "list.csv", 3)]
    assert runs[0]["finished_at"] is not None
    assert src["row_count"] == 7 and src["last_import_at"] is not None
    assert src["last_run"]["run_id"] == run.id and src["last_run"]["status"] == "succeeded"


def test_a_run_that_raises_is_failed_with_the_stats_it_ends_with(engine, tmp_path):
    with pytest.raises(SourceAbort), area_run(engine, INFO, "bad.csv", tmp_path, _rows) as run:
        run.stats.read = 5
        run.stats = LoadStats(read=1)  # an importer may replace its stats (the figures before a bad file)
        raise SourceAbort("not a CSV")
    runs, src = _state(engine)
    assert [(r["status"], r["stats"]["read"]) for r in runs] == [("failed", 1)]
    assert src["last_run"]["status"] == "failed" and src["last_import_at"] is None
    assert run.result()[2] is None  # nothing rejected: no reject file


def test_on_end_runs_in_the_transaction_that_ends_the_run(engine, tmp_path):
    ends = []

    def on_end(conn, status, stats, now):
        row = conn.execute(select(import_runs.c.status).where(import_runs.c.source == INFO.id)).all()
        ends.append((status, stats.read, [r.status for r in row]))

    with area_run(engine, INFO, "list.csv", tmp_path, _rows, on_end=on_end) as run:
        run.stats.read = 2
    with pytest.raises(SourceAbort), area_run(engine, INFO, "bad.csv", tmp_path, _rows, on_end=on_end):
        raise SourceAbort("not a CSV")
    # each end sees its own run row already marked, before the transaction commits
    assert ends == [("succeeded", 2, ["succeeded"]), ("failed", 0, ["succeeded", "failed"])]


def test_a_failing_on_end_leaves_the_run_unmarked(engine, tmp_path):
    def on_end(conn, status, stats, now):
        raise RuntimeError("the hook broke")

    with pytest.raises(RuntimeError), area_run(engine, INFO, "list.csv", tmp_path, _rows, on_end=on_end):
        pass
    runs, src = _state(engine)
    assert [r["status"] for r in runs] == ["running"] and src["last_run"] is None
