"""/companies/advanced-search: every filter, sorting, pagination, bounded counts, both read plans."""

from __future__ import annotations

import pytest

from regintel.areas.search import advanced_search
from tests.api import companies_fixture as fx
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/companies/advanced-search"
SK = {"31322832", "35757442", "36631124", "00151653", "44444443"}


@pytest.fixture
def data(engine):
    fx.load(engine)


def ids(client, auth, params) -> set[str]:
    resp = client.get(URL, params={**params, "per_page": 100}, headers=auth)
    return {c["nationalId"] for c in assert_envelope(resp)}


CASES = [
    ({}, fx.ALL),
    ({"country": "sk"}, SK),
    ({"country": ["SK", "cz"]}, SK | {"00177041", "27082440"}),
    ({"country": "sk,cz"}, SK | {"00177041", "27082440"}),
    ({"status": "dissolved"}, {"36631124"}),
    ({"status": "dissolved,inactive"}, {"36631124", "923609016"}),
    ({"legal_form": "121"}, {"31322832", "00177041"}),
    ({"legal_form": "121", "country": "cz"}, {"00177041"}),
    ({"name_contains": "shell"}, {"00151653", "44444443"}),
    ({"name_contains": "ŠKODA"}, {"00177041"}),
    ({"name_contains": "zilina"}, {"35757442"}),
    ({"name_contains": "'; DROP TABLE companies; --"}, set()),
    ({"source": "test_register"}, fx.ALL),
    ({"source": "other_register"}, set()),
    ({"in_bankruptcy": "1"}, {"35757442"}),
    ({"in_bankruptcy": "1", "country": "sk"}, {"35757442"}),
    ({"in_bankruptcy": "0", "country": "sk"}, SK - {"35757442"}),
    ({"in_restructuring": "true"}, {"27082440"}),
    ({"in_liquidation": 1}, {"00151653"}),
    ({"insolvent": 1}, {"35757442", "27082440"}),
    ({"insolvent": 0, "country": "cz"}, {"00177041"}),
    ({"nace": "J"}, {"36631124", "00151653", "27082440", "552100554", "00000006"}),
    ({"nace": "62"}, {"36631124", "00151653", "27082440", "552100554", "00000006"}),
    ({"nace": "62.01"}, {"36631124", "00151653", "552100554", "00000006"}),
    ({"nace": "6201"}, {"36631124", "00151653", "552100554", "00000006"}),
    ({"nace": "62010"}, {"36631124"}),
    ({"nace": "620"}, {"36631124", "00151653", "27082440", "552100554", "00000006"}),
    ({"nace": "A"}, {"923609016"}),
    ({"nace": "03.21"}, {"923609016"}),
    ({"nace": ["C", "F"]}, {"31322832", "00177041", "35757442"}),
    ({"size_class": "10-19"}, {"35757442"}),
    ({"size_class": "micro"}, {"36631124", "00151653"}),
    ({"size_class": "large,small"}, {"31322832", "00177041", "35757442", "552100554"}),
    ({"employees_min": 100}, {"31322832", "00177041"}),
    ({"employees_max": 12}, {"35757442", "36631124"}),
    ({"region": "1", "country": "sk"}, {"31322832", "36631124", "00151653"}),
    ({"district": "511"}, {"35757442"}),
    ({"municipality": "529346"}, {"31322832"}),
    ({"nuts2": "SK01"}, {"31322832", "36631124", "00151653"}),
    ({"nuts3": "cz020"}, {"00177041"}),
    ({"postal_code": "811"}, {"36631124", "00151653", "44444443"}),
    ({"postal_code": "sw1a"}, {"00000006"}),
    ({"city": "bratislava"}, {"31322832", "36631124", "00151653", "44444443"}),
    ({"city": "ŽILINA"}, {"35757442"}),
    ({"city": "žilina"}, {"35757442"}),
    ({"city": "mladá boleslav"}, {"00177041"}),
    ({"founded_from": "2018-01-01"}, {"00151653", "44444443", "00000006"}),
    ({"founded_to": "1991-12-31"}, {"00177041", "552100554"}),
    ({"founded_from": "2005-03-01", "founded_to": "2005-03-01"}, {"35757442"}),
    ({"dissolved_from": "2020-01-01", "dissolved_to": "2020-12-31"}, {"36631124"}),
    ({"updated_since": "2000-01-01"}, fx.ALL),
    ({"updated_since": "2999-01-01T00:00:00Z"}, set()),
    ({"has_financials": 1}, {"31322832", "35757442", "00177041", "552100554"}),
    ({"has_financials": 0, "country": "sk"}, SK - {"31322832", "35757442"}),
    ({"financial_year_min": 2023}, {"31322832", "00177041", "552100554"}),
    ({"currency": "czk"}, {"00177041"}),
    ({"revenue_min": 1_000_000}, {"31322832", "00177041", "552100554"}),
    ({"revenue_min": 1_000_000, "currency": "EUR"}, {"31322832", "552100554"}),
    ({"revenue_max": 1_000_000}, {"35757442"}),
    ({"revenue_min": 5_500_000_000, "revenue_max": 6_000_000_000}, {"31322832"}),  # 2023, not 2022
    ({"profit_max": -1}, {"35757442"}),
    ({"profit_min": 100_000, "currency": "EUR"}, {"31322832", "552100554"}),
    ({"equity_min": 1_000_001}, {"31322832", "00177041"}),
    ({"equity_max": 400_000}, {"35757442"}),
    ({"total_assets_min": 4_000_000, "total_assets_max": 4_000_000}, {"552100554"}),
    ({"has_lei": 1}, {"31322832", "00177041"}),
    ({"has_lei": 0, "country": "cz"}, {"27082440"}),
    ({"lei_status": "lapsed"}, {"00177041"}),
    ({"lei_status": "ISSUED,LAPSED"}, {"31322832", "00177041"}),
    ({"vat_registered": 1}, {"31322832", "00177041"}),
    ({"vat_registered": 0, "country": "cz"}, {"27082440"}),
    ({"country": "sk", "nace": "62", "status": "active", "in_liquidation": 1}, {"00151653"}),
]


