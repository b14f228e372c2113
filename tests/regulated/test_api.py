"""`/companies/{ico}/financial-supervision`, `/energy-regulation`, `/licensed-roles`, the
`financial-supervision-companies` feed and the `licensed_type` breakdown through HTTP."""

from __future__ import annotations

import pytest

from regintel.areas.companies.service import resolve_ico
from regintel.areas.regulated.service import regulated_activities
from tests.helpers import assert_envelope, assert_error
from tests.regulated.common import (
    BAILIFF_OFFICE,
    CZ_BANK,
    CZ_EXCHANGE,
    CZ_EXCHANGE_OFFICE,
    CZ_GRID,
    CZ_HEAT,
    EXPERT_FIRM,
    LAW_FIRM,
    SK_AGENT,
    SK_BANK,
    SK_PAYMENTS,
    SK_POWER,
    SK_WATER,
    import_all,
    load,
)

URL = "/api/v1/companies/{ico}/{path}"


@pytest.fixture
def regulated(engine, settings):
    load(engine)
    import_all(engine, settings.data_dir)


def _get(client, auth, ico, path, **params):
    return client.get(URL.format(ico=ico, path=path), headers=auth, params=params)


def test_a_slovak_bank(client, auth, regulated):
    resp = _get(client, auth, SK_BANK, "financial-supervision")
    data = assert_envelope(resp)
    assert resp.json()["meta"]["national_id"] == SK_BANK
    assert (data["supervised"], data["dora"], data["nis2Sectors"]) == (True, "yes", ["3 Banking"])
    by_category = {a["category"]: a for a in data["authorisations"]}
    assert set(by_category) == {"credit_institution", "investment_firm"}
    credit = by_category["credit_institution"]
    assert credit["grantedOn"] == "2004-01-02" and credit["dora"] == {
        "applies": "yes",
        "article": "Art. 2(1)(a)",
        "note": None,
    }
    assert credit["nis2"] == {
        "annex": "I",
        "sector": "3 Banking",
        "subsector": None,
        "lexSpecialis": (
            "DORA applies instead of NIS2 Art. 20, 21, 23 and Chapter VII (NIS2 Art. 4(1), recital 28)"
        ),
    }
    assert by_category["investment_firm"]["nis2"] is None
    source = credit["source"]
    assert source["id"] == "sk_nbs" and source["licence"].startswith("Public register")
    assert source["retrievedAt"].endswith("Z")


def test_a_czech_trading_venue_and_a_bureau_de_change(client, auth, regulated):
    venue = assert_envelope(_get(client, auth, CZ_EXCHANGE, "financial-supervision", country="cz"))
    assert venue["nis2Sectors"] == ["4 Financial market infrastructure"] and venue["dora"] == "yes"
    office = assert_envelope(_get(client, auth, CZ_EXCHANGE_OFFICE, "financial-supervision", country="CZ"))
    assert (office["supervised"], office["dora"], office["nis2Sectors"]) == (True, "no", [])
    assert office["authorisations"][0]["dora"]["note"].startswith("bureaux de change")
    bank = assert_envelope(_get(client, auth, CZ_BANK, "financial-supervision", country="cz"))
    assert bank["authorisations"][0]["source"]["id"] == "cz_cnb_jerrs"


def test_an_ended_authorisation_and_an_unmapped_type(client, auth, regulated):
    ended = assert_envelope(_get(client, auth, SK_PAYMENTS, "financial-supervision"))
    assert (ended["supervised"], ended["dora"]) == (False, None)
    assert [(a["status"], a["endedOn"]) for a in ended["authorisations"]] == [("ended", "2023-06-30")]
    agent = assert_envelope(_get(client, auth, SK_AGENT, "financial-supervision"))
    assert agent["dora"] == "unknown" and agent["authorisations"][0]["category"] == "other"


def test_no_register_names_the_company(client, auth, regulated):
    data = assert_envelope(_get(client, auth, SK_POWER, "financial-supervision"))
    assert data == {"supervised": False, "dora": None, "nis2Sectors": [], "authorisations": []}
    assert assert_envelope(_get(client, auth, SK_BANK, "energy-regulation")) == {
        "licensed": False,
        "activities": [],
        "nis2Sectors": [],
        "licences": [],
    }
    assert assert_envelope(_get(client, auth, SK_BANK, "licensed-roles")) == []


