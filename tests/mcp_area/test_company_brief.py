"""`GET /api/v1/agent/company-brief` through HTTP: the brief, the purpose gate, and every edge."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.domain.types import CompanyKey, CompanyRecord, PersonRecord, RoleRecord
from tests.api import companies_fixture
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.ownership.world import TARGET, load_world
from tests.screening.support import load_lists

URL = "/api/v1/agent/company-brief"
SLOVNAFT = "31322832"


@pytest.fixture
def data(engine):
    companies_fixture.load(engine)
    roles = [
        RoleRecord(
            "director",
            "Ján Novák",
            person=PersonRecord("Ján Novák", "1970-02", "SK", "SK"),
            title="predseda predstavenstva",
            since=date(2015, 1, 1),
        ),
        RoleRecord(
            "shareholder", "ŠKODA AUTO a.s.", holder_company=CompanyKey("CZ", "00177041"), share_pct=98.4
        ),
        RoleRecord(
            "director", "Former Director", person=PersonRecord("Former Director"), until=date(2001, 1, 1)
        ),
    ]
    load_companies(engine, CompanyRecord(country="SK", national_id=SLOVNAFT, roles=roles))


def test_brief_of_a_company(client, auth, data):
    resp = client.get(URL, params={"ico": SLOVNAFT}, headers=auth)
    brief = assert_envelope(resp)
    assert brief["headline"].startswith("SLOVNAFT, a.s. (SK 31322832)")
    assert "2023: revenue 6,000,000,000 EUR" in brief["headline"]
    identity = brief["identity"]
    assert (identity["country"], identity["nationalId"], identity["lei"], identity["vatId"]) == (
        "SK",
        SLOVNAFT,
        companies_fixture.LEI_SLOVNAFT,
        "SK2020372640",
    )
    assert identity["nace"]["code"] == "19200" and identity["nace"]["label"]
    assert brief["status"] == {
        "status": "active",
        "inBankruptcy": False,
        "inRestructuring": False,
        "inLiquidation": False,
        "foundedOn": "1992-04-24",
        "dissolvedOn": None,
    }
    figures = brief["keyFigures"]
    assert [y["year"] for y in figures["history"]] == [2023, 2022]
    assert figures["latest"]["revenue"] == 6_000_000_000 and figures["latest"]["currency"] == "EUR"
    assert figures["revenueChangePct"] == 20.0
    assert brief["flags"] == []
    people = brief["people"]
    assert people["total"] == 2 and people["personalFields"] is False  # the ended role is not current
    owner, director = people["items"]
    assert owner | {"source": None} == {
        "role": "shareholder",
        "name": "ŠKODA AUTO a.s.",
        "title": None,
        "holderType": "company",
        "sharePct": 98.4,
        "votingPct": None,
        "since": None,
        "source": None,
        "company": {"country": "CZ", "nationalId": "00177041"},
    }
    assert director["holderType"] == "person" and director["name"] == "Ján Novák"
    assert "birthDate" not in director and director["personKey"]
    assert brief["recentChanges"] and brief["recentChanges"][0]["field"]
    assert brief["sources"][0]["id"] == "test_register" and brief["sources"][0]["licence"]
    # the assessed sections are the areas' own answers (the compliance summary's items)
    compliance = assert_envelope(client.get(f"/api/v1/companies/{SLOVNAFT}/compliance", headers=auth))
    for section, item in (("creditScore", "creditGrade"), ("sanctions", "sanctions"), ("nis2", "nis2")):
        assert brief[section] == compliance[item]
    assert brief["ultimateOwners"]["status"] == compliance["beneficialOwnership"]["status"]
    assert brief["sanctions"]["status"] == "unknown" and "no sanctions" in brief["sanctions"]["reason"]
    assert brief["notCovered"] == [
        s for s in ("creditScore", "sanctions", "nis2", "ultimateOwners") if brief[s]["status"] == "unknown"
    ]
    assert "sanctions" in brief["notCovered"]
    meta = resp.json()["meta"]
    assert (meta["country"], meta["national_id"]) == ("SK", SLOVNAFT) and meta["data_as_of"]


def test_purpose_unlocks_personal_fields(client, auth, data):
    brief = assert_envelope(client.get(URL, params={"ico": SLOVNAFT, "purpose": "kyc"}, headers=auth))
    director = brief["people"]["items"][1]
    assert brief["people"]["personalFields"] is True
    assert (director["birthDate"], director["nationality"], director["countryOfResidence"]) == (
        "1970-02",
        "SK",
        "SK",
    )
    error = assert_error(
        client.get(URL, params={"ico": SLOVNAFT, "purpose": "curiosity"}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert error["details"][0]["field"] == "purpose"


def test_flags_of_an_insolvent_company_and_unicode(client, auth, data):
    brief = assert_envelope(client.get(URL, params={"ico": "35757442"}, headers=auth))
    assert brief["identity"]["name"] == "Stavby Žilina s.r.o."
    assert [(f["code"], f["severity"]) for f in brief["flags"]] == [
        ("IN_BANKRUPTCY", "critical"),
        ("LOSS", "info"),
    ]
    assert "in bankruptcy" in brief["headline"]
    cz = assert_envelope(client.get(URL, params={"ico": "00177041", "country": "Cz"}, headers=auth))
    assert cz["identity"]["name"] == "ŠKODA AUTO a.s." and cz["people"] == {
        "total": 0,
        "items": [],
        "personalFields": False,
    }


def test_country_defaults_to_sk(client, auth, data):
    # 00177041 is a Czech company: without `country` the brief looks in SK (spec 2.2), where it is unknown
    assert_error(client.get(URL, params={"ico": "00177041"}, headers=auth), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"ico": "12345678"}, 422, "VALIDATION_ERROR"),  # fails the IČO check digit
        ({"ico": "44444443", "country": "cz"}, 404, "NOT_FOUND"),
        ({"ico": "1" * 41}, 422, "VALIDATION_ERROR"),
        ({"ico": ""}, 422, "VALIDATION_ERROR"),
        ({}, 422, "VALIDATION_ERROR"),
        ({"ico": SLOVNAFT, "country": "xx"}, 404, "NOT_FOUND"),  # as /companies/XX/{id}
        ({"ico": SLOVNAFT, "country": "svk"}, 422, "VALIDATION_ERROR"),
        ({"ico": SLOVNAFT, "purpose": "p" * 65}, 422, "VALIDATION_ERROR"),
        ({"ico": SLOVNAFT, "icoo": "1"}, 422, "VALIDATION_ERROR"),  # unknown parameter
        ({"ico": "Žilina ✓"}, 422, "VALIDATION_ERROR"),
    ],
)
def test_bad_input(client, auth, data, params, status, code):
    assert_error(client.get(URL, params=params, headers=auth), status, code)


def test_needs_a_key(client, data):
    assert_error(client.get(URL, params={"ico": SLOVNAFT}), 401, "UNAUTHORIZED")
    assert_error(client.get(URL, params={"ico": SLOVNAFT, "api_key": "ri_nope"}), 401, "UNAUTHORIZED")


def test_sanctions_are_covered_once_a_list_is_imported(client, auth, engine, data):
    load_lists(engine)
    brief = assert_envelope(client.get(URL, params={"ico": SLOVNAFT}, headers=auth))
    assert brief["sanctions"]["status"] in ("clear", "name_match", "confirmed_hit")
    assert "sanctions" not in brief["notCovered"]


def test_ultimate_owners_are_named(client, auth, engine):
    load_world(engine)
    brief = assert_envelope(client.get(URL, params={"ico": TARGET}, headers=auth))
    owners = brief["ultimateOwners"]
    assert owners["status"] == "known" and owners["reason"] is None
    assert {o["name"] for o in owners["value"]["beneficialOwners25"]} >= {"Jana Nováková"}
    assert all("personal" not in o for o in owners["value"]["beneficialOwners25"])  # no purpose, no details
