"""The tantivy index is asked first for names holding every query word, and for names missing one only
when too few have them all (`search.fuzzy.every_word_first`, `tantivy_index.EVERY_WORD_ENOUGH`): as
written when some name holds every word (`tantivy_index.FILL`), within the typo rules when none does."""

from __future__ import annotations

import pytest

from regintel.areas.search import service as svc
from regintel.domain.types import CompanyRecord
from regintel.search import get_backend, tantivy_index
from regintel.search.base import Filters, QueryWords
from regintel.search.fuzzy import every_word_first
from tests.builders import load_companies

NAMES = [
    ("01111111", "Tabacu Holding Limited"),
    ("02222222", "Tabacu Holding Impex Limited"),
    ("03333333", "Alfa Holding Limited"),
    ("04444444", "Tabacu Impex Limited"),
    ("05555555", "Beta Holding Limited"),
]


@pytest.fixture
def index(engine, settings):
    load_companies(
        engine, *(CompanyRecord(country="GB", national_id=i, name=n, status="active") for i, n in NAMES)
    )
    backend = get_backend(engine, settings, "tantivy")
    with engine.begin() as conn:
        backend.ensure_current(conn)
    return backend


def found(engine, index, q: str) -> set[str]:
    with engine.connect() as conn:
        return {i["name"] for i in svc.search(conn, index, q, None, 20, 1)[0]}


def test_names_holding_every_word_answer_alone_when_enough(engine, index, monkeypatch):
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 2)
    both = {"Tabacu Holding Limited", "Tabacu Holding Impex Limited"}
    assert found(engine, index, "tabacu holding") == both
    assert found(engine, index, "tabacu holdnig") == both  # a typo within the rules holds the word


def test_too_few_names_with_every_word_fill_the_page_with_names_missing_one(engine, index, monkeypatch):
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 3)
    names = found(engine, index, "tabacu holding")
    assert {"Tabacu Holding Limited", "Tabacu Holding Impex Limited", "Tabacu Impex Limited"} <= names
    with engine.connect() as conn:
        first = svc.search(conn, index, "tabacu holding", None, 20, 1)[0]
    # names holding every word still come first
    assert {i["name"] for i in first[:2]} == {"Tabacu Holding Limited", "Tabacu Holding Impex Limited"}


def test_the_filler_asks_the_words_as_written(engine, index, monkeypatch):
    """Two names hold "tabacu" and "holding" (the latter mistyped): the page is filled with names
    holding one of the words as typed, so "holdnig" brings no other Holding."""
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 3)
    names = found(engine, index, "tabacu holdnig")
    assert {"Tabacu Holding Limited", "Tabacu Holding Impex Limited", "Tabacu Impex Limited"} <= names
    assert "Alfa Holding Limited" not in names
    monkeypatch.setattr(tantivy_index, "FILL", "fuzzy")  # the rule before: the typo rules fill too
    assert "Alfa Holding Limited" in found(engine, index, "tabacu holdnig")


def test_the_filler_completes_an_unfinished_last_word(engine, index, monkeypatch):
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 3)
    with engine.connect() as conn:
        items = svc.autocomplete(conn, index, "tabacu imp", None, 10, False)
    names = [i["name"] for i in items]
    assert set(names[:2]) == {"Tabacu Impex Limited", "Tabacu Holding Impex Limited"}
    assert "Tabacu Holding Limited" in names  # missing the unfinished word, after those holding it


def test_no_name_with_every_word_falls_back(engine, index, monkeypatch):
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 1)
    assert "Tabacu Impex Limited" in found(engine, index, "tabacu trading")


def test_one_word_and_loose_queries_are_asked_once():
    assert not every_word_first(QueryWords(("tabacu",)))
    assert not every_word_first(QueryWords(("tabacu", "bucuresti"), loose=True))
    assert every_word_first(QueryWords(("tabacu", "holding")))


def test_loose_candidates_keep_names_missing_a_word(engine, index, monkeypatch):
    monkeypatch.setattr(tantivy_index, "EVERY_WORD_ENOUGH", 1)
    with engine.connect() as conn:
        loose = QueryWords(("tabacu", "holding"), loose=True)
        ids = index.candidates(conn, "companies", loose, Filters(), 20)
    assert len(ids) == len(NAMES)  # every name holds one of the two words
