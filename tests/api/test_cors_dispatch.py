"""api/middleware.CorsForOrigins: requests without `Origin` skip Starlette's CORSMiddleware, and their
answers carry exactly the headers it would have given them (its `Vary: Origin`, merged into a `Vary` of
the response); requests with `Origin` pass through it (session 15 of docs/performance.md)."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from regintel.api.middleware import CorsForOrigins

OPTIONS = {"allow_origins": ["*"], "allow_methods": ["*"], "allow_headers": ["*"], "expose_headers": ["ETag"]}


def _inner(vary: list[str]) -> Starlette:
    def answer(request):  # type: ignore[no-untyped-def]
        resp = PlainTextResponse("x")
        for value in vary:
            resp.headers.append("Vary", value)
        return resp

    return Starlette(routes=[Route("/", answer, methods=["GET", "POST"])])


@pytest.mark.parametrize("vary", [[], ["Accept"], ["Accept", "Accept-Language"]])
@pytest.mark.parametrize(
    "request_headers",
    [
        {},
        {"Origin": "https://app.example"},
        {"Origin": "https://app.example", "Access-Control-Request-Method": "GET"},
    ],
)
@pytest.mark.parametrize("method", ["GET", "OPTIONS", "POST"])
def test_the_same_headers_as_corsmiddleware(vary, request_headers, method):
    inner = _inner(vary)
    theirs = TestClient(CORSMiddleware(inner, **OPTIONS)).request(method, "/", headers=request_headers)
    ours = TestClient(CorsForOrigins(inner, **OPTIONS)).request(method, "/", headers=request_headers)
    assert ours.status_code == theirs.status_code
    assert ours.headers.multi_items() == theirs.headers.multi_items()
    assert ours.content == theirs.content


def test_the_app_answers_carry_vary_origin(client):
    plain = client.get("/api/v1/me")
    assert plain.status_code == 401 and plain.headers["vary"] == "Origin"
    assert "access-control-allow-origin" not in plain.headers
    cross = client.get("/api/v1/me", headers={"Origin": "https://app.example"})
    assert cross.headers["access-control-allow-origin"] == "*" and cross.headers["vary"] == "Origin"