def test_energy_licences(client, auth, regulated):
    power = assert_envelope(_get(client, auth, SK_POWER, "energy-regulation"))
    assert power["activities"] == ["electricity_generation", "electricity_supply"]
    assert power["nis2Sectors"] == ["1 Energy (a) Electricity"]
    assert {lic["licenceNumber"] for lic in power["licences"]} == {"2005E 0101", "2005E 0102"}
    water = assert_envelope(_get(client, auth, SK_WATER, "energy-regulation"))
    assert (water["activities"], water["nis2Sectors"]) == (["drinking_water"], ["6 Drinking water"])
    grid = assert_envelope(_get(client, auth, CZ_GRID, "energy-regulation", country="cz"))
    assert grid["activities"] == ["electricity_distribution", "gas_distribution"]
    assert grid["nis2Sectors"] == ["1 Energy (a) Electricity", "1 Energy (d) Gas"]
    heat = assert_envelope(_get(client, auth, CZ_HEAT, "energy-regulation", country="cz"))
    assert (heat["licensed"], heat["licences"][0]["status"], heat["licences"][0]["endedOn"]) == (
        False,
        "ended",
        "2021-12-31",
    )


def test_licensed_roles_without_purpose_hide_the_contact(client, auth, regulated):
    resp = _get(client, auth, LAW_FIRM, "licensed-roles")
    items = assert_envelope(resp)
    meta = resp.json()["meta"]
    assert (meta["total"], meta["personal"], meta["page"], meta["per_page"]) == (3, False, 1, 50)
    assert [(i["role"], i["name"], i["registrationNumber"]) for i in items] == [
        ("lawyer", "Ján Testovací", "9001"),
        ("lawyer", "Zuzana Skúšobná", "9002"),
        ("tax_adviser", "Katarína Daňová", "DP-0501"),
    ]
    assert {i["contact"] is None for i in items} == {True}
    assert items[0]["firm"] == {"name": "Advokátska kancelária Test, s.r.o.", "nationalId": LAW_FIRM}
    assert items[0]["title"] == "JUDr." and items[0]["since"] == "2010-09-01"


def test_licensed_roles_with_a_declared_purpose_show_the_contact(client, auth, regulated):
    resp = _get(client, auth, LAW_FIRM, "licensed-roles", purpose="KYC", per_page=1, page=2)
    items = assert_envelope(resp)
    assert resp.json()["meta"]["personal"] is True and len(items) == 1
    assert items[0]["contact"] == {
        "address": "Advokátska 1, 811 01 Bratislava",
        "phone": "+421 2 0000 0002",
        "email": "zuzana.skusobna@example.sk",
        "website": None,
    }


@pytest.mark.parametrize(
    "ico, roles",
    [
        (BAILIFF_OFFICE, [("bailiff", "Tomáš Exekučný", None)]),
        (EXPERT_FIRM, [("expert", "Znalecký ústav Test, s.r.o.", "Ekonómia a manažment")]),
    ],
)
def test_other_lists(client, auth, regulated, ico, roles):
    items = assert_envelope(_get(client, auth, ico, "licensed-roles"))
    assert [(i["role"], i["name"], i["specialisation"]) for i in items] == roles


def test_unknown_purpose_is_refused(client, auth, regulated):
    err = assert_error(
        _get(client, auth, LAW_FIRM, "licensed-roles", purpose="curiosity"), 422, "VALIDATION_ERROR"
    )
    assert err["details"][0]["field"] == "purpose"


@pytest.mark.parametrize("path", ["financial-supervision", "energy-regulation", "licensed-roles"])
def test_edges(client, auth, regulated, path):
    assert_error(client.get(URL.format(ico=SK_BANK, path=path)), 401, "UNAUTHORIZED")
    assert_error(_get(client, auth, "12345678", path, country="sk"), 422, "VALIDATION_ERROR")
    assert_error(_get(client, auth, "31322832", path), 404, "NOT_FOUND")
    assert_error(_get(client, auth, "abc€", path, country="SK"), 422, "VALIDATION_ERROR")
    assert_error(_get(client, auth, SK_BANK, path, countr="sk"), 422, "VALIDATION_ERROR")
    assert_error(_get(client, auth, SK_BANK, path, country="x"), 422, "VALIDATION_ERROR")