def _wrong(client, auth, cases, **extra) -> dict[str, tuple[set[str], set[str]]]:
    """The cases whose answer differs from the expected set (one database for the whole table)."""
    out = {}
    for params, expected in cases:
        got = ids(client, auth, {**params, **extra})
        if got != expected:
            out[f"{params} {extra}"] = (got, expected)
    return out


def test_filters(client, auth, data):
    assert _wrong(client, auth, CASES) == {}


def test_filters_walking_the_sort_index(client, auth, data, monkeypatch):
    """Many matches switch to the plan that walks the sort index (conditions tested row by row)."""
    monkeypatch.setattr(advanced_search, "WALK_MIN", 1)
    monkeypatch.setattr(advanced_search, "_size", lambda conn: 0)
    assert _wrong(client, auth, CASES) == {}
    for sort in ("founded_on", "revenue", "updated_at"):
        assert _wrong(client, auth, CASES[::3], sort=sort) == {}


def test_envelope_item_and_meta(client, auth, data):
    resp = client.get(URL, params={"country": "sk", "in_bankruptcy": 1}, headers=auth)
    [item] = assert_envelope(resp)
    assert item["name"] == "Stavby Žilina s.r.o." and item["inBankruptcy"] is True
    assert item["latestFinancials"] == {
        "year": 2021,
        "currency": "EUR",
        "revenue": 800000.0,
        "profit": -50000.0,
        "totalAssets": 1600000.0,
        "equity": 400000.0,
        "liabilities": None,
        "employees": None,
        "source": "test_register",
    }
    meta = resp.json()["meta"]
    assert (meta["total"], meta["total_exact"], meta["page"], meta["per_page"]) == (1, True, 1, 20)
    assert (meta["sort"], meta["direction"]) == ("name", "asc")


