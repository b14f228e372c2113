"""Search endpoints through HTTP (issue: finding companies): search, autocomplete, public autocomplete,
addresses, people, resolve and match."""

from __future__ import annotations

import pytest

from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

SLOVNAFT = CompanyRecord(
    country="SK",
    national_id="31322832",
    name="SLOVNAFT, a.s.",
    city="Bratislava",
    street="Vlčie hrdlo 1",
    postal_code="82412",
    vat_id="SK2020244699",
    lei="097900BGCY0000006315",
    legal_form="121",
)
COMPANIES = [
    SLOVNAFT,
    CompanyRecord(
        country="SK",
        national_id="31333532",
        name="ESET, spol. s r.o.",
        city="Bratislava",
        street="Einsteinova 24",
        postal_code="85101",
    ),
    CompanyRecord(
        country="SK",
        national_id="00151653",
        name="Tatra banka, a.s.",
        city="Bratislava",
        street="Hodžovo námestie 3",
        postal_code="81106",
    ),
    CompanyRecord(
        country="SK",
        national_id="36403008",
        name="Žilinská teplárenská, a. s.",
        city="Žilina",
        street="Košická 11",
        postal_code="01001",
    ),
    CompanyRecord(
        country="SK",
        national_id="35757442",
        name="Slovnaft Retail s.r.o.",
        city="Bratislava",
        street="Vlčie hrdlo 1",
        postal_code="82412",
        status="dissolved",
    ),
    CompanyRecord(
        country="CZ",
        national_id="45274649",
        name="ČEZ, a. s.",
        city="Praha",
        street="Duhová 2/1444",
        postal_code="14053",
    ),
    CompanyRecord(country="GB", national_id="00102498", name="BP P.L.C.", city="London"),
    CompanyRecord(
        country="SK",
        national_id="44483767",
        name="Novák & Synovia s.r.o.",
        city="Trnava",
        roles=[
            RoleRecord(
                role="director",
                holder_name="Ján Novák",
                person=PersonRecord("Ján Novák", birth_date="1970-05", nationality="SK"),
            )
        ],
    ),
]


@pytest.fixture
def data(engine):
    load_companies(engine, *COMPANIES)


def names(items):
    return [i["name"] for i in items]


@pytest.mark.parametrize(
    "q",
    [
        "slovnaft",
        "SLOVNAFT a.s.",
        "slovnaft as",
        "Slovnaft, akciová spoločnosť",
        "slovnft",
        "slovanft",
        "sloavnft",
    ],
)
def test_search_forgives_case_forms_and_typos(client, auth, data, q):
    items = assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth))
    assert items[0]["name"] == "SLOVNAFT, a.s." and 0 < items[0]["score"] <= 1


def test_search_diacritics_word_order_and_country(client, auth, data):
    items = assert_envelope(client.get("/api/v1/companies/search?q=zilinska teplarenska", headers=auth))
    assert items[0]["name"] == "Žilinská teplárenská, a. s."
    items = assert_envelope(client.get("/api/v1/companies/search?q=banka tatra", headers=auth))
    assert items[0]["name"] == "Tatra banka, a.s."
    items = assert_envelope(client.get("/api/v1/companies/search?q=cez&country=cz", headers=auth))
    assert names(items) == ["ČEZ, a. s."] and items[0]["country"] == "CZ"
    assert assert_envelope(client.get("/api/v1/companies/search?q=cez&country=SK", headers=auth)) == []


def test_search_paginates_and_finds_identifiers(client, auth, data):
    resp = client.get("/api/v1/companies/search?q=slovnaft&limit=1&page=2", headers=auth)
    items = assert_envelope(resp)
    assert resp.json()["meta"]["total"] == 2 and names(items) == ["Slovnaft Retail s.r.o."]
    for q in ("31 322 832", "SK 2020244699", "097900BGCY0000006315"):
        items = assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth))
        assert items[0]["nationalId"] == "31322832"


