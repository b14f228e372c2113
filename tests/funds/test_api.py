"""`/companies/{ico}/eu-projects`, `/cordis-projects`, `/cz-subsidies`, `/gber`, the public EU-funds summary
and the `eu-funds` and `cordis-projects` statistics feeds through HTTP."""

from __future__ import annotations

import pytest

from tests.funds.common import ALZA, CEZ, CUNI, SLOVNAFT, import_all, load_fund_companies
from tests.helpers import assert_envelope, assert_error


@pytest.fixture
def funded(engine, settings):
    load_fund_companies(engine)
    import_all(engine, settings.data_dir)


def _get(client, auth, path, **params):
    resp = client.get(path, headers=auth, params=params)
    return assert_envelope(resp), resp.json()["meta"]


def test_eu_projects_from_kohesio_and_fts(client, auth, funded):
    items, meta = _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/eu-projects")
    assert (meta["total"], meta["page"], meta["per_page"], meta["country"], meta["national_id"]) == (
        2,
        1,
        20,
        "SK",
        SLOVNAFT,
    )
    kohesio = items[0]
    assert kohesio == {
        "id": kohesio["id"],
        "project": "Modernizácia hydrokrakovacej jednotky – zníženie emisií",
        "programme": "Integrated Infrastructure (2014SK16RFOP002)",
        "fund": "ERDF",
        "amount": 12500000.0,
        "euContribution": 7500000.0,
        "currency": "EUR",
        "period": {"start": "2021-03-01", "end": "2024-06-30"},
        "year": None,
        "grantingBody": None,
        "beneficiary": {"name": "SLOVNAFT, a.s.", "nationalId": None, "vat": None, "country": "SK"},
        "match": {"method": "name", "score": 1.0},
        "link": "https://kohesio.ec.europa.eu/en/projects/Q4100001",
        "source": {"id": "eu_kohesio", "importedAt": kohesio["source"]["importedAt"]},
    }
    fts = items[1]
    assert (
        fts["project"],
        fts["amount"],
        fts["euContribution"],
        fts["year"],
        fts["grantingBody"],
        fts["match"],
    ) == (
        "Innovation Fund small-scale project: low-carbon hydrogen",
        4500000.0,
        4500000.0,
        2023,
        "CINEA",
        {"method": "vat", "score": 1.0},
    )
    assert {s["id"] for s in meta["sources"]} == {"eu_kohesio", "eu_fts"}
    assert all(s["licence"] and s["attribution"] for s in meta["sources"])


def test_cordis_projects_with_role_and_contribution(client, auth, funded):
    items, meta = _get(client, auth, f"/api/v1/companies/{CUNI}/cordis-projects", country="cz")
    assert meta["total"] == 2 and [i["projectId"] for i in items] == ["101070001", "958001"]
    first = items[0]
    assert first == {
        "projectId": "101070001",
        "acronym": "GREENH2CAT",
        "title": "Green hydrogen catalysts for refineries – Zelené katalyzátory",
        "framework": "HORIZON",
        "fundingScheme": "HORIZON-RIA",
        "status": "SIGNED",
        "period": {"start": "2023-01-01", "end": "2026-12-31"},
        "totalCost": 4999875.0,
        "ecMaxContribution": 4999875.0,
        "role": "coordinator",
        "ecContribution": 2100000.5,
        "netEcContribution": 1900000.0,
        "organisationTotalCost": 2100000.5,
        "currency": "EUR",
        "participationEnded": False,
        "organisation": {
            "pic": "999976620",
            "name": "UNIVERZITA KARLOVA",
            "vat": "CZ00216208",
            "country": "CZ",
            "sme": False,
            "activityType": "HES",
        },
        "match": {"method": "vat", "score": 1.0},
        "link": "https://cordis.europa.eu/project/id/101070001",
        "source": {"id": "eu_cordis", "importedAt": first["source"]["importedAt"]},
    }
    assert (items[1]["role"], items[1]["participationEnded"]) == ("participant", True)


def test_a_participation_whose_project_is_not_imported_has_no_title(client, auth, funded):
    items, _ = _get(client, auth, f"/api/v1/companies/{CEZ}/cordis-projects", country="CZ")
    assert [(i["projectId"], i["title"], i["role"]) for i in items] == [
        ("958001", "Smart grids for Central and Eastern Europe", "coordinator"),
        ("777777", None, "partner"),
    ]


