"""The contract every operation shares: envelope, request ids, error shapes, strict inputs."""

from __future__ import annotations

from regintel.api.openapi import iter_api_routes
from regintel.api.routing import StrictRoute
from tests.helpers import assert_envelope, assert_error


def test_me_envelope_and_request_id(client, auth):
    resp = client.get("/api/v1/me", headers=auth)
    data = assert_envelope(resp)
    assert data["plan"] == "business"
    assert len(resp.headers["x-request-id"]) >= 16


def test_incoming_request_id_is_kept(client, auth):
    resp = client.get("/api/v1/me", headers=auth | {"X-Request-ID": "abc-123"})
    assert resp.headers["x-request-id"] == "abc-123"
    resp = client.get("/api/v1/me", headers=auth | {"X-Request-ID": "<script>"})
    assert resp.headers["x-request-id"] != "<script>"


def test_unknown_path_is_not_found(client):
    assert_error(client.get("/api/v1/no-such-thing"), 404, "NOT_FOUND")
    assert_error(client.get("/no/such/page"), 404, "NOT_FOUND")


def test_wrong_method(client):
    assert_error(client.delete("/api/v1/public/status"), 405, "METHOD_NOT_ALLOWED")


def test_unknown_query_parameter_is_refused(client, auth):
    err = assert_error(client.get("/api/v1/me?colour=red", headers=auth), 422, "VALIDATION_ERROR")
    assert err["details"][0]["field"] == "colour"
    assert_envelope(client.get("/api/v1/public/status"))
    assert_error(client.get("/api/v1/public/status?x=1"), 422, "VALIDATION_ERROR")


def test_unknown_query_parameter_is_refused_before_the_key_and_the_inputs_are_checked(client):
    for url in (
        "/api/v1/me?colour=red",
        "/api/v1/companies/lookup?id=1&country=sk&colour=red",
        "/api/v1/companies/lookup?country=toolong&colour=red",
    ):
        err = assert_error(client.get(url), 422, "VALIDATION_ERROR")
        assert [d["field"] for d in err["details"]] == ["colour"]
    err = assert_error(client.get("/api/v1/companies/by-lei?lei=x&b=1&a=2"), 422, "VALIDATION_ERROR")
    assert [d["field"] for d in err["details"]] == ["a", "b"]
    assert err["details"][0]["allowed"] == ["lei"]


def test_every_operation_refuses_unknown_query_parameters(client):
    routes = [getattr(route, "original_route", route) for route in iter_api_routes(client.app)]
    assert routes and all(isinstance(route, StrictRoute) for route in routes)


def test_status(client):
    data = assert_envelope(client.get("/api/v1/public/status"))
    assert data["status"] == "ok"
    assert data["database"]["reachable"] is True
    assert data["database"]["schema_version"] == data["database"]["schema_head"]
    assert data["worker"]["alive"] is False
