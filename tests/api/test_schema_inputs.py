"""What the server checks on inputs is said in the OpenAPI document (issue 16, schemathesis's
"schema-valid request rejected" and "schema-violating request accepted"): each rule once in the
document and once through HTTP."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from regintel.api.openapi_inputs import ID_PATTERN
from tests.helpers import assert_error


@pytest.fixture
def doc(client: TestClient) -> dict:  # type: ignore[type-arg]
    return client.get("/api/v1/public/openapi.json").json()  # type: ignore[no-any-return]


def _body_schema(doc, path, method="post"):  # type: ignore[no-untyped-def]
    ref = doc["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return doc["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _strings(schema):  # type: ignore[no-untyped-def]
    return [p for p in [schema, *schema.get("anyOf", [])] if p.get("type") == "string"]


def test_path_identifiers_declare_their_shape(doc) -> None:  # type: ignore[no-untyped-def]
    params = {
        p["name"]: p["schema"]
        for p in doc["paths"]["/api/v1/companies/{ico}/credit-score"]["get"]["parameters"]
    }
    assert params["ico"]["pattern"] == ID_PATTERN and params["ico"]["maxLength"] == 40
    for ok in ("31322832", "CHE-279.438.550", "SC123456", "0112038-9"):
        assert re.fullmatch(ID_PATTERN.strip("^$"), ok)
    for bad in ("Ą", "'; DROP TABLE companies;--", " 123", "x" * 41):
        assert not re.fullmatch(ID_PATTERN.strip("^$"), bad)


def test_malformed_identifier_shape_is_refused_as_documented(client: TestClient, auth) -> None:  # type: ignore[no-untyped-def]
    assert_error(client.get("/api/v1/companies/%C4%84/credit-score", headers=auth), 422, "VALIDATION_ERROR")


def test_body_countries_emails_and_urls_declare_their_format(doc) -> None:  # type: ignore[no-untyped-def]
    watch = _body_schema(doc, "/api/v1/watch")["properties"]
    assert _strings(watch["country"])[0]["pattern"] == "^[A-Za-z]{2}$"
    assert _strings(watch["email"])[0]["format"] == "email"
    hook = _body_schema(doc, "/api/v1/webhooks/subscriptions")["properties"]
    assert _strings(hook["url"])[0]["format"] == "uri"
    assert set(hook["event_types"]["items"]["enum"]) >= {"company.changed"}


def test_a_number_is_not_a_date_time(client: TestClient, auth) -> None:  # type: ignore[no-untyped-def]
    err = assert_error(
        client.get("/api/v1/companies/changes?since=0.5", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert "since" in str(err)
    assert client.get("/api/v1/companies/changes?since=2026-01-01T00:00:00Z", headers=auth).status_code == 200


@pytest.mark.parametrize("path", ["/api/v1/monitoring/subscriptions", "/api/v1/webhooks/subscriptions"])
def test_subscription_status_filter_is_an_enum(client: TestClient, auth, doc, path) -> None:  # type: ignore[no-untyped-def]
    param = next(p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == "status")
    assert _strings(param["schema"])[0]["enum"] == ["active", "paused"]
    assert_error(client.get(f"{path}?status=stopped", headers=auth), 422, "VALIDATION_ERROR")
    assert client.get(f"{path}?status=paused", headers=auth).status_code == 200


def test_badge_generator_refuses_a_three_letter_country(client: TestClient) -> None:
    assert client.get("/badge-generator?cc=AAA").status_code == 422
    assert client.get("/badge-generator?cc=sk").status_code == 200


@pytest.mark.parametrize("body", [b"null", b"[]", b"{}", b"3"])
def test_reconcile_json_body_must_be_an_object(client: TestClient, auth, body) -> None:  # type: ignore[no-untyped-def]
    resp = client.post("/api/v1/reconcile", content=body, headers=auth | {"Content-Type": "application/json"})
    assert_error(resp, 422, "VALIDATION_ERROR")


def test_a_garbled_query_key_is_an_unknown_key_and_the_header_wins(client: TestClient, auth) -> None:  # type: ignore[no-untyped-def]
    assert_error(client.get("/api/v1/me?api_key=ri_%01x"), 401, "UNAUTHORIZED")
    assert client.get("/api/v1/me?api_key=%1F", headers=auth).status_code == 200


def test_bodies_declare_that_they_may_be_unreadable(doc) -> None:  # type: ignore[no-untyped-def]
    assert "400" in doc["paths"]["/api/v1/companies/resolve"]["post"]["responses"]


def test_html_pages_declare_html_errors(doc) -> None:  # type: ignore[no-untyped-def]
    assert "text/html" in doc["paths"]["/badge-generator"]["get"]["responses"]["422"]["content"]


FILTERED = [
    "/api/v1/companies/advanced-search",
    "/api/v1/companies/advanced-search.csv",
    "/api/v1/companies/stats/shell-addresses",
    "/api/v1/companies/stats/breakdown?by=country",
]


def _param(doc, path, name):  # type: ignore[no-untyped-def]
    params = doc["paths"][path.split("?")[0]]["get"]["parameters"]
    return next(p["schema"] for p in params if p["name"] == name)


def test_filter_amounts_and_dates_declare_exactly_what_is_taken(doc) -> None:  # type: ignore[no-untyped-def]
    """Issue 16: `revenue_min` allowed any string beside a number (so `z` was schema-valid and refused),
    and `updated_since` said RFC 3339 date-time while the server took `0` and naive times."""
    for path in FILTERED:
        amount = _param(doc, path, "revenue_min")
        assert [s.get("type") for s in amount["anyOf"]] == ["number", "null"]
        assert amount["anyOf"][0]["maximum"] == 10**15
        founded = _param(doc, path, "founded_from")["anyOf"][0]
        assert founded["format"] == "date" and "pattern" in founded
        since = _param(doc, path, "updated_since")["anyOf"]
        assert [s.get("format") for s in since] == ["date-time", "date", None]
        assert _strings(_param(doc, path, "city"))[0]["minLength"] == 1
        district = _param(doc, path, "district")
        assert district["anyOf"][0]["items"]["minLength"] == 1


@pytest.mark.parametrize("path", FILTERED)
@pytest.mark.parametrize(
    "query",
    [
        "revenue_min=z",
        "revenue_min=%205",
        "revenue_min=1_000",
        "revenue_min=NaN",
        "founded_from=0",
        "founded_from=2020-01-01T00:00:00",
        "updated_since=0",
        "updated_since=2020-01-01T00:00:00",
        "updated_since=",
        "revenue_min=",
        "in_bankruptcy=",
        "city=",
        "district=",  # an empty code (schemathesis: `district=` was taken)
        "country=",
        "legal_form=112&legal_form=",
    ],
)
def test_filter_values_outside_the_document_are_refused(client: TestClient, auth, path, query) -> None:  # type: ignore[no-untyped-def]
    sep = "&" if "?" in path else "?"
    assert_error(client.get(f"{path}{sep}{query}", headers=auth), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize("path", FILTERED)
@pytest.mark.parametrize(
    "query",
    [
        "revenue_min=1e5",
        "revenue_min=-2.5",
        "total_assets_max=1000000000000000.0",
        "founded_from=2020-01-31",
        "updated_since=2020-01-01",
        "updated_since=2020-01-01T10:00:00.5%2B01:00",
        "updated_since=0001-01-01T00:00:00%2B01:00",
        "updated_since=9999-12-31T23:59:59-01:00",
    ],
)
def test_filter_values_the_document_allows_are_taken(client: TestClient, auth, path, query) -> None:  # type: ignore[no-untyped-def]
    sep = "&" if "?" in path else "?"
    assert client.get(f"{path}{sep}{query}", headers=auth).status_code == 200


@pytest.mark.parametrize("value", [1.5, "1", True])
def test_strict_bodies_take_integers_as_json_writes_them(client: TestClient, auth, value) -> None:  # type: ignore[no-untyped-def]
    """A string or a boolean is no integer, nor is 1.5; `1.0` is one, as JSON Schema reads it
    (tests/api/test_http_conformance.py)."""
    body = {"name": "Slovnaft", "limit": value}
    err = assert_error(
        client.post("/api/v1/companies/match", json=body, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert [d["field"] for d in err["details"]] == ["limit"]
    assert client.post("/api/v1/companies/match", json=body | {"limit": 1}, headers=auth).status_code == 200