def test_cz_subsidies_by_ico(client, auth, funded):
    items, meta = _get(client, auth, f"/api/v1/companies/{ALZA}/cz-subsidies", country="cz")
    assert meta["total"] == 1
    item = items[0]
    assert item == {
        "id": item["id"],
        "subsidyNumber": "MPO-2024-000123",
        "title": "Úspory energie ve skladu Chrášťany",
        "purpose": "Snížení energetické náročnosti",
        "programme": "OP TAK – Úspory energie",
        "provider": "Ministerstvo průmyslu a obchodu",
        "amountApproved": 1250000.5,
        "currency": "CZK",
        "grantedOn": "2024-03-15",
        "year": 2024,
        "recipient": {"name": "Alza.cz a.s.", "nationalId": ALZA, "vat": None, "country": "CZ"},
        "match": {"method": "identifier", "score": 1.0},
        "source": {"id": "cz_dotinfo", "importedAt": item["source"]["importedAt"]},
    }


def test_gber_shows_only_gber_awards(client, auth, funded):
    items, meta = _get(client, auth, f"/api/v1/companies/{SLOVNAFT}/gber")
    assert meta["total"] == 1  # the ABER award of the same company is not GBER
    item = items[0]
    assert item == {
        "id": item["id"],
        "reference": "SK-2022-0042",
        "saNumber": "SA.46789",
        "measureTitle": "Schéma na podporu energetickej efektívnosti",
        "measureType": "GBER",
        "instrument": "Loan",
        "objective": "Environmental protection",
        "nominalAmount": 3000000.0,
        "aidElement": 410000.0,
        "currency": "EUR",
        "grantedOn": "2022-09-01",
        "grantingAuthority": "Slovak Investment Holding",
        "region": "SK010 Bratislavský kraj",
        "nace": "C.19.20",
        "beneficiary": {"name": "SLOVNAFT, a.s.", "nationalId": "SK2020372640", "vat": None, "country": "SK"},
        "match": {"method": "vat", "score": 1.0},
        "link": "https://competition-cases.ec.europa.eu/cases/SA.46789",
        "source": {"id": "eu_state_aid_tam", "importedAt": item["source"]["importedAt"]},
    }
    cez, _ = _get(client, auth, f"/api/v1/companies/{CEZ}/gber", country="cz")
    assert [(i["nominalAmount"], i["currency"]) for i in cez] == [(25000000.0, "CZK")]


@pytest.mark.parametrize("section", ["eu-projects", "cordis-projects", "cz-subsidies", "gber"])
def test_a_company_without_any_gets_an_empty_list(client, auth, funded, section):
    items, meta = _get(
        client,
        auth,
        f"/api/v1/companies/{ALZA if section != 'cz-subsidies' else CUNI}/{section}",
        country="cz",
    )
    expected = 1 if section == "eu-projects" else 0  # Alza has a Kohesio project
    assert (len(items), meta["total"]) == (expected, expected)


def test_pages(client, auth, funded):
    first, meta = _get(client, auth, f"/api/v1/companies/{CEZ}/cordis-projects", country="cz", per_page=1)
    second, _ = _get(
        client, auth, f"/api/v1/companies/{CEZ}/cordis-projects", country="cz", per_page=1, page=2
    )
    beyond, _ = _get(
        client, auth, f"/api/v1/companies/{CEZ}/cordis-projects", country="cz", per_page=1, page=3
    )
    assert meta["total"] == 2 and first[0]["projectId"] != second[0]["projectId"] and beyond == []