def test_search_bad_input(client, auth, data):
    assert_error(client.get("/api/v1/companies/search", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/search?q=%20%20", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/search?q=" + "x" * 201, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get("/api/v1/companies/search?q=a&country=zz1", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/companies/search?q=a&limit=0", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/search?q=a&colour=red", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/search?q=a"), 401, "UNAUTHORIZED")
    for q in ("' OR 1=1 --", '"*~()', "ğüş ñ 中文", "%", "a" * 200, "AND OR NOT"):
        assert_envelope(client.get("/api/v1/companies/search", params={"q": q}, headers=auth))
    # control characters are refused before any route (HTTP conformance, issue 16)
    assert_error(
        client.get("/api/v1/companies/search", params={"q": "\x00"}, headers=auth), 422, "VALIDATION_ERROR"
    )


def test_autocomplete_prefix_typos_and_highlight(client, auth, data):
    items = assert_envelope(client.get("/api/v1/companies/autocomplete?q=slovn", headers=auth))
    assert names(items)[:2] == ["SLOVNAFT, a.s.", "Slovnaft Retail s.r.o."]
    assert items[0]["highlight"] == "<mark>SLOVN</mark>AFT, a.s."
    items = assert_envelope(client.get("/api/v1/companies/autocomplete?q=zilinska tepl", headers=auth))
    assert items[0]["highlight"] == "<mark>Žilinská</mark> <mark>tepl</mark>árenská, a. s."
    items = assert_envelope(client.get("/api/v1/companies/autocomplete?q=novak %26 syn", headers=auth))
    assert items[0]["highlight"] == "<mark>Novák</mark> &amp; <mark>Syn</mark>ovia s.r.o."
    items = assert_envelope(
        client.get("/api/v1/companies/autocomplete?q=slovnaf&active_only=true", headers=auth)
    )
    assert names(items) == ["SLOVNAFT, a.s."]


def test_public_autocomplete(client, data):
    resp = client.get("/api/v1/public/autocomplete?q=slovnaft")
    items = assert_envelope(resp)
    assert names(items) == ["SLOVNAFT, a.s."]  # the dissolved Slovnaft Retail is left out
    assert resp.headers["cache-control"].startswith("public")
    assert set(items[0]) == {"country", "nationalId", "name", "legalForm", "city", "highlight"}
    assert_error(client.get("/api/v1/public/autocomplete?q=a&limit=9"), 422, "VALIDATION_ERROR")


def test_address_autocomplete_and_at_address(client, auth, data):
    items = assert_envelope(client.get("/api/v1/public/address/autocomplete?q=vlcie hrdlo"))
    assert items[0]["address"] == "Vlčie hrdlo 1, 82412 Bratislava" and items[0]["companies"] == 2
    resp = client.get(
        "/api/v1/companies/at-address", params={"address": "VLČIE HRDLO 1, 824 12 Bratislava"}, headers=auth
    )
    items = assert_envelope(resp)
    assert sorted(names(items)) == ["SLOVNAFT, a.s.", "Slovnaft Retail s.r.o."]
    resp = client.get(
        "/api/v1/companies/at-address", params={"address": "Vlcie hrdlo 1, 82412 Bratislva"}, headers=auth
    )
    assert resp.json()["meta"]["total"] == 2
    assert_error(
        client.get("/api/v1/companies/at-address?address=Nowhere 99", headers=auth), 404, "NOT_FOUND"
    )


def test_people_and_purpose(client, auth, data):
    items = assert_envelope(client.get("/api/v1/people/search?q=novak jan", headers=auth))
    assert items[0]["name"] == "Ján Novák" and "birthDate" not in items[0]
    assert items[0]["roles"][0]["company"]["name"] == "Novák & Synovia s.r.o."
    key = items[0]["key"]
    data = assert_envelope(client.get(f"/api/v1/companies/person/{key}?purpose=kyc", headers=auth))
    assert data["person"]["birthDate"] == "1970-05" and data["companyCount"] == 1
    assert data["roles"][0]["role"] == "director"
    data = assert_envelope(client.get(f"/api/v1/companies/person/{key}", headers=auth))
    assert "birthDate" not in data["person"]
    assert_error(
        client.get(f"/api/v1/companies/person/{key}?purpose=curiosity", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/companies/person/nobody", headers=auth), 404, "NOT_FOUND")


@pytest.mark.parametrize(
    "q",
    [
        "Slovnaft a.s., Bratislava",
        "slovnaft bratislava",
        "31 322 832",
        "SK2020244699",
        "097900BGCY0000006315",
        "SLOVNAFT",
    ],
)
def test_resolve(client, auth, data, q):
    data = assert_envelope(client.get("/api/v1/companies/resolve", params={"q": q}, headers=auth))
    assert data["entity"]["nationalId"] == "31322832" and 0.8 <= data["score"] <= 1
    assert data["reasons"]
    posted = assert_envelope(client.post("/api/v1/companies/resolve", json={"q": q}, headers=auth))
    assert posted["entity"] == data["entity"]


def test_resolve_not_found_and_bad_input(client, auth, data):
    err = assert_error(
        client.get("/api/v1/companies/resolve?q=Slovnafta Trnava Holding", headers=auth), 404, "NOT_FOUND"
    )
    assert err["details"]["candidates"][0]["company"]["nationalId"] in ("31322832", "35757442")
    assert_error(
        client.post("/api/v1/companies/resolve", json={"q": "x", "extra": 1}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(client.post("/api/v1/companies/resolve", json={}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/api/v1/companies/resolve", content=b"{not json", headers=auth), 422, "VALIDATION_ERROR"
    )


def test_match(client, auth, data):
    body = {
        "name": "Slovnaft",
        "country": "sk",
        "address": "Vlcie hrdlo, Bratislava",
        "identifiers": {"ico": "31 322 832"},
    }
    items = assert_envelope(client.post("/api/v1/companies/match", json=body, headers=auth))
    assert items[0]["company"]["nationalId"] == "31322832" and items[0]["match"] is True
    assert items[0]["features"]["identifiers"] == [{"type": "national_id", "value": "31322832"}]
    assert items[0]["score"] > items[1]["score"]
    items = assert_envelope(client.post("/api/v1/companies/match", json={"name": "tatra bank"}, headers=auth))
    assert items[0]["company"]["name"] == "Tatra banka, a.s."
    assert_error(
        client.post("/api/v1/companies/match", json={"name": "x", "colour": 1}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.post("/api/v1/companies/match", json={"identifiers": {"iban": "x"}}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.post("/api/v1/companies/match", json={"country": "SK"}, headers=auth), 422, "VALIDATION_ERROR"
    )


def test_match_refuses_malformed_identifiers_each_named(client, auth, data):
    """Issue 16: a malformed identifier was taken and simply matched nothing."""
    body = {
        "name": "Slovnaft",
        "country": "SK",
        "identifiers": {"ico": "31322833", "lei": "not-a-lei", "vat": "SK2020244699"},
    }
    err = assert_error(
        client.post("/api/v1/companies/match", json=body, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert [d["field"] for d in err["details"]] == ["identifiers.ico", "identifiers.lei"]
    for ids in ({"national_id": "!!"}, {"ic_dph": "SK123"}, {"dic": "12"}, {"vat": "XX1"}):
        resp = client.post("/api/v1/companies/match", json={"identifiers": ids}, headers=auth)
        assert_error(resp, 422, "VALIDATION_ERROR")
    # well-formed without a country: checked against every market
    items = assert_envelope(
        client.post(
            "/api/v1/companies/match", json={"identifiers": {"national_id": "31322832"}}, headers=auth
        )
    )
    assert items[0]["company"]["nationalId"] == "31322832"


def test_index_follows_new_data(app_factory, auth, engine, data):
    client = app_factory(search_refresh_seconds=0)
    assert assert_envelope(client.get("/api/v1/companies/search?q=orange slovensko", headers=auth)) == []
    load_companies(engine, CompanyRecord(country="SK", national_id="35697270", name="Orange Slovensko, a.s."))
    items = assert_envelope(client.get("/api/v1/companies/search?q=orange slovensko", headers=auth))
    assert names(items) == ["Orange Slovensko, a.s."]
    load_companies(engine, CompanyRecord(country="SK", national_id="35697270", name="Orange Slovakia, a.s."))
    items = assert_envelope(client.get("/api/v1/companies/search?q=orange slovakia", headers=auth))
    assert names(items)[0] == "Orange Slovakia, a.s."
