"""Company records by key, `/companies/{ico}` disambiguation, history (issue: company data, read side)."""

from __future__ import annotations

from datetime import date

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies, make_company
from tests.helpers import assert_envelope, assert_error


def test_by_country_and_national_id(client, auth, engine):
    make_company(
        engine,
        city="Bratislava",
        in_liquidation=True,
        founded_on=date(1992, 4, 24),
        lei="097900BGCY0000006391",
    )
    data = assert_envelope(client.get("/api/v1/companies/sk/31322832", headers=auth))
    assert data["country"] == "SK" and data["nationalId"] == "31322832"
    assert data["name"] == "SLOVNAFT, a.s."
    assert (data["inBankruptcy"], data["inRestructuring"], data["inLiquidation"]) == (False, False, True)
    assert data["foundedOn"] == "1992-04-24"
    assert {"type": "ico", "value": "31322832", "source": "test_register"} in data["identifiers"]
    assert {"type": "lei", "value": "097900BGCY0000006391", "source": "test_register"} in data["identifiers"]
    assert data["sources"][0]["id"] == "test_register" and data["sources"][0]["licence"] == "CC0 1.0"
    assert data["updatedAt"].endswith("Z")
    same = assert_envelope(client.get("/api/v1/companies/SK/31 322 832", headers=auth))
    assert same["nationalId"] == "31322832"


def test_errors(client, auth, engine):
    make_company(engine)
    assert_error(client.get("/api/v1/companies/sk/35757442", headers=auth), 404, "NOT_FOUND")
    err = assert_error(client.get("/api/v1/companies/sk/31322833", headers=auth), 422, "VALIDATION_ERROR")
    assert "check digit" in err["message"] or "checksum" in err["message"]
    assert_error(client.get("/api/v1/companies/sk/' OR 1=1 --", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/sk/" + "1" * 41, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/sk/31322832"), 401, "UNAUTHORIZED")
    assert_error(client.get("/api/v1/companies/xx/31322832", headers=auth), 404, "NOT_FOUND")


def test_ico_default_and_ambiguity(client, auth, engine):
    make_company(engine)
    data = assert_envelope(client.get("/api/v1/companies/31322832", headers=auth))
    assert data["country"] == "SK"
    load_companies(engine, CompanyRecord(country="CZ", national_id="31322832", name="Česká firma s.r.o."))
    err = assert_error(client.get("/api/v1/companies/31322832", headers=auth), 409, "AMBIGUOUS_IDENTIFIER")
    assert {c["country"] for c in err["details"]["candidates"]} == {"SK", "CZ"}
    data = assert_envelope(client.get("/api/v1/companies/31322832?country=cz", headers=auth))
    assert data["name"] == "Česká firma s.r.o."
    assert_error(client.get("/api/v1/companies/abc", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/35757442", headers=auth), 404, "NOT_FOUND")


def test_history_paginates(client, auth, engine):
    make_company(engine, city="Bratislava")
    make_company(engine, city="Bratislava II", name="Slovnaft, a.s.")
    make_company(engine, city="Bratislava II", name="Slovnaft, a.s.", in_bankruptcy=True)
    resp = client.get("/api/v1/companies/31322832/history?limit=2", headers=auth)
    items = assert_envelope(resp)
    assert [i["field"] for i in items] == ["in_bankruptcy", "city"]
    assert items[0]["from"] == "false" and items[0]["to"] == "true"
    cursor = resp.json()["meta"]["next_cursor"]
    rest = assert_envelope(
        client.get(f"/api/v1/companies/31322832/history?limit=50&cursor={cursor}", headers=auth)
    )
    fields = [i["field"] for i in items + rest]
    assert fields[-1] == "created" and len(fields) == len(set(i["id"] for i in items + rest))
    only = assert_envelope(client.get("/api/v1/companies/31322832/history?field=city", headers=auth))
    assert [(i["from"], i["to"]) for i in only] == [("Bratislava", "Bratislava II")]
    assert_error(
        client.get("/api/v1/companies/31322832/history?cursor=!!", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get("/api/v1/companies/31322832/history?limit=0", headers=auth), 422, "VALIDATION_ERROR"
    )
