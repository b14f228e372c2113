"""HTTP behaviour a client or a fuzzer checks from the outside (issue 16): control characters refused
with 422, keys in the query on every keyed route, `Allow` on 405 and OPTIONS, HEAD, CORS, conditional
GETs on feeds."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.companies_fixture import RECORDS
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error


@pytest.fixture
def data(engine):  # type: ignore[no-untyped-def]
    load_companies(engine, *RECORDS)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/companies/changes/feed?field=n%1A",
        "/api/v1/companies/changes/feed?source=%1F5P",
        "/api/v1/companies/changes?country=s%00k",
        "/api/v1/companies/search?q=slov%7Fnaft",
        "/api/v1/companies/sk/3132%0A2832",
    ],
)
def test_control_characters_are_refused_before_they_reach_a_writer(
    client: TestClient, auth, path: str
) -> None:
    error = assert_error(client.get(path, headers=auth), 422, "VALIDATION_ERROR")
    assert "control character" in str(error["details"])


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/companies/advanced-search?country=sk",
        "/api/v1/companies/advanced-search.csv?country=sk",
        "/api/v1/companies/stats/breakdown?by=country",
        "/api/v1/companies/stats/shell-addresses",
        "/api/v1/companies/sk/31322832",
        "/api/v1/companies/changes/feed",
    ],
)
def test_the_key_works_as_a_query_parameter_on_routes_with_strict_parameter_models(
    client, api_key, data, path: str
) -> None:
    sep = "&" if "?" in path else "?"
    resp = client.get(f"{path}{sep}api_key={api_key}")
    assert resp.status_code == 200, resp.text
    assert client.get(f"{path}{sep}api_key=ri_wrong").status_code == 401


def test_405_and_options_name_every_method_of_the_path(client: TestClient) -> None:
    resp = client.get("/api/v1/monitoring/subscriptions/bulk")
    assert_error(resp, 405, "METHOD_NOT_ALLOWED")
    assert resp.headers["allow"] == "OPTIONS, POST"
    options = client.options("/api/v1/monitoring/subscriptions")
    assert options.status_code == 204 and options.headers["allow"] == "GET, HEAD, OPTIONS, POST"
    assert client.put("/api/v1/companies/resolve").headers["allow"] == "GET, HEAD, OPTIONS, POST"
    assert (
        client.options("/api/v1/monitoring/subscriptions/7").headers["allow"] == "DELETE, GET, HEAD, OPTIONS"
    )
    # A literal path is its own resource even where `/companies/{ico}` would match it too.
    assert client.options("/api/v1/companies/bulk").headers["allow"] == "OPTIONS, POST"


def test_head_is_get_without_a_body(client: TestClient, auth, data) -> None:
    get = client.get("/api/v1/companies/sk/31322832", headers=auth)
    head = client.head("/api/v1/companies/sk/31322832", headers=auth)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


def test_cors_preflight_and_headers_on_errors(client: TestClient) -> None:
    pre = client.options(
        "/api/v1/companies/search",
        headers={
            "Origin": "https://app.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert pre.status_code == 200 and pre.headers["access-control-allow-origin"] == "*"
    assert "authorization" in pre.headers["access-control-allow-headers"].lower()
    denied = client.get("/api/v1/me", headers={"Origin": "https://app.example"})
    assert denied.status_code == 401 and denied.headers["access-control-allow-origin"] == "*"
    assert "X-Request-ID" in denied.headers["access-control-expose-headers"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/companies/changes/feed",
        "/api/v1/public/recent-bankruptcies.rss",
        "/api/v1/public/recent-bankruptcies.atom",
        "/api/v1/public/recent-bankruptcies.csv",
    ],
)
def test_feeds_answer_conditional_gets(client: TestClient, auth, data, path: str) -> None:
    first = client.get(path, headers=auth)
    assert first.status_code == 200 and first.headers["etag"] and first.headers["last-modified"]
    again = client.get(path, headers=auth | {"If-None-Match": first.headers["etag"]})
    assert (
        again.status_code == 304 and again.content == b"" and again.headers["etag"] == first.headers["etag"]
    )
    since = client.get(path, headers=auth | {"If-Modified-Since": first.headers["last-modified"]})
    assert since.status_code == 304
    other = client.get(path, headers=auth | {"If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.content == first.content


def test_json_feed_answers_if_modified_since(client: TestClient, data) -> None:
    first = client.get("/api/v1/public/recent-bankruptcies.json")
    assert_envelope(first)
    assert (
        client.get(
            "/api/v1/public/recent-bankruptcies.json",
            headers={"If-Modified-Since": first.headers["last-modified"]},
        ).status_code
        == 304
    )
    assert (
        client.get(
            "/api/v1/public/recent-bankruptcies.json", headers={"If-Modified-Since": "not a date"}
        ).status_code
        == 200
    )


@pytest.mark.parametrize(
    "body", [{"name": "Slovnaft", "threshold": False}, {"name": "Slovnaft", "limit": "5"}, {"name": 5}]
)
def test_bodies_take_strict_types(client: TestClient, auth, body) -> None:
    # `"threshold": false` used to become 0 (issue 16): strict inputs mean strict types in bodies too.
    assert_error(client.post("/api/v1/companies/match", json=body, headers=auth), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize("text", ["1.0", "1e0", "0.1e1", "1.000"])
def test_an_integral_json_number_is_an_integer(client: TestClient, auth, data, text: str) -> None:
    # JSON Schema counts 1.0 as an integer, so a schema-valid `"limit": 1.0` was refused (schemathesis).
    body = '{"name": "Slovnaft", "limit": ' + text + "}"
    answer = client.post(
        "/api/v1/companies/match", content=body, headers={**auth, "Content-Type": "application/json"}
    )
    assert answer.status_code == 200, answer.text
    assert len(answer.json()["data"]) == 1


@pytest.mark.parametrize("text", ["1.5", "1e300", "true", '"1"', "NaN", "Infinity"])
def test_a_json_number_that_is_no_integer_stays_refused(client: TestClient, auth, text: str) -> None:
    body = '{"name": "Slovnaft", "limit": ' + text + "}"
    answer = client.post(
        "/api/v1/companies/match", content=body, headers={**auth, "Content-Type": "application/json"}
    )
    assert_error(answer, 422, "VALIDATION_ERROR")


def test_an_integral_float_still_reaches_a_float_field_as_a_number(client: TestClient, auth, data) -> None:
    answer = client.post(
        "/api/v1/companies/match",
        content='{"name": "Slovnaft", "threshold": 0.0, "limit": 2.0}',
        headers={**auth, "Content-Type": "application/json"},
    )
    assert answer.status_code == 200, answer.text


def test_an_integer_longer_than_64_bits_is_echoed_exactly(client: TestClient, auth) -> None:
    # A bulk entry is any JSON value and is answered with itself; orjson cannot write such an integer, and
    # this was a 500 (schemathesis).
    body = '{"country": "SK", "identifiers": [{"x": -12719506862647797760}, 5.931258059844129e+16]}'
    answer = client.post(
        "/api/v1/companies/bulk", content=body, headers={**auth, "Content-Type": "application/json"}
    )
    assert answer.status_code == 200, answer.text
    assert "-12719506862647797760" in answer.text


def test_integer_bounds_are_written_as_integers(client: TestClient) -> None:
    # FastAPI typed them as floats: `lt=2**62` was 4.611686018427388e+18, and a client comparing in floating
    # point took 4611686018427387998 for a valid pass id (schemathesis).
    doc = client.get("/api/v1/public/openapi.json").json()
    schema = doc["components"]["schemas"]["KeyCreateIn"]["properties"]["pass_id"]["anyOf"][0]
    assert schema["exclusiveMaximum"] == 2**62 and isinstance(schema["exclusiveMaximum"], int)
    bounds = []

    def walk(node):  # type: ignore[no-untyped-def]
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                    bounds.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(doc)
    assert bounds and not [b for b in bounds if isinstance(b, float) and b.is_integer()]


def test_the_document_says_what_the_server_enforces(client: TestClient) -> None:
    doc = client.get("/api/v1/public/openapi.json").json()
    record = doc["paths"]["/api/v1/companies/{country}/{national_id}"]["get"]
    country = next(p for p in record["parameters"] if p["name"] == "country")
    assert country["schema"]["pattern"] == "^[A-Za-z]{2}$"
    for path, item in doc["paths"].items():
        for method, op in item.items():
            assert {"404", "422", "429", "503"} <= set(op["responses"]), (method, path)
    feed = doc["paths"]["/api/v1/public/recent-bankruptcies.rss"]["get"]
    assert "304" in feed["responses"]


def test_search_takes_the_page_size_under_the_name_the_answer_gives_it(
    client: TestClient, auth, data
) -> None:
    body = client.get("/api/v1/companies/search?q=slovnaft&per_page=3", headers=auth).json()
    assert body["meta"]["per_page"] == 3
    assert (
        client.get("/api/v1/companies/search?q=slovnaft&limit=3", headers=auth).json()["meta"]["per_page"]
        == 3
    )
    assert_error(
        client.get("/api/v1/companies/search?q=slovnaft&limit=3&per_page=4", headers=auth),
        422,
        "VALIDATION_ERROR",
    )
