"""Ranking among namesakes through HTTP (issue 15): the typed legal form, a country word, the town,
word order, prominence as the tie-break, highlighting, and identifiers still first."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from regintel.domain.types import CompanyRecord, FinancialRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope


def _co(country: str, nid: str, name: str, **kw: object) -> CompanyRecord:
    return CompanyRecord(country=country, national_id=nid, name=name, **kw)  # type: ignore[arg-type]


PL_BIG = _co(
    "PL",
    "0000100001",
    "Alfachem sp. z o.o.",
    city="Kraków",
    employees=50,
    legal_form="O7XB",
    founded_on=date(2001, 5, 1),
)
PL_SMALL = _co(
    "PL",
    "0000100002",
    "Alfachem sp. z o.o.",
    city="Gdańsk",
    employees=5,
    legal_form="O7XB",
    founded_on=date(2015, 1, 1),
)
PL_GONE = _co(
    "PL",
    "0000100003",
    "Alfachem sp. z o.o.",
    city="Łódź",
    employees=500,
    legal_form="O7XB",
    status="dissolved",
)
# same size: revenue decides, then age
PL_RICH = _co(
    "PL",
    "0000100004",
    "Alfachem sp. z o.o.",
    city="Poznań",
    employees=5,
    legal_form="O7XB",
    founded_on=date(2018, 1, 1),
    financials=[FinancialRecord(year=2024, currency="PLN", revenue=Decimal("9000000"))],
)
PL_OLD = _co(
    "PL",
    "0000100005",
    "Alfachem sp. z o.o.",
    city="Lublin",
    employees=5,
    legal_form="O7XB",
    founded_on=date(1995, 1, 1),
)
OTHERS = [
    _co("PL", "0000100006", "Alfachem S.A.", city="Warszawa", employees=900, legal_form="FJ0E"),
    _co("HR", "12345678903", "Alfachem d.o.o.", city="Zagreb", employees=900, legal_form="OQWO"),
    _co("FR", "552100554", "Alfachem SARL", city="Paris", employees=900, legal_form="V9QP"),
    _co("FR", "732829320", "Alfachem SA", city="Lyon", employees=900, legal_form="QVPB"),
    _co("GB", "01000001", "ALFACHEM LIMITED", city="London", employees=900, legal_form="H0PO"),
    _co("GB", "01000002", "ALFACHEM LTD", city="Leeds", employees=10, legal_form="H0PO"),
    _co("EE", "10000001", "Alfachem OÜ", city="Tallinn", employees=900, legal_form="JC0Y"),
    _co("ES", "B10000008", "Alfachem S.L.", city="Madrid", employees=900, legal_form="DP3Q"),
    _co("SK", "31322832", "Alfachem s. r. o.", city="Bratislava", employees=1, legal_form="VSZS"),
    _co("AT", "100001a", "Telenet GmbH", city="Wien", employees=900, legal_form="AXSB"),
    _co("HR", "22345678905", "Telenet d.o.o.", city="Split", employees=900, legal_form="OQWO"),
    _co("IT", "01000000016", "Telenet S.r.l.", city="Milano", employees=3, legal_form="OV32"),
    _co("AT", "100002b", "Nord Bau GmbH", city="Graz", legal_form="AXSB"),
    _co("AT", "100003c", "Bau Nordland GmbH", city="Linz", employees=900, legal_form="AXSB"),
]
PL_NAMESAKES = [PL_BIG, PL_SMALL, PL_GONE, PL_RICH, PL_OLD]


@pytest.fixture
def data(engine):
    load_companies(engine, *PL_NAMESAKES, *OTHERS)


def _keys(items: list[dict]) -> list[str]:
    return [f"{i['country']}:{i['nationalId']}" for i in items]


def _key(rec: CompanyRecord) -> str:
    return f"{rec.country}:{rec.national_id}"


def test_typed_legal_form_ranks_its_namesakes_first(client, auth, data):
    for path in ("/api/v1/companies/search", "/api/v1/companies/autocomplete"):
        for q in (
            "Alfachem sp. z o.o.",
            "alfachem sp z o o",
            "Alfachem Sp. z o. o.",
            "Alfachem spółka z o.o.",
            "sp. z o.o. Alfachem",
            "ALFACHEM SP. Z O.O.",
        ):
            items = assert_envelope(client.get(path, params={"q": q, "limit": 5}, headers=auth))
            assert {i["name"] for i in items} == {"Alfachem sp. z o.o."}, (path, q)
            form = next(r for r in items[0]["reasons"] if r["feature"] == "legalForm")
            assert form["score"] >= 0.99


def test_legal_form_of_another_country_and_spelling(client, auth, data):
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem S.A."}, headers=auth)
    )
    assert {i["name"] for i in items[:2]} == {"Alfachem S.A.", "Alfachem SA"}
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "ALFACHEM LTD"}, headers=auth)
    )
    assert names(items[:2]) == ["ALFACHEM LTD", "ALFACHEM LIMITED"]  # the spelling typed, then the same form
    assert items[0]["score"] == 1.0 and items[1]["score"] < 1.0
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem s.r.o."}, headers=auth)
    )
    assert names(items[:1]) == ["Alfachem s. r. o."]
    items = assert_envelope(client.get("/api/v1/companies/search", params={"q": "Alfachem"}, headers=auth))
    assert len(items) == 14 and {i["score"] for i in items} == {1.0}  # no form typed: every namesake alike


def names(items: list[dict]) -> list[str]:
    return [i["name"] for i in items]


def test_country_word_prefers_that_country(client, auth, data):
    for q in ("Alfachem Polska", "Polska Alfachem", "alfachem poland", "Alfachem POLISH"):
        items = assert_envelope(
            client.get("/api/v1/companies/search", params={"q": q, "limit": 6}, headers=auth)
        )
        assert [i["country"] for i in items] == ["PL"] * 6, q
        country = next(r for r in items[0]["reasons"] if r["feature"] == "country")
        assert country == {"feature": "country", "value": "PL", "score": 1.0}


def test_country_word_in_autocomplete_and_resolve(client, auth, data):
    for q in ("Telenet Italia", "Telenet Italy", "Italia Telenet"):
        items = assert_envelope(client.get("/api/v1/companies/autocomplete", params={"q": q}, headers=auth))
        assert names(items[:1]) == ["Telenet S.r.l."] and items[0]["country"] == "IT", q
        body = client.get("/api/v1/companies/resolve", params={"q": q}, headers=auth).json()
        assert body["data"]["entity"]["name"] == "Telenet S.r.l."


def test_country_parameter_still_filters(client, auth, data):
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem Polska", "country": "hr"}, headers=auth)
    )
    assert _keys(items) == ["HR:12345678903"]


def test_town_in_the_query(client, auth, data):
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem Gdańsk"}, headers=auth)
    )
    assert _keys(items[:1]) == [_key(PL_SMALL)]
    assert {"feature": "location", "value": "Gdańsk", "score": 1.0} in items[0]["reasons"]


def test_word_order_does_not_matter(client, auth, data):
    for q in ("Bau Nord GmbH", "GmbH Nord Bau", "bau nord"):
        items = assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth))
        assert names(items[:1]) == ["Nord Bau GmbH"] and items[0]["score"] == 1.0, q


def test_prominence_orders_namesakes(client, auth, data):
    """Active first, then more employees, more revenue, older, more sources; shown as a reason."""
    for path in ("/api/v1/companies/search", "/api/v1/companies/autocomplete"):
        items = assert_envelope(client.get(path, params={"q": "Alfachem sp. z o.o."}, headers=auth))
        assert _keys(items[:5]) == [_key(r) for r in (PL_BIG, PL_RICH, PL_OLD, PL_SMALL, PL_GONE)], path
        prominence = [r for r in items[0]["reasons"] if r["feature"] == "prominence"][0]["value"]
        assert prominence["active"] is True and prominence["employees"] == 50 and "revenue" not in prominence
    items = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem sp. z o.o."}, headers=auth)
    )
    rich = [r for r in items[1]["reasons"] if r["feature"] == "prominence"][0]["value"]
    # revenue and sources are read where employees tie
    assert rich["revenue"] == 9000000.0 and rich["foundedOn"] == "2018-01-01" and rich["sources"] == 1
    # the same query twice: the same order (no arbitrary ties)
    again = assert_envelope(
        client.get("/api/v1/companies/search", params={"q": "Alfachem sp. z o.o."}, headers=auth)
    )
    assert _keys(again) == _keys(items)


def test_resolve_and_reconcile_use_the_same_signals(client, auth, data, api_key):
    body = client.get("/api/v1/companies/resolve", params={"q": "Alfachem sp. z o.o."}, headers=auth).json()
    assert f"{body['data']['entity']['country']}:{body['data']['entity']['nationalId']}" == _key(PL_BIG)
    features = {r["feature"] for r in body["data"]["reasons"]}
    assert {"name", "legalForm", "prominence"} <= features
    batch = {"q0": {"query": "Alfachem Polska"}, "q1": {"query": "sp. z o.o. Alfachem"}}
    out = client.post(
        "/api/v1/reconcile", params={"api_key": api_key}, data={"queries": json.dumps(batch)}
    ).json()
    assert out["q0"]["result"][0]["id"].startswith("PL:")
    assert out["q1"]["result"][0]["id"] == _key(PL_BIG)
    assert {"id": "legal_form", "value": 1.0} in out["q1"]["result"][0]["features"]


def test_highlight_marks_form_and_reordered_words(client, auth, data):
    for q, marked in (
        ("Alfachem sp. z o.o.", "<mark>Alfachem</mark> <mark>sp. z o.o.</mark>"),
        ("sp. z o.o. alfachem", "<mark>Alfachem</mark> <mark>sp. z o.o.</mark>"),
        ("Alfachem Polska", "<mark>Alfachem</mark> S.A."),  # the most prominent in PL
        ("bau nord", "<mark>Nord</mark> <mark>Bau</mark> GmbH"),
        ("gmbh bau nor", "<mark>Bau</mark> <mark>Nor</mark>dland <mark>GmbH</mark>"),
    ):  # prominent
        items = assert_envelope(client.get("/api/v1/companies/autocomplete", params={"q": q}, headers=auth))
        assert items[0]["highlight"] == marked, q


def test_identifier_still_wins_among_namesakes(client, auth, data):
    for q in ("31 322 832", " 31322832 ", "31-322-832"):
        items = assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth))
        assert _keys(items[:1]) == ["SK:31322832"] and items[0]["matchedBy"] != "name", q


def test_public_autocomplete_keeps_its_fields(client, data):
    items = assert_envelope(client.get("/api/v1/public/autocomplete", params={"q": "Alfachem sp. z o.o."}))
    assert set(items[0]) == {"country", "nationalId", "name", "legalForm", "city", "highlight"}
    assert _keys(items[:1]) == [_key(PL_BIG)]


def test_odd_queries_do_not_fail(client, auth, data):
    for q in ("Polska", "sp. z o.o.", "UK", "Česko s.r.o.", "ß" * 200, "<b>Alfachem</b> & sp. z o.o."):
        for path in ("/api/v1/companies/search", "/api/v1/companies/autocomplete"):
            assert client.get(path, params={"q": q}, headers=auth).status_code == 200, q
    items = assert_envelope(client.get("/api/v1/companies/search", params={"q": "Polska"}, headers=auth))
    assert items == []  # a lone country word is a name word, and no name holds it