@pytest.mark.parametrize("walk", [False, True])
def test_sorting_and_pages(client, auth, data, monkeypatch, walk):
    if walk:
        monkeypatch.setattr(advanced_search, "WALK_MIN", 1)
        monkeypatch.setattr(advanced_search, "_size", lambda conn: 0)

    def order(**params):
        return [c["nationalId"] for c in assert_envelope(client.get(URL, params=params, headers=auth))]

    names = order(country="sk", per_page=100)
    assert names == ["36631124", "00151653", "44444443", "31322832", "35757442"]  # name_norm order
    assert order(country="sk", direction="desc") == names[::-1]
    assert order(country="sk", per_page=2, page=2) == names[2:4]
    assert order(country="sk", per_page=2, page=3) == names[4:]
    assert order(country="sk", per_page=2, page=4) == []
    # Empty sort values come last in both directions.
    founded = order(sort="founded_on", per_page=100)
    assert founded[0] == "44444443" and founded[-1] == "923609016"
    assert order(sort="founded_on", direction="asc", per_page=100)[-1] == "923609016"
    assert order(sort="founded_on", per_page=4, page=3) == ["552100554", "923609016"]
    revenue = order(sort="revenue", per_page=4)
    assert revenue == ["00177041", "31322832", "552100554", "35757442"]
    assert order(sort="revenue", direction="asc", per_page=4) == revenue[::-1]
    rest = order(sort="revenue", per_page=4, page=2) + order(sort="revenue", per_page=4, page=3)
    assert set(rest) == fx.ALL - set(revenue) and len(rest) == 6
    assert set(order(sort="updated_at", per_page=100)) == fx.ALL


def test_count_is_capped(client, auth, data, monkeypatch):
    monkeypatch.setattr(advanced_search, "COUNT_CAP", 3)
    resp = client.get(URL, params={"country": "sk", "per_page": 2}, headers=auth)
    assert len(assert_envelope(resp)) == 2
    assert (resp.json()["meta"]["total"], resp.json()["meta"]["total_exact"]) == (3, False)


def test_nis2_scope_reads_stored_assessments(client, auth, data):
    # Never assessed: no company matches (tests/nis2/test_api.py fills the table through a sweep).
    assert assert_envelope(client.get(URL, params={"nis2_scope": "essential"}, headers=auth)) == []
    err = assert_error(
        client.get(URL, params={"nis2_scope": "critical"}, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert "nis2_scope" in err["message"]


BAD = [
    {"nace": "XX"},
    {"nace": "6"},
    {"nace": "V"},
    {"country": "Slovakia"},
    {"country": "s1"},
    {"in_bankruptcy": "maybe"},
    {"revenue_min": "lots"},
    {"revenue_min": "1e30"},
    {"founded_from": "2020-13-01"},
    {"employees_min": -1},
    {"per_page": 101},
    {"per_page": 0},
    {"page": 0},
    {"page": 101, "per_page": 100},
    {"sort": "size"},
    {"direction": "up"},
    {"name_contains": ". ."},
    {"name_contains": "%"},
    {"name_contains": "x" * 101},
    {"currency": "euro"},
    {"financial_year_min": 3000},
    {"unknown_filter": 1},
    {"countryy": "sk"},
    {"country": ",".join(["SK"] * 51)},
    {"legal_form": "x" * 65},
]


def test_bad_input_is_a_422(client, auth, data):
    for params in BAD:
        resp = client.get(URL, params=params, headers=auth)
        assert resp.status_code == 422, params
        assert_error(resp, 422, "VALIDATION_ERROR")


def test_needs_a_key(client, data):
    assert_error(client.get(URL), 401, "UNAUTHORIZED")
