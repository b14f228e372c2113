"""The tantivy index keeps what ranking reads of each company (`search.rows.RankRow`, schema version 3),
so that search and autocomplete read no database row but the final page's: the copy equals the
database's, the answers equal those ranked from database rows, an index of the older layout answers
from the database until it is rebuilt, and a company gone from the database is not shown."""

from __future__ import annotations

import dataclasses
import json
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
import tantivy
from sqlalchemy import delete, select

from regintel.areas.search import service as svc
from regintel.db.schema import companies, financial_statements
from regintel.domain.types import CompanyRecord, FinancialRecord
from regintel.search import documents as docs
from regintel.search import get_backend, rows
from regintel.search import tantivy_index as ti
from regintel.search.base import Filters, QueryWords
from tests.builders import TEST_SOURCE, load_companies
from tests.search.test_ranking_http import OTHERS, PL_NAMESAKES

SECOND = dataclasses.replace(TEST_SOURCE, id="test_second", name="A second register")
QUERIES = (
    "Alfachem sp. z o.o.",
    "alfachem",
    "Alfachem Polska",
    "sp. z o.o. Alfachem",
    "Alfachem Gdańsk",
    "alfahcem",
    "ALFACHEM LTD",
    "Telenet Italia",
    "nord bau",
    "bau nord",
    "Alfa",
    "Alfachem s",
)


class IdsOnly:
    """The same index seen as a backend that keeps no ranking rows (as sqlite_fts and pg_trgm)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name

    def candidates(self, *args: Any) -> list[int]:
        return list(self.inner.candidates(*args))


@pytest.fixture
def index(engine, settings):
    load_companies(engine, *PL_NAMESAKES, *OTHERS)
    # a namesake known to two registers, and one with two statements of one year: prominence reads both
    load_companies(engine, PL_NAMESAKES[1], source=SECOND)
    load_companies(
        engine,
        CompanyRecord(
            country="PL",
            national_id="0000100009",
            name="Alfachem sp. z o.o.",
            employees=5,
            legal_form="O7XB",
            founded_on=date(2018, 1, 1),
            financials=[FinancialRecord(year=2024, currency="PLN", revenue=Decimal("9000000"))],
        ),
    )
    load_companies(
        engine,
        CompanyRecord(
            country="PL",
            national_id="0000100009",
            name="Alfachem sp. z o.o.",
            financials=[FinancialRecord(year=2024, currency="PLN", revenue=Decimal("9500000"))],
        ),
        source=SECOND,
    )
    backend = get_backend(engine, settings, "tantivy")
    with engine.begin() as conn:
        backend.ensure_current(conn)
    return backend


def _answers(engine: Any, backend: Any) -> list[Any]:
    with engine.connect() as conn:
        return [
            (
                q,
                svc.search(conn, backend, q, None, 20, 1)[0],
                svc.autocomplete(conn, backend, q, None, 5, False),
            )
            for q in QUERIES
        ]


def test_the_index_copy_equals_the_database(engine, index):
    with engine.connect() as conn:
        found = index.candidate_rows(conn, QueryWords(("alfachem",)), Filters(), 100)
        db_rows = {int(r.id): r for r in rows.ranking_rows(conn, [r.id for r in found])}
        extras = rows.prominence_extras(conn, list(db_rows))
        assert len(found) == len(db_rows) == 15
        assert all(isinstance(r, rows.RankRow) for r in found)
        for r in found:
            assert r == rows.rank_row(db_rows[r.id], extras[r.id])
        two = next(r for r in found if r.city == "Gdańsk")
        assert (two.founded_on, two.employees, two.sources, two.revenue) == ("2015-01-01", 5, 2, None)
        # of two registers' statements for the same year, the larger revenue, whichever comes back first
        assert {r.revenue for r in found if r.sources == 2} == {None, 9500000.0}


def test_answers_equal_those_ranked_from_database_rows(engine, index):
    assert _answers(engine, index) == _answers(engine, IdsOnly(index))


def test_search_reads_no_candidate_row(engine, index, monkeypatch):
    expected = _answers(engine, index)

    def refuse(*args: Any) -> Any:
        raise AssertionError("read from the database")

    monkeypatch.setattr(rows, "ranking_rows", refuse)
    monkeypatch.setattr(rows, "prominence_extras", refuse)
    assert _answers(engine, index) == expected


def _write_version_2(engine: Any, backend: ti.TantivyBackend) -> None:
    """An index as version 2 wrote it: no `row` field, `schema: 2` in its state."""
    generation = "g1"
    path = backend.root / generation
    (path / "index").mkdir(parents=True)
    index = tantivy.Index(ti.schema(2), path=str(path / "index"))
    writer = index.writer(heap_size=ti.SMALL_HEAP, num_threads=1)
    with engine.connect() as conn:
        for batch in docs.company_batches(conn):
            for d in batch:
                writer.add_document(ti._company_doc(dataclasses.replace(d, ranking=None)))
        watermark = docs.current_watermark(conn)
    writer.commit()
    writer.wait_merging_threads()
    (path / "state.json").write_text(json.dumps(watermark.as_dict() | {"schema": 2}), encoding="utf-8")
    (backend.root / "CURRENT").write_text(generation, encoding="utf-8")


def test_an_older_index_answers_from_the_database_until_rebuilt(engine, settings, tmp_path):
    load_companies(engine, *PL_NAMESAKES, *OTHERS)
    backend = ti.TantivyBackend(tmp_path / "old" / "tantivy")
    _write_version_2(engine, backend)
    with engine.connect() as conn:
        assert backend.candidate_rows(conn, QueryWords(("alfachem",)), Filters(), 10) is None
    before = _answers(engine, backend)
    assert before[0][1][0]["name"] == "Alfachem sp. z o.o."
    with engine.begin() as conn:
        assert backend.ensure_current(conn) == "built"
    with engine.connect() as conn:
        assert len(backend.candidate_rows(conn, QueryWords(("alfachem",)), Filters(), 10) or []) == 10
    assert _answers(engine, backend) == before


def test_a_company_gone_from_the_database_is_not_shown(engine, index):
    with engine.begin() as conn:
        gone = conn.execute(
            select(companies.c.id).where(companies.c.national_id == PL_NAMESAKES[0].national_id)
        ).scalar_one()
        conn.execute(delete(financial_statements).where(financial_statements.c.company_id == gone))
        conn.execute(delete(companies).where(companies.c.id == gone))  # the index is not told
    with engine.connect() as conn:
        items, _ = svc.search(conn, index, "Alfachem sp. z o.o.", "PL", 5, 1)
    assert PL_NAMESAKES[0].national_id not in {i["nationalId"] for i in items}
    assert len(items) == 5 and {i["name"] for i in items} == {"Alfachem sp. z o.o."}


def test_the_copy_follows_new_statements_and_sources(engine, index):
    """What the index keeps of a company changes when a later import changes it: a statement, a second
    register describing it (both move the company's `updated_at`, which the catch-up follows)."""
    big = PL_NAMESAKES[0]
    load_companies(
        engine,
        dataclasses.replace(
            big, financials=[FinancialRecord(year=2025, currency="PLN", revenue=Decimal("123"))]
        ),
        finish_index=False,
    )
    load_companies(engine, big, source=SECOND, finish_index=False)
    with engine.begin() as conn:
        assert index.ensure_current(conn) == "updated"
    with engine.connect() as conn:
        found = index.candidate_rows(conn, QueryWords(("alfachem",)), Filters(country="PL"), 100)
    row = next(r for r in found if r.city == "Kraków")
    assert (row.revenue, row.sources) == (123.0, 2)
