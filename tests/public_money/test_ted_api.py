"""`/ted/search` and `/ted/notice/{pub}` through HTTP, with winners linked to companies by id and by name."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import FRA, MAXIMAL, UKRI, VEAT, import_ted

SEARCH = "/api/v1/ted/search"


@pytest.fixture
def notices(engine, settings):
    load_companies(
        engine,
        CompanyRecord(country="FR", national_id="326912557", name="ESPACES VERTS LEMIRE", city="Rouen"),
        CompanyRecord(country="GB", national_id="03659970", name="RAMBOLL UK LIMITED", city="London"),
        CompanyRecord(country="DK", national_id="35128417", name="Invacare Holding A/S"),
    )
    import_ted(engine, settings.data_dir)


def _pubs(resp):
    return [n["pub"] for n in assert_envelope(resp)]


def test_search_newest_first_with_paging_meta(client, auth, notices):
    resp = client.get(SEARCH, headers=auth, params={"per_page": 2, "page": 2})
    body = resp.json()
    assert (body["meta"]["total"], body["meta"]["page"], body["meta"]["per_page"]) == (6, 2, 2)
    all_dates = [n["issueDate"] for n in assert_envelope(client.get(SEARCH, headers=auth))]
    assert all_dates == sorted(all_dates, reverse=True)
    assert [n["issueDate"] for n in body["data"]] == all_dates[2:4]


FILTER_CASES = [
    ({"country": "gb"}, {UKRI, VEAT, "6bc75979-ce6c-46eb-81a6-eee543697dec"}),
    ({"cpv": "71000000"}, {UKRI}),
    ({"cpv": "7131"}, {UKRI}),  # an additional CPV code of the notice, by its class
    ({"cpv": "79000000-4"}, {MAXIMAL, "6bc75979-ce6c-46eb-81a6-eee543697dec"}),
    ({"date_from": "2020-04-10", "date_to": "2020-04-30"}, {UKRI, VEAT}),
    ({"value_min": 1_000_000, "currency": "GBP"}, {UKRI}),
    ({"value_max": 400_000}, {FRA, VEAT, "f252f386-55ac-4fa8-9be4-9f950b9904c8"}),
    ({"buyer": "rouen habitat"}, {FRA}),
    ({"winner": "RAMBOLL"}, {UKRI}),
    ({"winner": "healthcare", "country": "GB", "cpv": "33"}, {VEAT}),
    # the three filters of the benchmark, answered from the CPV index (ix_ted_notice_cpv_search) alone
    ({"country": "gb", "cpv": "71", "date_from": "2020-04-10", "date_to": "2020-04-30"}, {UKRI}),
    ({"country": "gb", "cpv": "71", "date_from": "2020-04-15", "date_to": "2020-04-30"}, set()),
    ({"country": "fr", "cpv": "7131"}, set()),
    ({"winner": "nobody at all"}, set()),
]


def test_search_filters(client, auth, notices):
    # one database for every case: the import is the slow part
    assert [set(_pubs(client.get(SEARCH, headers=auth, params=params))) for params, _ in FILTER_CASES] == [
        expected for _, expected in FILTER_CASES
    ]


def test_search_item_shape(client, auth, notices):
    item = next(n for n in assert_envelope(client.get(SEARCH, headers=auth, params={"winner": "ramboll"})))
    assert item == {
        "pub": UKRI,
        "noticeId": UKRI,
        "publicationNumber": None,
        "form": "ContractAwardNotice",
        "noticeType": "can-standard",
        "issueDate": "2020-04-14",
        "title": "Antarctic Infrastructure Modernisation Programme (AIMP) technical Advisor",
        "country": "GB",
        "cpv": {
            "code": "71000000",
            "label": "Architectural, construction, engineering and inspection services",
        },
        "value": 60000000.0,
        "currency": "GBP",
        "buyers": ["UK Research and Innovation"],
        "winners": ["Ramboll UK Ltd"],
        "link": None,
    }


def test_notice_detail_links_winners_by_id_and_by_name(client, auth, notices):
    fra = assert_envelope(client.get(f"/api/v1/ted/notice/{FRA}", headers=auth))
    lemire = next(w for w in fra["winnerParties"] if w["ref"] == "ORG-0004")
    assert lemire["link"] == {
        "method": "identifier",
        "score": 1.0,
        "company": {"country": "FR", "nationalId": "326912557", "name": "ESPACES VERTS LEMIRE"},
    }
    assert (lemire["lot"], lemire["value"], lemire["currency"], lemire["signedOn"]) == (
        "LOT-0001",
        95414.0,
        "EUR",
        "2019-09-03",
    )
    assert [lot["id"] for lot in fra["lots"]] == ["LOT-0001", "LOT-0002"]
    ukri = assert_envelope(client.get(f"/api/v1/ted/notice/{UKRI}", headers=auth))
    link = ukri["winnerParties"][0]["link"]
    assert link["method"] == "name" and link["score"] >= 0.9 and link["company"]["nationalId"] == "03659970"
    assert len(ukri["cpvCodes"]) == 12 and ukri["source"] == "ted_eforms" and ukri["licence"] == "CC BY 4.0"


def test_notice_group_winners_and_unlinked_names(client, auth, notices):
    veat = assert_envelope(client.get(f"/api/v1/ted/notice/{VEAT}", headers=auth))
    assert [(w["name"], w["groupLead"]) for w in veat["winnerParties"]] == [
        ("Direct Healthcare Services Ltd", False),
        ("Harvest Healthcare Ltd", False),
        ("Invacare Ltd", True),
    ]
    # "Invacare Ltd" (GB) is not the Danish "Invacare Holding A/S": another country never links
    assert all(w["link"] is None for w in veat["winnerParties"])


BAD_INPUT = [
    ({"cpv": "abc"}, "cpv"),
    ({"country": "xyz"}, "country"),
    ({"date_from": "2020-13-01"}, "date_from"),
    ({"date_from": "2021-01-01", "date_to": "2020-01-01"}, "date_from"),
    ({"value_min": 5, "value_max": 1}, "value_min"),
    ({"buyer": "   "}, "buyer"),
    ({"per_page": 101}, "per_page"),
    ({"page": 500, "per_page": 100}, "page"),
    ({"winer": "typo"}, "winer"),
]


def test_search_bad_input_is_422(client, auth):
    for params, field in BAD_INPUT:
        error = assert_error(client.get(SEARCH, headers=auth, params=params), 422, "VALIDATION_ERROR")
        assert field in str(error.get("details")) or field in error["message"]


def test_notice_errors_and_auth(client, auth, notices):
    assert_error(client.get("/api/v1/ted/notice/00000000-2099", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/ted/notice/bad%20pub!", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/ted/notice/" + "9" * 65, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(SEARCH), 401, "UNAUTHORIZED")
    assert_error(client.get(f"/api/v1/ted/notice/{UKRI}"), 401, "UNAUTHORIZED")


def test_search_unicode_and_empty_database(client, auth):
    assert (
        assert_envelope(client.get(SEARCH, headers=auth, params={"buyer": "Všeobecná fakultní 病院"})) == []
    )
    assert client.get(SEARCH, headers=auth).json()["meta"]["total"] == 0
