"""The index's question nests its optional clauses (`search.fuzzy.combine`) so that tantivy seeks each at
the candidates instead of buffering their union. The nesting must not change an answer: the same names,
scores and order as the flat boolean query, for every kind of query that adds optional clauses (a typed
legal form and its spelling, a country word, a `country` filter, typos, an unfinished last word)."""

from __future__ import annotations

import itertools

import pytest
import tantivy

from regintel.areas.search import service as svc
from regintel.db.schema import companies
from regintel.domain.name_query import parse
from regintel.domain.types import CompanyRecord
from regintel.search import get_backend, tantivy_index
from regintel.search.base import Filters, QueryWords
from tests.builders import load_companies

STEMS = ["Medichem", "Medchem", "Rose", "Rosa", "Agrotech", "Alfachem", "Metaltech", "Holm"]
FORMS = {
    "GB": ["LIMITED", "LTD"],
    "PL": ["sp. z o.o.", "S.A."],
    "RO": ["SRL", "S.A."],
    "SK": ["s. r. o.", "a. s."],
    "FR": ["SAS", "SASU"],
}
QUERIES = [
    "medichem limited",
    "Medichem LTD",
    "medichem",
    "medichm srl",
    "rose limited",
    "Rosa Polska",
    "alfachem sp. z o.o.",
    "sp. z o.o. alfachem",
    "agrotech holding s. r. o.",
    "metalteh SRL",
    "Holm SASU",
    "holm",
    "alfa",
    "medi",
]


@pytest.fixture
def index(engine, settings):
    records = []
    for n, (stem, (country, forms), extra) in enumerate(
        itertools.product(STEMS, FORMS.items(), ("", " Holding", " Trade"))
    ):
        for k, form in enumerate(forms):
            records.append(
                CompanyRecord(
                    country=country,
                    national_id=f"{n:04d}{k}",
                    name=f"{stem}{extra} {form}",
                    status="active" if (n + k) % 3 else "dissolved",
                )
            )
    load_companies(engine, *records)
    backend = get_backend(engine, settings, "tantivy")
    with engine.begin() as conn:
        backend.ensure_current(conn)
    return backend


def flat(clauses):
    return tantivy.Query.boolean_query(clauses)


def asked(q: str, prefix: bool) -> QueryWords:
    intent = parse(q)
    return svc.asked_words(intent, svc.intent_words(intent, prefix), prefix)


def candidates(engine, index, q: str, prefix: bool, country: str | None) -> list[int]:
    """The index's own order of candidates: a short list, where which names make the cut depends on the
    scores tantivy gives them (the service re-ranks what it gets)."""
    intent = parse(q)
    filters = Filters(country, False, () if country else intent.prefer)
    with engine.connect() as conn:
        return index.candidates(conn, "companies", asked(q, prefix), filters, 7)


@pytest.mark.parametrize("country", [None, "PL"])
def test_nested_optional_clauses_answer_as_the_flat_query(engine, index, monkeypatch, country):
    cases = [(q, prefix) for q in QUERIES for prefix in (False, True)]
    nested = {case: candidates(engine, index, *case, country) for case in cases}
    monkeypatch.setattr(tantivy_index, "combine", flat)
    for case in cases:
        assert candidates(engine, index, *case, country) == nested[case], case
    assert sum(map(len, nested.values())) > 50  # the queries found names at all


def test_the_preferences_still_decide_the_cut(engine, index):
    """Of 45 Medichem-like names the seven first are the typed form's (GB LIMITED/LTD), then of those the
    spelling as typed first: the optional clauses count on their nested levels."""
    with engine.connect() as conn:
        rows = {r["id"]: r for r in conn.execute(companies.select()).mappings()}
    found = [rows[i] for i in candidates(engine, index, "medichem limited", False, None)]
    assert found and all(r["country"] == "GB" for r in found[:4])
    assert found[0]["name"].endswith("LIMITED")
    with engine.connect() as conn:
        complete = svc.autocomplete(conn, index, "medichem limited", None, 10, False)
    assert complete[0]["name"] == "Medichem LIMITED"
