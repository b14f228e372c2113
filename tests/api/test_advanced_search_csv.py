"""/companies/advanced-search.csv: 47 columns, same filters, streamed by keyset, capped, formula-safe."""

from __future__ import annotations

import csv
import io

import pytest

from regintel.areas.search import advanced_search
from regintel.areas.search import export as company_export
from tests.api import companies_fixture as fx
from tests.helpers import assert_error

URL = "/api/v1/companies/advanced-search.csv"
HEADER = [
    "country",
    "national_id",
    "name",
    "legal_form",
    "legal_form_name",
    "status",
    "founded_on",
    "dissolved_on",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "street",
    "postal_code",
    "city",
    "address",
    "region_code",
    "district_code",
    "municipality_code",
    "nuts2",
    "nuts3",
    "nace_primary",
    "nace_codes",
    "nace_section",
    "nace_division",
    "nace_class",
    "size_class",
    "size_category",
    "employees",
    "vat_id",
    "tax_id",
    "lei",
    "lei_registration_status",
    "lei_next_renewal",
    "financial_year",
    "currency",
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "financial_employees",
    "identifiers",
    "sources",
    "created_at",
    "updated_at",
    "api_url",
    "gleif_url",
]


@pytest.fixture
def data(engine):
    fx.load(engine)


def rows(resp) -> list[dict[str, str]]:
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(resp.text)))


def test_header_has_the_47_columns(client, auth, data):
    resp = client.get(URL, params={"country": "xx"}, headers=auth)
    assert resp.text.splitlines()[0].split(",") == HEADER and len(HEADER) == 47
    assert rows(resp) == []
    assert resp.headers["x-total-count"] == "0"


def test_rows_and_columns(client, auth, data):
    got = {r["national_id"]: r for r in rows(client.get(URL, params={"country": "sk"}, headers=auth))}
    assert set(got) == {"31322832", "35757442", "36631124", "00151653", "44444443"}
    row = got["31322832"]
    assert (
        row["name"] == "SLOVNAFT, a.s."
        and row["founded_on"] == "1992-04-24"
        and row["in_bankruptcy"] == "false"
    )
    assert (
        row["nace_primary"],
        row["nace_codes"],
        row["nace_section"],
        row["nace_division"],
        row["nace_class"],
    ) == ("19200", "19200;46710", "C", "19", "19.20")
    assert (row["size_class"], row["size_category"], row["nuts2"]) == ("1000-1999", "large", "SK01")
    assert (row["lei"], row["lei_registration_status"]) == (fx.LEI_SLOVNAFT, "ISSUED")
    assert row["lei_next_renewal"].startswith("2027-01-01")
    assert (row["financial_year"], row["currency"], row["revenue"]) == ("2023", "EUR", "6000000000.00")
    assert "ico:31322832" in row["identifiers"] and row["sources"] == "test_register"
    assert row["api_url"] == "http://testserver/api/v1/companies/sk/31322832"
    assert row["gleif_url"] == f"https://search.gleif.org/#/record/{fx.LEI_SLOVNAFT}"
    assert got["35757442"]["in_bankruptcy"] == "true" and got["35757442"]["profit"] == "-50000.00"
    assert got["36631124"]["gleif_url"] == "" and got["36631124"]["revenue"] == ""


def test_formula_injection_is_defused(client, auth, data):
    [row] = rows(client.get(URL, params={"in_restructuring": 1}, headers=auth))
    assert row["name"] == '\'=HYPERLINK("http://x") s.r.o.'
    [row] = rows(client.get(URL, params={"in_bankruptcy": 1}, headers=auth))
    assert row["profit"] == "-50000.00"  # negative numbers stay numbers


@pytest.mark.parametrize("walk", [False, True])
def test_keyset_pages_and_limit(client, auth, data, monkeypatch, walk):
    monkeypatch.setattr(company_export, "PAGE", 3)
    # Walk the primary key testing each row, or re-find the remaining matches by index on each page.
    monkeypatch.setattr(advanced_search, "_size", lambda conn: 0 if walk else 10**12)
    everything = rows(client.get(URL, headers=auth))
    assert {r["national_id"] for r in everything} == fx.ALL and len(everything) == len(fx.ALL)
    assert len(rows(client.get(URL, params={"limit": 4}, headers=auth))) == 4
    assert len(rows(client.get(URL, params={"limit": 7, "country": "sk"}, headers=auth))) == 5
    revenue = rows(client.get(URL, params={"revenue_min": 1_000_000, "currency": "eur"}, headers=auth))
    assert {r["national_id"] for r in revenue} == {"31322832", "552100554"}


def test_errors_come_before_the_stream(client, auth, data):
    assert_error(client.get(URL, params={"nace": "??"}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(URL, params={"limit": 100_001}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(URL, params={"page": 2}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(URL), 401, "UNAUTHORIZED")
