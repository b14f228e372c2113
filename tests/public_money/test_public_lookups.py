"""Public LEI lookup (spec 2.4) and bank-code data through HTTP, without a key."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

LEI = "097900BGCY0000006315"
LEI_UNKNOWN = "315700WH3YMKHBVKBM29"


@pytest.fixture
def slovnaft(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="31322832",
            name="SLOVNAFT, a.s.",
            lei=LEI,
            legal_form_name="Akciová spoločnosť",
        ),
        LeiRecord(
            lei=LEI,
            legal_name="SLOVNAFT, a.s.",
            registration_status="ISSUED",
            company=CompanyKey("SK", "31322832"),
            country="SK",
            next_renewal=datetime(2027, 1, 1, tzinfo=UTC),
        ),
    )


def test_lei_lookup_is_the_by_lei_record(client, auth, slovnaft):
    resp = client.get(f"/api/v1/public/lei-lookup/{LEI.lower()}.json")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    assert {
        k: data[k]
        for k in (
            "lei",
            "ico",
            "name",
            "legalForm",
            "taxReliability",
            "creditGrade",
            "nis2InScope",
            "flags",
            "gleifUrl",
        )
    } == {
        "lei": LEI,
        "ico": "31322832",
        "name": "SLOVNAFT, a.s.",
        "legalForm": "Akciová spoločnosť",
        "taxReliability": "unknown",
        "creditGrade": None,
        "nis2InScope": None,
        "flags": {"isSanctioned": None, "hasTaxDebt": None},
        "gleifUrl": f"https://search.gleif.org/#/record/{LEI}",
    }
    keyed = assert_envelope(client.get("/api/v1/companies/by-lei", params={"lei": LEI}, headers=auth))
    assert keyed == data


def test_lei_lookup_errors(client, slovnaft):
    assert_error(client.get(f"/api/v1/public/lei-lookup/{LEI_UNKNOWN}.json"), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/public/lei-lookup/097900BGCY0000006316.json"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/public/lei-lookup/žluťoučký.json"), 422, "VALIDATION_ERROR")
    assert_error(
        client.get(f"/api/v1/public/lei-lookup/{LEI}.json", params={"full": 1}), 422, "VALIDATION_ERROR"
    )


def test_bank_code_specs(client):
    resp = client.get("/api/v1/public/bank-code-specs.json")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    by_country = {c["country"]: c for c in data["countries"]}
    assert len(by_country) >= 80
    sk = by_country["SK"]
    assert (sk["ibanLength"], sk["bbanSpec"], sk["sepa"], sk["bankCode"], sk["bankRegistry"]) == (
        24,
        "4!n6!n10!n",
        True,
        {"start": 0, "end": 4},
        True,
    )
    assert sk["bankCount"] > 20 and data["source"].startswith("schwifty ")


@pytest.mark.parametrize(
    "country, code, bic, name",
    [
        ("sk", "0900", "GIBASKBX", "Slovenská sporiteľňa"),
        ("CZ", "0800", "GIBACZPX", "Česká spořitelna"),
    ],
)
def test_bank_code(client, country, code, bic, name):
    data = assert_envelope(client.get(f"/api/v1/public/bank-code/{country}/{code}.json"))
    assert data["country"] == country.upper() and data["code"] == code
    assert data["banks"][0]["bic"] == bic and data["banks"][0]["name"].startswith(name)


def test_bank_code_errors(client):
    assert_error(client.get("/api/v1/public/bank-code/sk/9999.json"), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/public/bank-code/us/021000021.json"), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/public/bank-code/s1/0900.json"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/public/bank-code/sk/09-00.json"), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize("country", ["sk", "cz"])
def test_every_published_bank_code_is_served(client, country):
    import json

    from tests.public_money.common import FIXTURES

    entries = json.loads((FIXTURES / "bank_codes" / f"schwifty_generated_{country}.json").read_text("utf-8"))
    for entry in entries:
        data = assert_envelope(client.get(f"/api/v1/public/bank-code/{country}/{entry['bank_code']}.json"))
        assert (entry["bic"] or None, entry["name"]) in {(b["bic"], b["name"]) for b in data["banks"]}