def test_paging_edges(client, auth, regulated):
    assert_error(_get(client, auth, LAW_FIRM, "licensed-roles", per_page=0), 422, "VALIDATION_ERROR")
    assert_error(_get(client, auth, LAW_FIRM, "licensed-roles", per_page=101), 422, "VALIDATION_ERROR")
    assert_error(_get(client, auth, LAW_FIRM, "licensed-roles", page="x"), 422, "VALIDATION_ERROR")
    assert assert_envelope(_get(client, auth, LAW_FIRM, "licensed-roles", page=9)) == []


def test_financial_supervision_feed(client, regulated):
    feeds = {f["name"] for f in assert_envelope(client.get("/api/v1/public/stats.json"))["feeds"]}
    assert "financial-supervision-companies" in feeds
    data = assert_envelope(client.get("/api/v1/public/stats/financial-supervision-companies"))
    rows = {r["national_id"]: r for r in data["rows"]}
    assert set(rows) == {
        SK_BANK,
        "50202022",
        "52121216",
        "52222225",
        CZ_BANK,
        "50505050",
        CZ_EXCHANGE_OFFICE,
        CZ_EXCHANGE,
    }
    assert rows[SK_BANK] == {
        "country": "SK",
        "national_id": SK_BANK,
        "name": "Prvá testovacia banka, a.s.",
        "categories": "credit_institution;investment_firm",
        "registers": "sk_nbs",
        "dora": "yes",
    }
    assert rows[CZ_EXCHANGE_OFFICE]["dora"] == "no"
    assert [r["name"] for r in data["rows"]] == sorted(r["name"] for r in data["rows"])
    assert (
        len(
            assert_envelope(
                client.get("/api/v1/public/stats/financial-supervision-companies", params={"limit": 2})
            )["rows"]
        )
        == 2
    )
    csv = client.get("/api/v1/public/stats/financial-supervision-companies.csv")
    assert csv.status_code == 200 and "country,national_id,name,categories,registers,dora" in csv.text
    assert "Burza Test, a.s." in csv.text


def test_financial_supervision_feed_empty(client):
    assert assert_envelope(client.get("/api/v1/public/stats/financial-supervision-companies"))["rows"] == []


def test_regulated_activities_for_nis2(engine, regulated):
    with engine.connect() as conn:
        grid = regulated_activities(conn, int(resolve_ico(conn, CZ_GRID, "CZ")["id"]))
        bank = regulated_activities(conn, int(resolve_ico(conn, SK_BANK, "SK")["id"]))
        ended = regulated_activities(conn, int(resolve_ico(conn, CZ_HEAT, "CZ")["id"]))
    assert [(a.sector, a.category, a.nis2.subsector if a.nis2 else None) for a in grid] == [
        ("energy", "electricity_distribution", "(a) Electricity"),
        ("energy", "gas_distribution", "(d) Gas"),
    ]
    assert [(a.category, a.dora.applies if a.dora else None) for a in bank] == [
        ("credit_institution", "yes"),
        ("investment_firm", "yes"),
    ]
    assert ended == []


def test_breakdown_by_licensed_type(client, auth, regulated):
    resp = client.get("/api/v1/companies/stats/breakdown", params={"by": "licensed_type"}, headers=auth)
    groups = {g["key"]: (g["count"], g["share"]) for g in assert_envelope(resp)}
    assert groups == {
        "bailiff": (1, 0.1667),
        "expert": (1, 0.1667),
        "lawyer": (1, 0.1667),
        "notary": (1, 0.1667),
        "tax_adviser": (1, 0.1667),
        "translator": (1, 0.1667),
    }
    filtered = client.get(
        "/api/v1/companies/stats/breakdown", params={"by": "licensed_type", "country": "cz"}, headers=auth
    )
    assert assert_envelope(filtered) == []