@pytest.mark.parametrize("section", ["eu-projects", "cordis-projects", "cz-subsidies", "gber"])
def test_section_errors(client, auth, api_key, funded, section):
    assert_error(client.get(f"/api/v1/companies/{SLOVNAFT}/{section}"), 401, "UNAUTHORIZED")
    assert_error(
        client.get(f"/api/v1/companies/12345679/{section}", headers=auth, params={"country": "cz"}),
        404,
        "NOT_FOUND",
    )
    assert_error(
        client.get(f"/api/v1/companies/12ab/{section}", headers=auth, params={"country": "cz"}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(f"/api/v1/companies/{SLOVNAFT}/{section}", headers=auth, params={"pgae": 2}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(f"/api/v1/companies/{SLOVNAFT}/{section}", headers=auth, params={"per_page": 101}),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(
            f"/api/v1/companies/{SLOVNAFT}/{section}", headers=auth, params={"per_page": 100, "page": 101}
        ),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(
        client.get(f"/api/v1/companies/{SLOVNAFT}/{section}", headers=auth, params={"country": "ž"}),
        422,
        "VALIDATION_ERROR",
    )
    ok = client.get(f"/api/v1/companies/{SLOVNAFT}/{section}", params={"api_key": api_key})
    assert ok.status_code == 200


def test_public_eu_funds_summary(client, funded):
    resp = client.get(f"/api/v1/public/eu-funds/{SLOVNAFT}.json")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600" and resp.json()["meta"]["cached"] is False
    assert data["company"] == {"country": "SK", "nationalId": SLOVNAFT, "name": "SLOVNAFT, a.s."}
    assert (data["projects"], data["euContribution"], data["currency"]) == (
        3,
        7500000.0 + 4500000.0 + 1500000.0,
        "EUR",
    )
    assert [(p["source"], p["euContribution"]) for p in data["topProjects"]] == [
        ("eu_kohesio", 7500000.0),
        ("eu_fts", 4500000.0),
        ("eu_cordis", 1500000.0),
    ]
    assert data["topProjects"][2]["link"] == "https://cordis.europa.eu/project/id/101070001"
    again = client.get(f"/api/v1/public/eu-funds/{SLOVNAFT}.json")
    assert again.json()["meta"]["cached"] is True and again.json()["data"] == data


def test_public_eu_funds_of_many_projects_shows_five(client, funded):
    data = assert_envelope(client.get(f"/api/v1/public/eu-funds/{CUNI}.json", params={"country": "CZ"}))
    assert data["projects"] == 3 and len(data["topProjects"]) == 3
    assert [p["euContribution"] for p in data["topProjects"]] == [2100000.5, 900000.25, 300000.0]


def test_public_eu_funds_errors(client, funded):
    assert_error(
        client.get("/api/v1/public/eu-funds/12345679.json", params={"country": "cz"}), 404, "NOT_FOUND"
    )
    assert_error(client.get("/api/v1/public/eu-funds/x%C5%BE.json"), 422, "VALIDATION_ERROR")
    assert_error(
        client.get(f"/api/v1/public/eu-funds/{SLOVNAFT}.json", params={"limit": 5}), 422, "VALIDATION_ERROR"
    )
    empty = assert_envelope(client.get(f"/api/v1/public/eu-funds/{ALZA}.json", params={"country": "cz"}))
    assert (empty["projects"], empty["euContribution"]) == (1, 1600000.25)


def test_stats_feeds(client, funded):
    feeds = {f["name"] for f in assert_envelope(client.get("/api/v1/public/stats.json"))["feeds"]}
    assert {"eu-funds", "cordis-projects"} <= feeds
    eu = assert_envelope(client.get("/api/v1/public/stats/eu-funds"))
    assert [(r["rank"], r["national_id"], r["projects"], r["eu_contribution_eur"]) for r in eu["rows"]] == [
        (1, SLOVNAFT, 3, 13500000.0),
        (2, CUNI, 3, 3300000.75),
        (3, ALZA, 1, 1600000.25),
        (4, CEZ, 2, 1250000.0),
    ]
    cordis = assert_envelope(client.get("/api/v1/public/stats/cordis-projects"))
    assert [
        (r["national_id"], r["projects"], r["coordinated"], r["ec_contribution_eur"]) for r in cordis["rows"]
    ] == [(CUNI, 2, 1, 3000000.75), (SLOVNAFT, 1, 0, 1500000.0), (CEZ, 2, 1, 1250000.0)]
    csv = client.get("/api/v1/public/stats/cordis-projects.csv")
    assert (
        csv.status_code == 200
        and "rank,country,national_id,name,projects,coordinated,ec_contribution_eur" in csv.text
    )
    assert "Univerzita Karlova" in csv.text


def test_stats_feeds_empty(client):
    assert assert_envelope(client.get("/api/v1/public/stats/eu-funds"))["rows"] == []
