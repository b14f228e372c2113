"""Statistics: overview, breakdowns, freshness, shell addresses (keyed and public), public stats."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import insert

from regintel.db.schema import import_runs
from regintel.domain.types import CompanyRecord
from tests.api import companies_fixture as fx
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error


@pytest.fixture
def data(engine):
    fx.load(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(import_runs).values(
                source="test_register",
                status="succeeded",
                location="fixture",
                started_at=datetime(2026, 1, 1, tzinfo=UTC),
                finished_at=datetime(2026, 1, 1, 0, 5, tzinfo=UTC),
                stats={"read": 10},
            )
        )


def test_overview(client, auth, data):
    resp = client.get("/api/v1/companies/stats", headers=auth)
    data = assert_envelope(resp)
    assert data["totals"] == {
        "total": 10,
        "inBankruptcy": 1,
        "inRestructuring": 1,
        "inLiquidation": 1,
        "withLei": 2,
        "withVatId": 2,
        "withFinancials": 4,
    }
    assert data["byStatus"] == {"active": 8, "dissolved": 1, "inactive": 1}
    sk = next(c for c in data["byCountry"] if c["country"] == "SK")
    assert sk == {
        "country": "SK",
        "total": 5,
        "byStatus": {"active": 4, "dissolved": 1},
        "inBankruptcy": 1,
        "inRestructuring": 0,
        "inLiquidation": 1,
        "withLei": 1,
        "withVatId": 1,
        "withFinancials": 2,
    }
    assert data["byCountry"][0]["country"] == "SK"
    assert [s["id"] for s in data["sources"]] == ["test_register"]
    assert (
        data["lastImports"][0]["source"] == "test_register"
        and data["lastImports"][0]["status"] == "succeeded"
    )
    assert resp.json()["meta"]["cached"] is False
    assert client.get("/api/v1/companies/stats", headers=auth).json()["meta"]["cached"] is True
    assert_error(client.get("/api/v1/companies/stats"), 401, "UNAUTHORIZED")


def test_cache_follows_the_data(client, auth, data, engine):
    assert assert_envelope(client.get("/api/v1/companies/stats", headers=auth))["totals"]["total"] == 10
    load_companies(
        engine,
        CompanyRecord(
            country="SK", national_id="36631124", name="Nord Consulting s.r.o.", in_bankruptcy=True
        ),
    )
    resp = client.get("/api/v1/companies/stats", headers=auth)
    assert resp.json()["meta"]["cached"] is False
    assert assert_envelope(resp)["totals"]["inBankruptcy"] == 2


def breakdown(client, auth, **params) -> dict[str, dict]:
    resp = client.get("/api/v1/companies/stats/breakdown", params=params, headers=auth)
    return {i["key"]: i for i in assert_envelope(resp)}


def test_breakdowns(client, auth, data):
    country = breakdown(client, auth, by="country")
    assert country["SK"] == {
        "key": "SK",
        "label": "Slovakia",
        "count": 5,
        "share": 0.5,
        "in_bankruptcy": 1,
        "in_restructuring": 0,
        "in_liquidation": 1,
    }
    assert {k: v["count"] for k, v in breakdown(client, auth, by="status").items()} == {
        "active": 8,
        "dissolved": 1,
        "inactive": 1,
    }
    assert {k: v["count"] for k, v in breakdown(client, auth, by="nace_eu_section").items()} == {
        "J": 5,
        "C": 2,
        "F": 1,
        "M": 1,
        "A": 1,
    }
    assert breakdown(client, auth, by="nace_eu_section")["J"]["label"] == "INFORMATION AND COMMUNICATION"
    division = breakdown(client, auth, by="nace_eu_division")
    assert division["62"]["count"] == 5 and division["62"]["label"].startswith("Computer programming")
    nace = breakdown(client, auth, by="nace")
    assert nace["62.01"]["count"] == 4 and nace["62.02"]["count"] == 1 and nace["62.01"]["label"]
    region = breakdown(client, auth, by="region", country="sk")
    assert region["SK:1"]["count"] == 3 and region["SK:1"]["country"] == "SK"
    assert region["SK:1"]["label"] == "Region of Bratislava"
    assert breakdown(client, auth, by="region", country="cz")["CZ:27"]["label"] is None  # SK list only
    assert breakdown(client, auth, by="district")["SK:511"]["count"] == 1
    assert breakdown(client, auth, by="municipality")["SK:529346"]["count"] == 1
    assert {k: v["count"] for k, v in breakdown(client, auth, by="nuts2").items() if k} == {
        "SK01": 3,
        "SK03": 1,
        "CZ02": 1,
        "CZ01": 1,
        "FR10": 1,
        "UKI3": 1,
    }
    assert breakdown(client, auth, by="nuts3")["SK010"]["count"] == 3
    assert list(breakdown(client, auth, by="size")) == ["micro", "small", "large", "unknown"]
    assert breakdown(client, auth, by="size")["large"]["count"] == 3
    assert breakdown(client, auth, by="size_class")["10-19"]["count"] == 1
    entity = breakdown(client, auth, by="entity_type")
    assert entity["company"]["count"] == 9 and entity["sole_trader"]["count"] == 1
    assert entity["company"]["in_restructuring"] == 1
    assert breakdown(client, auth, by="legal_form")["SK:112"]["count"] == 3
    years = breakdown(client, auth, by="founded_year")
    assert years["1992"]["count"] == 1 and list(years)[0] == "1955"
    assert {k: v["count"] for k, v in breakdown(client, auth, by="lei_status").items()} == {
        "ISSUED": 1,
        "LAPSED": 1,
    }
    assert breakdown(client, auth, by="source")["test_register"]["count"] == 10
    shell = breakdown(client, auth, by="shell_density")
    assert (shell["1"]["addresses"], shell["2-4"]["addresses"], shell["2-4"]["count"]) == (7, 1, 3)


def test_breakdown_filters_limits_and_errors(client, auth, data):
    assert set(breakdown(client, auth, by="country", in_bankruptcy=1)) == {"SK"}
    assert len(breakdown(client, auth, by="country", limit=2)) == 2
    resp = client.get("/api/v1/companies/stats/breakdown?by=country&country=sk", headers=auth)
    assert resp.json()["meta"]["total"] == 5 and resp.json()["meta"]["by"] == "country"
    assert breakdown(client, auth, by="licensed_type") == {}  # no professionals imported (tests/regulated)
    for query in (
        "by=planet",
        "",
        "by=country&limit=0",
        "by=country&limit=1001",
        "by=country&sanctioned=2",
        "by=country&nace=zz",
        "by=country&foo=1",
    ):
        resp = client.get(f"/api/v1/companies/stats/breakdown?{query}", headers=auth)
        assert resp.status_code in (422, 501), query


def test_freshness(client, auth, data):
    data = assert_envelope(client.get("/api/v1/companies/stats/freshness", headers=auth))
    assert data["companies"] == 10
    assert data["coverage"]["lei"] == {"companies": 2, "share": 0.2}
    assert data["coverage"]["financials"] == {"companies": 4, "share": 0.4}
    assert data["coverage"]["nace"]["companies"] == 10 and data["coverage"]["address"]["companies"] == 10
    [source] = data["sources"]
    assert source["id"] == "test_register" and source["companies"] == 10
    assert source["lastRun"]["status"] == "succeeded" and source["newestLastSeen"].endswith("Z")
    assert data["lastUpdate"].endswith("Z")


def test_shell_addresses(client, auth, data):
    [top] = assert_envelope(
        client.get("/api/v1/companies/stats/shell-addresses?min_companies=2", headers=auth)
    )
    assert top["companies"] == 3 and top["country"] == "SK" and top["city"] == "Bratislava"
    assert (top["dissolved"], top["inLiquidation"], top["shareDissolved"]) == (1, 1, 0.3333)
    assert [s["nationalId"] for s in top["sample"]] == ["36631124", "00151653", "44444443"]
    assert top["sample"][0]["status"] == "dissolved"
    assert (
        assert_envelope(client.get("/api/v1/companies/stats/shell-addresses?min_companies=4", headers=auth))
        == []
    )
    assert (
        assert_envelope(
            client.get("/api/v1/companies/stats/shell-addresses?min_companies=2&country=cz", headers=auth)
        )
        == []
    )
    assert_error(
        client.get("/api/v1/companies/stats/shell-addresses?min_companies=1", headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert_error(client.get("/api/v1/companies/stats/shell-addresses"), 401, "UNAUTHORIZED")


def test_public_shell_addresses(client, data):
    resp = client.get("/api/v1/public/shell-addresses?min_companies=2&country=SK")
    [top] = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=900"
    assert top["companies"] == 3 and set(top) == {
        "address",
        "addressNorm",
        "city",
        "postalCode",
        "country",
        "companies",
        "sample",
    }
    assert all(set(s) == {"country", "nationalId", "name"} for s in top["sample"])
    assert client.get("/api/v1/public/shell-addresses?min_companies=2").json()["meta"]["cached"] is False
    assert client.get("/api/v1/public/shell-addresses?min_companies=2").json()["meta"]["cached"] is True
    for query in ("limit=201", "limit=0", "country=svk", "min_companies=1", "in_bankruptcy=1"):
        assert_error(client.get(f"/api/v1/public/shell-addresses?{query}"), 422, "VALIDATION_ERROR")


def test_public_stats(client, data):
    resp = client.get("/api/v1/public/stats")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=900"
    assert (data["entities"], data["active"]) == (10, 8)
    assert data["countries"][0] == {"country": "SK", "entities": 5, "active": 4}
    assert data["sources"][0]["id"] == "test_register" and "publisher" not in data["sources"][0]
    assert client.get("/api/v1/public/stats").json()["meta"]["cached"] is True
