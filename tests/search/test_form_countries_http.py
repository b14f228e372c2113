"""A legal form used in several countries (issue 15): when the typed form implies several countries
(`SRL`: BE, ES, IT, RO; `BV`: BE, NL) and neither `country` nor a country word chose one, namesakes of
equal score take turns by country, so that the first page shows each country's best before any
country's second (`areas.search.service.order`, reason `prominence.value.countryTurn`)."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope


def _co(country: str, nid: str, name: str, employees: int, form: str | None = None) -> CompanyRecord:
    return CompanyRecord(
        country=country, national_id=nid, name=name, employees=employees, legal_form=form, status="active"
    )


# Romania's namesakes are the larger ones: by prominence alone they would fill a page of three.
RO = [_co("RO", nid, "Vitabau SRL", 500 - i) for i, nid in enumerate(("10000008", "10000016", "10000024"))]
IT = [
    _co("IT", "01000000016", "Vitabau S.r.l.", 20, "OV32"),
    _co("IT", "01000000024", "VITABAU SRL", 10, "OV32"),
]
BE = [_co("BE", "0400000086", "Vitabau SRL", 5, "3W7E")]
NL = [_co("NL", "10000001", "Vitabau B.V.", 50), _co("NL", "10000002", "Vitabau B.V.", 40)]
BE_BV = [_co("BE", "0400000185", "Vitabau BV", 1)]
OTHER = [_co("PL", "0000100001", "Vitabau sp. z o.o.", 900, "O7XB")]


@pytest.fixture
def data(engine):
    load_companies(engine, *RO, *IT, *BE, *NL, *BE_BV, *OTHER)


def _ask(client, auth, path: str, **params: object) -> list[dict]:
    return assert_envelope(client.get(path, params=params, headers=auth))


def _turn(item: dict) -> int | None:
    value = next(r["value"] for r in item["reasons"] if r["feature"] == "prominence")
    return value.get("countryTurn")


@pytest.mark.parametrize("path", ["/api/v1/companies/search", "/api/v1/companies/autocomplete"])
def test_each_country_of_the_form_comes_before_any_second(client, auth, data, path):
    items = _ask(client, auth, path, q="Vitabau S.R.L.", limit=5)
    assert [i["country"] for i in items[:3]] == ["RO", "IT", "BE"]  # by prominence within the turn
    assert [i["nationalId"] for i in items[:2]] == [RO[0].national_id, IT[0].national_id]
    assert [i["country"] for i in items[3:]] == ["RO", "IT"]  # then the second of each
    assert [_turn(i) for i in items] == [1, 1, 1, 2, 2]
    assert {i["score"] for i in items} == {1.0}


def test_a_form_of_two_countries(client, auth, data):
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau BV", limit=3)
    assert [i["country"] for i in items] == ["NL", "BE", "NL"]
    assert [_turn(i) for i in items] == [1, 1, 2]


def test_a_chosen_country_orders_by_prominence_alone(client, auth, data):
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau SRL", country="ro", limit=3)
    assert [i["nationalId"] for i in items] == [r.national_id for r in RO[:3]]
    assert [_turn(i) for i in items] == [None, None, None]
    # a country word chooses too
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau SRL Italia", limit=2)
    assert [i["country"] for i in items] == ["IT", "IT"] and _turn(items[0]) is None


def test_a_form_of_one_country_and_no_form_take_no_turns(client, auth, data):
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau sp. z o.o.", limit=3)
    assert items[0]["country"] == "PL" and _turn(items[0]) is None
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau", limit=3)
    assert [i["country"] for i in items] == ["PL", "RO", "RO"]  # prominence alone
    assert {_turn(i) for i in items} == {None}


def test_a_better_score_still_comes_first(client, auth, data):
    """Turns are taken among equal scores only: a namesake of another form stays below them all."""
    items = _ask(client, auth, "/api/v1/companies/search", q="Vitabau SRL", limit=20)
    scores = [i["score"] for i in items]
    assert scores[:6] == [1.0] * 6 and len(scores) > 6 and max(scores[6:]) < 1.0
    assert {i["country"] for i in items[6:]} == {"PL", "NL", "BE"}  # the other forms


def test_resolve_takes_the_same_turns(client, auth, data):
    body = client.get("/api/v1/companies/resolve", params={"q": "Vitabau S.R.L."}, headers=auth).json()
    assert body["data"]["entity"]["nationalId"] == RO[0].national_id
    runners = [c["company"]["country"] for c in body["data"]["alternatives"][:2]]
    assert runners == ["IT", "BE"]
