"""Parsing ahead in a forked process gives the same import as parsing in the loading process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest
from sqlalchemy import select

from regintel.db.schema import companies, company_changes
from regintel.ingest import pipeline
from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.runner import run_import
from tests.ingest.import_helpers import get_source

FIXTURES = Path(__file__).parent.parent / "fixtures"
SAMPLE = FIXTURES / "gb_companies_house" / "basic_company_data_sample_2021.csv"


def _state(engine):
    with engine.connect() as conn:
        rows = conn.execute(
            select(companies.c.national_id, companies.c.name, companies.c.status).order_by(
                companies.c.national_id
            )
        ).all()
        fields = (
            conn.execute(select(company_changes.c.field).order_by(company_changes.c.field)).scalars().all()
        )
    return rows, fields


@pytest.mark.skipif(not pipeline.worthwhile(None), reason="needs fork and a second core")
def test_parse_ahead_imports_the_same(engine, settings, tmp_path, monkeypatch):
    monkeypatch.setattr(pipeline, "CHUNK", 3)  # several chunks through the queue
    source = get_source("gb_companies_house")
    _, first, _ = run_import(engine, source, str(SAMPLE), settings.data_dir, batch_size=7, parse_ahead=True)
    assert first.inserted > 3 and first.read == first.inserted + first.rejected + first.skipped
    state = _state(engine)
    _, again, _ = run_import(engine, source, str(SAMPLE), settings.data_dir, batch_size=7, parse_ahead=True)
    assert (again.unchanged, again.inserted, again.updated) == (first.inserted, 0, 0)
    assert _state(engine) == state


class _Failing:
    info = get_source("gb_companies_house").info

    def __init__(self, error: Exception):
        self.error = error

    def parse(self, stream: BinaryIO, name: str) -> Iterator[object]:
        yield RecordError("bad row", {"line": 1})
        raise self.error


class _Unpicklable(Exception):
    def __init__(self, a: str, b: str):
        super().__init__(a)


@pytest.mark.skipif(not pipeline.worthwhile(None), reason="needs fork and a second core")
def test_errors_in_the_parsing_process_reach_the_import(engine, settings):
    with pytest.raises(SourceAbort, match="not this format"):
        run_import(
            engine,
            _Failing(SourceAbort("not this format")),
            str(SAMPLE),
            settings.data_dir,  # type: ignore[arg-type]
            parse_ahead=True,
        )
    with pytest.raises(RuntimeError, match="_Unpicklable: boom"):
        run_import(
            engine,
            _Failing(_Unpicklable("boom", "x")),
            str(SAMPLE),
            settings.data_dir,  # type: ignore[arg-type]
            parse_ahead=True,
        )


def test_small_inputs_parse_in_process():
    assert not pipeline.worthwhile(1000)
