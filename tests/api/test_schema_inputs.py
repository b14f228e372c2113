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
