"""`name_contains` through the name trigram index (migration 0008): the answers are exactly the
substring test's on every backend, the index follows inserts, renames and deletions, bulk builds
leave it whole, and the query reads it instead of every name (SQLite's FTS5 table, PostgreSQL's name
table of migration 0010)."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, event, text

from regintel.db.schema import companies
from regintel.domain.names import normalise_name
from regintel.domain.types import CompanyRecord
from regintel.synth.build import build
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/companies/advanced-search"
NAMES = [
    "Nord Consulting s.r.o.",
    "Nordic Timber a.s.",
    "Konord Trade GmbH",
    "Severná nordická spol. s r.o.",
    "Stavby Žilina s.r.o.",
    "Mlyn Žilina a.s.",
    "Bod & Co s.r.o.",
    "Ab Ovo s.r.o.",
    'Quote "Nord" Ltd',
]


def record(i: int, name: str) -> CompanyRecord:
    from regintel.synth.ids import national_id

    return CompanyRecord(country="SK", national_id=national_id("SK", 100 + i), name=name)


@pytest.fixture
def named(engine):
    load_companies(engine, *(record(i, n) for i, n in enumerate(NAMES)))
    return engine


def found(client, auth, term: str, **params) -> set[str]:
    resp = client.get(URL, params={"name_contains": term, "per_page": 100, **params}, headers=auth)
    return {c["name"] for c in assert_envelope(resp)}


def expected(term: str) -> set[str]:
    norm = normalise_name(term)
    return {n for n in NAMES if norm in normalise_name(n)}


@pytest.mark.parametrize(
    "term",
    [
        "nord",
        "NORD",
        "nórd",
        "ord",
        "d co",
        "nordic",
        "žilina",
        "ZILINA",
        "bod",
        "ab",
        "ov",
        "konord trade",
        '"nord"',
        "nord%",
        "xyz",
        "'; DROP TABLE companies; --",
    ],
)
def test_answers_are_the_substring_test(client, auth, named, term):
    if len(normalise_name(term).replace(" ", "")) < 2:
        assert_error(client.get(URL, params={"name_contains": term}, headers=auth), 422, "VALIDATION_ERROR")
        return
    assert found(client, auth, term) == expected(term)


def test_combined_with_other_filters_and_both_read_plans(client, auth, named, monkeypatch):
    from regintel.areas.search import advanced_search

    assert found(client, auth, "nord", country="sk") == expected("nord")
    assert found(client, auth, "nord", country="cz") == set()
    monkeypatch.setattr(advanced_search, "WALK_MIN", 1)  # walk the name index with the condition on top
    monkeypatch.setattr(advanced_search, "COUNT_CAP", 1)
    assert found(client, auth, "nord") == expected("nord")


# Names holding "nord" that share their first five characters (the SQLite name key), across both ends
# of the alphabet, and some that hold its trigrams but not the substring.
CLUSTERED = [
    "Nordic Alpha",
    "Nordic Beta",
    "Nordic Beta Two",
    "Nordica",
    "Nordi",
    "Nord",
    "Nord Bau",
    "Nord West",
    "Alpha Nord",
    "Konord",
    "Zeta Nordic",
    "Nordhaus",
    "Nordhausen",
    "Nordhaus Zwei",
    "Mid Nord One",
    "Mid Nord Two",
    "Mid Nordic",
    "Nor",
    "Ordnor",
    "Bau Nord",
    "Alpha",
    "Zeta",
    "Nordnord",
    "0 Nord",
]


@pytest.fixture
def clustered(engine):
    from regintel.synth.ids import national_id

    countries = ("SK", "CZ", "FR")
    load_companies(
        engine,
        *(
            CompanyRecord(
                country=countries[i % 3],
                national_id=national_id(countries[i % 3], 200 + i),
                name=n,
                status="dissolved" if i % 4 == 0 else "active",
            )
            for i, n in enumerate(CLUSTERED)
        ),
    )
    return engine


@pytest.mark.parametrize("walk", [False, True, "sorted"])
@pytest.mark.parametrize("direction", ["asc", "desc"])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"country": "SK"},
        {"country": "sk,FR"},
        {"status": "active"},
        {"country": "CZ", "status": "active"},
    ],
)
def test_pages_in_name_order(client, auth, clustered, monkeypatch, walk, direction, params):
    """Paged through three at a time, the matches come in name order (the SQLite name key only orders
    the first five characters) with the other filters applied, in either read plan."""
    from regintel.areas.search import advanced_search

    if walk:  # "many" matches: SQLite streams them joined to their rows, PostgreSQL walks the name index
        monkeypatch.setattr(advanced_search, "COUNT_CAP", 1)
    if walk == "sorted":  # PostgreSQL: a walk too short for the page, then the name table's sorted matches
        from regintel.db import name_trigrams

        monkeypatch.setattr(advanced_search, "WALK_PROBE", 2)
        monkeypatch.setattr(name_trigrams, "PG_CHUNK", 2)
    countries = {v.upper() for v in params.get("country", "SK,CZ,FR").split(",")}
    wanted = sorted(
        (
            normalise_name(n)
            for i, n in enumerate(CLUSTERED)
            if "nord" in normalise_name(n)
            and ("SK", "CZ", "FR")[i % 3] in countries
            and (params.get("status") != "active" or i % 4 != 0)
        ),
        reverse=direction == "desc",
    )
    seen: list[str] = []
    for page in range(1, 20):
        resp = client.get(
            URL,
            params={"name_contains": "nord", "per_page": 3, "page": page, "direction": direction, **params},
            headers=auth,
        )
        items = assert_envelope(resp)
        if not items:
            break
        seen += [normalise_name(i["name"]) for i in items]
    assert seen == wanted


def test_the_index_follows_country_changes(client, auth, clustered, engine):
    with engine.begin() as conn:
        conn.execute(text("UPDATE companies SET country = 'DE' WHERE name = 'Konord'"))
    assert "Konord" in found(client, auth, "nord", country="de")
    assert "Konord" not in found(client, auth, "nord", country="sk,cz,fr")
    _integrity_check(engine)


def test_the_index_follows_renames_and_deletions(client, auth, named, engine):
    renamed = record(0, "Polar Consulting s.r.o.")
    load_companies(engine, renamed)
    assert "Nord Consulting s.r.o." not in found(client, auth, "nord")
    assert found(client, auth, "polar") == {"Polar Consulting s.r.o."}
    with engine.begin() as conn:
        conn.execute(delete(companies).where(companies.c.national_id == renamed.national_id))
    assert found(client, auth, "polar") == set()
    _integrity_check(engine)


def test_bulk_builds_leave_the_index_whole(engine, app_factory, auth):
    """A fresh build loads with the index's triggers off and fills it in one pass; an appending build
    writes through the triggers."""
    build(engine, 1_200, seed=9, workers=0)
    _integrity_check(engine)
    build(engine, 300, seed=9, workers=0, append=True)
    _integrity_check(engine)
    client = app_factory()  # the fresh build replaced the database file
    with engine.connect() as conn:
        names = [r[0] for r in conn.execute(text("SELECT name_norm FROM companies"))]
    assert len(names) == 1_500
    for term in sorted({n[1:6] for n in names[::150] if len(n) > 8}):
        resp = client.get(URL, params={"name_contains": term, "per_page": 1}, headers=auth)
        norm = normalise_name(term)  # as the API reads it: legal-form words such as "as" drop out
        assert resp.json()["meta"]["total"] == sum(norm in n for n in names), term


def test_the_query_reads_the_trigram_table(engine, client, auth, named):
    statements: list[str] = []
    listener = lambda _c, _cur, sql, *_: statements.append(sql)  # noqa: E731
    event.listen(client.app.state.engine, "before_cursor_execute", listener)
    found(client, auth, "nord")
    found(client, auth, "ab")
    uses = ["companies_name_trgm" in s for s in statements if " LIKE " in s]
    assert True in uses and False in uses  # "nord" through the index, two letters by the names


def _integrity_check(engine) -> None:  # noqa: ANN001
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            # FTS5 compares the whole index with the content table and raises on any difference.
            conn.execute(
                text("INSERT INTO companies_name_trgm(companies_name_trgm) VALUES ('integrity-check')")
            )
        else:
            # The name table holds exactly each company's id, country and name, and its index is there.
            copy = conn.execute(
                text("SELECT id, country, name_norm FROM companies_name_trgm ORDER BY id")
            ).all()
            assert (
                copy == conn.execute(text("SELECT id, country, name_norm FROM companies ORDER BY id")).all()
            )
            assert (
                conn.execute(
                    text("SELECT count(*) FROM pg_indexes WHERE indexname = 'ix_companies_name_trgm_gin'")
                ).scalar_one()
                == 1
            )
