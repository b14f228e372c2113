"""A floor on search recall over a slice of the labelled evaluation set, so that ranking or
normalisation regressions fail a test (the full measurement is bench/bench_search_quality.py)."""

from __future__ import annotations

from tests.builders import load_companies
from tests.search.corpus import companies
from tests.search.evaluate import ENDPOINTS, evaluate, load_queries

SLICE = 1_000


def test_recall_floor_on_a_slice(client, api_key, engine):
    records = list(companies(SLICE))
    load_companies(engine, *records)
    queries = load_queries({f"{r.country}:{r.national_id}" for r in records})
    assert len(queries) >= 45 and {q["kind"] for q in queries} >= {
        "typo1",
        "typo2",
        "identifier",
        "word_order",
    }
    report = evaluate(client, {"api_key": api_key}, queries)
    recall = {e: report[e]["recall@5"] for e in ENDPOINTS}
    assert min(recall.values()) >= 0.9, report
    assert report["search"]["recall@1"] >= 0.85, report
