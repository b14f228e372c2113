"""A tantivy reader follows what another process wrote: a rebuild that moves `CURRENT` to a new
generation, and a commit into the open one. The reader checks both with two `stat` calls per question
(`TantivyBackend._reader`), so each case must be seen by the very next question."""

from __future__ import annotations

from sqlalchemy import Engine, select

from regintel.config import Settings
from regintel.db.schema import companies
from regintel.domain.types import CompanyRecord
from regintel.search import index_root
from regintel.search.base import Filters, QueryWords
from regintel.search.tantivy_index import TantivyBackend
from tests.builders import load_companies


def _ids(backend: TantivyBackend, engine: Engine, word: str) -> list[int]:
    with engine.connect() as conn:
        return backend.candidates(conn, "companies", QueryWords((word,), False), Filters(None), 10)


def _id_of(engine: Engine, national_id: str) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(select(companies.c.id).where(companies.c.national_id == national_id)).scalar_one()
        )


def test_a_reader_sees_another_writers_rebuild_and_commits(engine: Engine, settings: Settings) -> None:
    root = index_root(engine, settings) / "follow-test"
    writer, reader = TantivyBackend(root), TantivyBackend(root)  # as two processes: two open readers
    load_companies(engine, CompanyRecord(country="SK", national_id="35697270", name="Orange Slovakia, a.s."))
    with engine.begin() as conn:
        writer.rebuild(conn)
    assert _ids(reader, engine, "orange") == [_id_of(engine, "35697270")]
    first = (root / "CURRENT").read_text()

    load_companies(engine, CompanyRecord(country="SK", national_id="31322832", name="Zelený Strom s.r.o."))
    with engine.begin() as conn:
        writer.rebuild(conn)  # a new generation: CURRENT is replaced
    assert (root / "CURRENT").read_text() != first
    assert _ids(reader, engine, "zeleny") == [_id_of(engine, "31322832")]

    load_companies(engine, CompanyRecord(country="SK", national_id="36631124", name="Modrý Kameň a.s."))
    with engine.begin() as conn:
        writer.index(conn, [_id_of(engine, "36631124")])  # a commit into the open generation
    assert _ids(reader, engine, "kamen") == [_id_of(engine, "36631124")]
    assert (root / "CURRENT").read_text() != first
