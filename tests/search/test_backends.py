"""Contract tests: the same cases on every search backend the test database offers (tantivy on both,
sqlite_fts on SQLite, pg_trgm on PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import update

from regintel.areas.search import service as svc
from regintel.db.schema import companies
from regintel.domain.types import CompanyRecord
from regintel.search import get_backend
from regintel.search.base import Filters, QueryWords
from tests.api.test_search import COMPANIES
from tests.builders import load_companies
from tests.conftest import BACKEND

NATIVE = "sqlite_fts" if BACKEND == "sqlite" else "pg_trgm"


@pytest.fixture(params=["tantivy", NATIVE])
def index(request, engine, settings):
    load_companies(engine, *COMPANIES)
    backend = get_backend(engine, settings, request.param)
    with engine.begin() as conn:
        assert backend.ensure_current(conn) in ("built", "current")  # PG indexes outlive a test
        assert backend.ensure_current(conn) == "current"
    return backend


def names(items):
    return [i["name"] for i in items]


@pytest.mark.parametrize(
    "q, expected",
    [
        ("slovnaft", "SLOVNAFT, a.s."),
        ("SLOVNAFT a. s.", "SLOVNAFT, a.s."),
        ("slovnfat", "SLOVNAFT, a.s."),
        ("zilinska teplarenska", "Žilinská teplárenská, a. s."),
        ("teplárenská žilinská", "Žilinská teplárenská, a. s."),
        ("zilinksa teplarenka", "Žilinská teplárenská, a. s."),
        ("tatra banka", "Tatra banka, a.s."),
        ("eset spol s r o", "ESET, spol. s r.o."),
        ("bp plc", "BP P.L.C."),
        ("31 322 832", "SLOVNAFT, a.s."),
    ],
)
def test_search(engine, index, q, expected):
    with engine.connect() as conn:
        items, _ = svc.search(conn, index, q, None, 5, 1)
    assert names(items)[0] == expected


@pytest.mark.parametrize(
    "q, expected",
    [
        ("slovn", "SLOVNAFT, a.s."),
        ("zilinska tep", "Žilinská teplárenská, a. s."),
        ("tatra b", "Tatra banka, a.s."),
        ("novak syn", "Novák & Synovia s.r.o."),
    ],
)
def test_autocomplete(engine, index, q, expected):
    with engine.connect() as conn:
        assert names(svc.autocomplete(conn, index, q, None, 5, False))[0] == expected


def test_filters_addresses_and_people(engine, index):
    with engine.connect() as conn:
        assert names(svc.search(conn, index, "cez", "CZ", 5, 1)[0]) == ["ČEZ, a. s."]
        assert svc.search(conn, index, "cez", "GB", 5, 1)[0] == []
        assert names(svc.autocomplete(conn, index, "slovnaft", None, 5, True)) == ["SLOVNAFT, a.s."]
        addresses = svc.address_autocomplete(conn, index, "vlcie hrdlo", None, 5)
        assert addresses[0].companies == 2
        people = index.candidates(conn, "people", QueryWords(("novak", "jan")), Filters(), 5)
        assert len(people) == 1
        assert svc.search(conn, index, "zzzzqqq", None, 5, 1)[0] == []


def test_follows_changes(engine, index):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id="35697270", name="Orange Slovensko, a.s."),
        finish_index=False,
    )
    with engine.begin() as conn:  # a writer moves `updated_at`, which the catch-up follows
        conn.execute(
            update(companies)
            .where(companies.c.national_id == "00151653")
            .values(status="dissolved", updated_at=datetime.now(UTC))
        )
    with engine.begin() as conn:
        assert index.ensure_current(conn) in ("updated", "current")
    with engine.connect() as conn:
        assert names(svc.search(conn, index, "orange slovensko", None, 5, 1)[0]) == ["Orange Slovensko, a.s."]
        # The dissolved bank's document was replaced, not kept beside the new one as an active company.
        assert "Tatra banka, a.s." not in names(svc.autocomplete(conn, index, "tatra banka", None, 5, True))
        assert "Tatra banka, a.s." in names(svc.autocomplete(conn, index, "tatra banka", None, 5, False))
    load_companies(engine, CompanyRecord(country="SK", national_id="35697270", name="Orange Slovakia, a.s."))
    with engine.begin() as conn:
        index.ensure_current(conn)
    with engine.connect() as conn:
        assert names(svc.search(conn, index, "orange slovakia", None, 5, 1)[0])[0] == "Orange Slovakia, a.s."


def test_rebuild_is_repeatable(engine, index):
    with engine.begin() as conn:
        first = index.rebuild(conn)
    with engine.begin() as conn:
        assert index.rebuild(conn) == first
    with engine.connect() as conn:
        assert names(svc.search(conn, index, "slovnaft", None, 5, 1)[0])[0] == "SLOVNAFT, a.s."
        assert index.status(conn).ready


def test_tantivy_commits_on_the_way(engine, settings, monkeypatch):
    """Long writes commit every COMMIT_EVERY documents (pending deletes live in memory until a
    commit); the index holds every document exactly once and a re-index replaces, never doubles."""
    from regintel.search import tantivy_index

    monkeypatch.setattr(tantivy_index, "COMMIT_EVERY", 2)
    monkeypatch.setattr(tantivy_index.docs, "BATCH", 3)
    load_companies(engine, *COMPANIES)
    backend = get_backend(engine, settings, "tantivy")
    with engine.begin() as conn:
        total = backend.rebuild(conn)
        assert backend.status(conn).documents == total
        company_ids = [
            int(i) for i in conn.execute(companies.select().with_only_columns(companies.c.id)).scalars()
        ]
        backend.index(conn, company_ids)
        assert backend.status(conn).documents == total
        assert names(svc.search(conn, backend, "slovnaft", None, 5, 1)[0])[0] == "SLOVNAFT, a.s."
