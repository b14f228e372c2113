"""`/justice/decisions?q=` through HTTP on its index (migration 0022_legal_records_text_index): the
answers are exactly the substring test's over every decision's folded words (checked against that test
run here in Python over the stored words), for words with diacritics, short words that no trigram
covers, and query-syntax and SQL injection attempts; the index follows changed records."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import inspect, select, text

from regintel.areas.legal_records.tables import court_decisions
from regintel.domain.names import tokens
from tests.helpers import assert_envelope, assert_error
from tests.legal_records.common import FILES, import_all, import_one, load_fixture_companies


@pytest.fixture
def imported(engine, settings):
    load_fixture_companies(engine)
    import_all(engine, settings.data_dir)


def _search(client, auth, q):
    return client.get("/api/v1/justice/decisions", headers=auth, params={"q": q, "per_page": 100})


def _expected(engine, q):
    """The guids, newest first, of the decisions whose stored words hold the folded words of `q`."""
    words = " ".join(tokens(q))
    query = select(court_decisions.c.guid, court_decisions.c.search_text).order_by(
        court_decisions.c.decided_on.desc(), court_decisions.c.id.desc()
    )
    with engine.connect() as conn:
        return [guid for guid, stored in conn.execute(query) if words in stored]


QUERIES = [
    "duslo",
    "DUSLO",
    "Dušlo",  # diacritics folded away on both sides
    "hospodárska súťaž",
    "HOSPODÁRSKA SÚŤAŽ",
    "súd",
    "Košice",
    "obchodné právo",
    "25cb/123",
    "25Cb/123/2023",
    "ECLI:SK:OSBA1",
    "31322832",
    "a.s.",
    "sk",  # shorter than a trigram: tested on every decision
    "1",
    "okresny sud bratislava i",  # across word boundaries
    "zzzzzz",
    '" OR "1"="1',
    'duslo" OR "slovnaft',
    "duslo OR slovnaft",
    "NEAR(duslo slovnaft)",
    "search_text: duslo",
    "dus*",
    "^duslo",
    "'; DROP TABLE court_decisions; --",
    "1' OR '1'='1",
    "100%_",
    "\\duslo",
]


@pytest.mark.parametrize("q", QUERIES)
def test_answers_are_the_substring_test(client, auth, engine, imported, q):
    items = assert_envelope(_search(client, auth, q))
    assert [i["guid"] for i in items] == _expected(engine, q)


def test_injection_leaves_the_tables(client, auth, engine, imported):
    for q in ("'; DROP TABLE court_decisions; --", '"; DELETE FROM court_decisions_text; --'):
        assert_envelope(_search(client, auth, q))
    assert len(assert_envelope(_search(client, auth, "duslo"))) == len(_expected(engine, "duslo")) > 0
    assert len(assert_envelope(client.get("/api/v1/justice/decisions", headers=auth))) == 5


@pytest.mark.parametrize("q", ['"*"', "%%", "()", "--"])
def test_no_word_is_refused(client, auth, imported, q):
    error = assert_error(_search(client, auth, q), 422, "VALIDATION_ERROR")
    assert "q" in str(error.get("details"))


def test_some_queries_find_something(client, auth, engine, imported):
    # The comparison above would pass on an empty table: these must find decisions.
    assert len(_expected(engine, "hospodárska súťaž")) == 1
    assert len(_expected(engine, "súd")) == 5
    assert len(_expected(engine, "sk")) == 5


def test_index_follows_a_changed_record(client, auth, engine, settings, tmp_path, imported):
    body = json.loads(FILES["sk_court_decisions"].read_text())
    body["rozhodnutia"][0]["spisovaZnacka"] = "99Cbi/4711/2024"
    changed = tmp_path / "rozhodnutia.json"
    changed.write_text(json.dumps(body, ensure_ascii=False))
    stats = import_one(engine, settings.data_dir, "sk_court_decisions", changed)
    assert stats.updated == 1
    guid = body["rozhodnutia"][0]["guid"]
    assert [i["guid"] for i in assert_envelope(_search(client, auth, "99cbi/4711"))] == [guid]
    assert assert_envelope(_search(client, auth, "25cb/123/2023")) == []
    assert _expected(engine, "25cb/123/2023") == []


def test_the_index_exists(engine):
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            assert "court_decisions_text" in inspect(conn).get_table_names()
            plan = conn.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT id FROM court_decisions WHERE id IN "
                    "(SELECT rowid FROM court_decisions_text WHERE court_decisions_text MATCH '\"dus\"')"
                )
            ).all()
            assert "court_decisions_text VIRTUAL TABLE" in " ".join(str(r[-1]) for r in plan)
        else:
            names = [i["name"] for i in inspect(conn).get_indexes("court_decisions")]
            assert "ix_court_decisions_search_trgm" in names
