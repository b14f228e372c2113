"""Exact lookups: /companies/lookup, /companies/by-identifier, /companies/by-lei, POST /companies/bulk."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord
from tests.builders import load_companies, make_company
from tests.helpers import assert_envelope, assert_error

LEI = "097900BGCY0000006315"
LEI_ORPHAN = "529900T8BM49AURSDO55"  # a GLEIF record with no local company
LEI_UNKNOWN = "315700WH3YMKHBVKBM29"  # valid check digits, known nowhere


@pytest.fixture
def companies(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="31322832",
            name="SLOVNAFT, a.s.",
            legal_form="121",
            legal_form_name="Akciová spoločnosť",
            lei=LEI,
            vat_id="SK2020372640",
            tax_id="2020372640",
            in_liquidation=True,
            identifiers=[("duns", "366184517")],
        ),
        CompanyRecord(country="CZ", national_id="00177041", name="ŠKODA AUTO a.s.", vat_id="CZ00177041"),
        CompanyRecord(country="SK", national_id="35757442", name="Ambiguous SK s.r.o."),
        CompanyRecord(country="CZ", national_id="35757442", name="Ambiguous CZ s.r.o."),
        CompanyRecord(country="FR", national_id="552100554", name="Société Française SA"),
        LeiRecord(
            lei=LEI,
            legal_name="SLOVNAFT, a.s.",
            registration_status="ISSUED",
            company=CompanyKey("SK", "31322832"),
            legal_form="2EEG",
            country="SK",
            next_renewal=datetime(2027, 1, 1, tzinfo=UTC),
        ),
        LeiRecord(
            lei=LEI_ORPHAN, legal_name="Foreign Fund SICAV", registration_status="LAPSED", country="LU"
        ),
    )


def test_lookup_by_id_and_ico(client, auth, companies):
    data = assert_envelope(client.get("/api/v1/companies/lookup?id=31322832", headers=auth))
    assert (data["country"], data["nationalId"], data["name"]) == ("SK", "31322832", "SLOVNAFT, a.s.")
    assert data["inLiquidation"] is True and data["inBankruptcy"] is False
    same = assert_envelope(client.get("/api/v1/companies/lookup?ico=31 322 832", headers=auth))
    assert same["nationalId"] == "31322832"
    cz = assert_envelope(client.get("/api/v1/companies/lookup?id=00177041&country=cz", headers=auth))
    assert cz["country"] == "CZ"
    fr = assert_envelope(client.get("/api/v1/companies/lookup?id=552 100 554", headers=auth))
    assert fr["country"] == "FR"


def test_lookup_errors(client, auth, companies):
    err = assert_error(
        client.get("/api/v1/companies/lookup?id=35757442", headers=auth), 409, "AMBIGUOUS_IDENTIFIER"
    )
    assert {c["country"] for c in err["details"]["candidates"]} == {"SK", "CZ"}
    assert (
        assert_envelope(client.get("/api/v1/companies/lookup?id=35757442&country=CZ", headers=auth))["name"]
        == "Ambiguous CZ s.r.o."
    )
    assert_error(client.get("/api/v1/companies/lookup?id=36631124", headers=auth), 404, "NOT_FOUND")
    assert_error(
        client.get("/api/v1/companies/lookup?id=31322833&country=sk", headers=auth), 422, "VALIDATION_ERROR"
    )
    for bad in ("", "   ", "' OR 1=1 --", "ščťž", "1" * 41, "%00"):
        resp = client.get("/api/v1/companies/lookup", params={"id": bad}, headers=auth)
        assert_error(resp, 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/lookup", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get("/api/v1/companies/lookup?id=31322832&ico=35757442", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get("/api/v1/companies/lookup?id=31322832&country=svk", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get("/api/v1/companies/lookup?idd=31322832", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/lookup?id=31322832"), 401, "UNAUTHORIZED")


def test_by_identifier(client, auth, companies):
    def get(**params):
        return assert_envelope(client.get("/api/v1/companies/by-identifier", params=params, headers=auth))

    [hit] = get(type="ico", value="31322832")
    assert hit["nationalId"] == "31322832" and hit["matchedBy"] == {
        "type": "ico",
        "value": "31322832",
        "source": "test_register",
    }
    assert [h["country"] for h in get(type="ico", value="552 100 554")] == [
        "FR"
    ]  # any country's register number

    assert {h["country"] for h in get(type="ico", value="35757442")} == {"SK", "CZ"}
    assert [h["country"] for h in get(type="ico", value="35757442", country="cz")] == ["CZ"]
    assert get(type="lei", value=LEI.lower())[0]["nationalId"] == "31322832"
    assert get(type="ic_dph", value="SK 2020372640")[0]["nationalId"] == "31322832"
    assert get(type="vat", value="SK2020372640")[0]["nationalId"] == "31322832"
    assert get(type="vat", value="CZ00177041")[0]["name"] == "ŠKODA AUTO a.s."
    assert get(type="dic", value="2020372640")[0]["nationalId"] == "31322832"
    assert get(type="duns", value="36-618-4517")[0]["nationalId"] == "31322832"
    assert get(type="bvdid", value="SK31322832") == []
    assert get(type="ico", value="36631124") == []


@pytest.mark.parametrize(
    "params",
    [
        {"type": "ico", "value": "31322833", "country": "sk"},  # check digit
        {"type": "ico", "value": "abc!"},  # well-formed nowhere
        {"type": "lei", "value": "097900BGCY0000006316"},
        {"type": "ic_dph", "value": "SK2020372641"},
        {"type": "vat", "value": "XX123"},
        {"type": "duns", "value": "12345"},
        {"type": "iban", "value": "SK3112000000198742637541"},  # not a by-identifier type
        {"type": "ico"},
        {"type": "ico", "value": ""},
        {"type": "ico", "value": "x" * 65},
        {"type": "lei", "value": "' OR '1'='1"},
        {"type": "ico", "value": "31322832", "country": "Slovakia"},
        {"type": "ico", "value": "552100554", "country": "sk"},  # a SIREN is no Slovak IČO
    ],
)
def test_by_identifier_rejects(client, auth, params):
    resp = client.get("/api/v1/companies/by-identifier", params=params, headers=auth)
    assert_error(resp, 422, "VALIDATION_ERROR")


def test_by_lei(client, auth, companies):
    data = assert_envelope(client.get(f"/api/v1/companies/by-lei?lei={LEI}", headers=auth))
    assert data["lei"] == LEI and data["ico"] == "31322832" and data["country"] == "SK"
    assert data["name"] == "SLOVNAFT, a.s." and data["legalForm"] == "Akciová spoločnosť"
    assert data["registrationStatus"] == "ISSUED" and data["nextRenewal"].startswith("2027-01-01")
    assert data["gleifUrl"] == f"https://search.gleif.org/#/record/{LEI}"
    # in liquidation: the credit model caps the grade at F; SK has no VAT payer register, no list is imported
    assert (data["taxReliability"], data["creditGrade"], data["nis2InScope"]) == ("unknown", "F", None)
    assert data["flags"] == {"isSanctioned": None, "hasTaxDebt": None}
    assert data["inLiquidation"] is True and data["company"]["nationalId"] == "31322832"
    orphan = assert_envelope(client.get(f"/api/v1/companies/by-lei?lei={LEI_ORPHAN}", headers=auth))
    assert orphan["ico"] is None and orphan["name"] == "Foreign Fund SICAV" and orphan["country"] == "LU"
    assert orphan["registrationStatus"] == "LAPSED" and orphan["company"] is None
    assert_error(client.get(f"/api/v1/companies/by-lei?lei={LEI_UNKNOWN}", headers=auth), 404, "NOT_FOUND")
    for bad in ("097900BGCY0000006316", "short", "", "Ž" * 20):
        assert_error(
            client.get("/api/v1/companies/by-lei", params={"lei": bad}, headers=auth), 422, "VALIDATION_ERROR"
        )


def test_by_lei_without_gleif_record(client, auth, engine):
    make_company(engine, country="CZ", national_id="00177041", name="ŠKODA AUTO a.s.", lei=LEI_UNKNOWN)
    data = assert_envelope(client.get(f"/api/v1/companies/by-lei?lei={LEI_UNKNOWN}", headers=auth))
    assert data["ico"] == "00177041" and data["registrationStatus"] is None


def test_bulk_in_input_order(client, auth, companies):
    body = {
        "identifiers": [
            "31322832",
            {"country": "cz", "id": "00177041"},
            {"country": "sk", "id": "31322833"},
            "36631124",
            "35757442",
            {"country": "CZ", "id": "35757442"},
            552100554,
            {"id": "31322832", "extra": 1},
            None,
            ["x"],
            {"country": "xx1", "id": "1"},
            "31 322 832",
            "abc!",
            "čšž",
        ]
    }
    resp = client.post("/api/v1/companies/bulk", json=body, headers=auth)
    data = assert_envelope(resp)
    assert [a["status"] for a in data] == [
        "found",
        "found",
        "invalid",
        "not_found",
        "ambiguous",
        "found",
        "found",
        "invalid",
        "invalid",
        "invalid",
        "invalid",
        "found",
        "invalid",
        "invalid",
    ]
    assert [a["index"] for a in data] == list(range(14))
    assert data[0]["company"]["name"] == "SLOVNAFT, a.s." and data[0]["input"] == "31322832"
    assert data[1]["company"]["country"] == "CZ"
    assert "31322833" in data[2]["reason"]
    assert {c["country"] for c in data[4]["candidates"]} == {"SK", "CZ"}
    assert data[6]["company"]["country"] == "FR"
    assert "extra" in data[7]["reason"]
    meta = resp.json()["meta"]
    assert (meta["total"], meta["found"], meta["not_found"], meta["invalid"], meta["ambiguous"]) == (
        14,
        5,
        1,
        7,
        1,
    )


def test_bulk_default_country_and_limits(client, auth, companies):
    data = assert_envelope(
        client.post(
            "/api/v1/companies/bulk",
            headers=auth,
            json={"identifiers": ["35757442", "00177041"], "country": "cz"},
        )
    )
    assert [a["company"]["country"] for a in data] == ["CZ", "CZ"]
    hundred = assert_envelope(
        client.post("/api/v1/companies/bulk", headers=auth, json={"identifiers": ["31322832"] * 100})
    )
    assert len(hundred) == 100 and {a["status"] for a in hundred} == {"found"}
    for body in (
        {"identifiers": ["31322832"] * 101},
        {"identifiers": []},
        {"identifiers": "31322832"},
        {"identifiers": ["31322832"], "unknown": 1},
        {},
        {"identifiers": ["31322832"], "country": "s"},
    ):
        assert_error(client.post("/api/v1/companies/bulk", headers=auth, json=body), 422, "VALIDATION_ERROR")
    resp = client.post(
        "/api/v1/companies/bulk", headers=auth | {"content-type": "application/json"}, content=b"{not json"
    )
    assert_error(resp, 422, "VALIDATION_ERROR")
    assert_error(
        client.post("/api/v1/companies/bulk", json={"identifiers": ["31322832"]}), 401, "UNAUTHORIZED"
    )


def test_bulk_runs_one_company_query(client, auth, companies, engine):
    """100 identifiers are answered from one read of `companies`, not one per entry."""
    import threading

    from sqlalchemy import event

    statements: list[str] = []
    app_engine = client.app.state.engine

    def listener(*args: object) -> None:
        # The app's search-index thread may read `companies` (its watermark) at the same moment.
        if threading.current_thread().name != "search-index-jobs":
            statements.append(str(args[2]))

    event.listen(app_engine, "before_cursor_execute", listener)
    try:
        ids = ["31322832", "00177041", "552100554", "36631124"] * 25
        assert_envelope(client.post("/api/v1/companies/bulk", headers=auth, json={"identifiers": ids}))
    finally:
        event.remove(app_engine, "before_cursor_execute", listener)
    reads = [s for s in statements if "FROM companies" in s and "api_keys" not in s]
    assert len(reads) == 1


def test_bulk_bare_ids_checked_only_when_unmatched(client, auth, companies):
    """Bare identifiers are looked up by their unchecked forms; one that matches nothing is validated
    then, so the answer still tells malformed (with the reason) from unknown (in the countries where
    it is well-formed)."""
    body = {
        "identifiers": [{"id": "36631124"}, {"id": "abc!"}, {"id": "552 100 554"}, "552100555", " 00177041 "]
    }
    data = assert_envelope(client.post("/api/v1/companies/bulk", headers=auth, json=body))
    assert [a["status"] for a in data] == ["not_found", "invalid", "found", "not_found", "found"]
    assert "SK" in data[0]["reason"] and "FR" not in data[0]["reason"]  # 36631124 is no valid SIREN
    assert "not a valid national identifier" in data[1]["reason"]
    assert data[2]["company"]["country"] == "FR" and data[4]["company"]["country"] == "CZ"
    assert "LT" in data[3]["reason"] and "FR" not in data[3]["reason"]  # a 9-digit LT code, a bad SIREN
    assert_error(
        client.get("/api/v1/companies/by-identifier?type=ico&value=abc!", headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert (
        assert_envelope(client.get("/api/v1/companies/by-identifier?type=ico&value=36631124", headers=auth))
        == []
    )


def test_bulk_document_takes_any_entry_it_answers_per_entry(client, auth, companies):
    """Issue 16: a malformed entry is answered in its own entry (200), so the document's item schema must
    not call it invalid (it required `id` and refused numbers)."""
    doc = client.get("/api/v1/public/openapi.json").json()
    body = doc["paths"]["/api/v1/companies/bulk"]["post"]["requestBody"]["content"]["application/json"]
    schema = doc["components"]["schemas"][body["schema"]["$ref"].rsplit("/", 1)[1]]
    items = schema["properties"]["identifiers"]["items"]
    assert set(items) == {"description"}
    entries = [{"country": ""}, 31322832, None, {"id": "31322832", "colour": 1}]
    resp = client.post("/api/v1/companies/bulk", json={"identifiers": entries}, headers=auth)
    assert [a["status"] for a in assert_envelope(resp)] == ["invalid", "found", "invalid", "invalid"]
