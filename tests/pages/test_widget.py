"""Widget tokens, script and data, through HTTP."""

from __future__ import annotations

from regintel.areas.pages import widget
from tests.helpers import assert_envelope, assert_error

ORIGIN = "https://shop.example"


def _token(client, auth, **body):
    resp = client.post("/api/v1/widget-token", json={"origins": [ORIGIN + "/"], **body}, headers=auth)
    return assert_envelope(resp, 201)


def test_token_and_data(client, auth, companies):
    made = _token(client, auth)
    assert made["origins"] == [ORIGIN] and made["expires_at"].endswith("Z")
    url = f"/api/v1/widget/data/check/sk/31322832.json?api_key={made['token']}"
    resp = client.get(url, headers={"Origin": ORIGIN})
    data = assert_envelope(resp)
    assert (
        data["name"] == "SLOVNAFT, a.s."
        and data["url"] == "/firma/sk/31322832"
        and data["insolvency"] == "none"
    )
    assert "Origin" in resp.headers["vary"]
    assert_error(client.get(url, headers={"Origin": "https://evil.example"}), 403, "FORBIDDEN")
    assert_error(client.get(url), 403, "FORBIDDEN")
    assert_error(client.get(url, headers={"Origin": "null"}), 403, "FORBIDDEN")
    assert_error(client.get(url.replace("api_key=", "api_key=x")), 401, "UNAUTHORIZED")
    bearer = client.get(
        url.split("?")[0], headers={"Origin": ORIGIN, "Authorization": f"Bearer {made['token']}"}
    )
    assert assert_envelope(bearer)["national_id"] == "31322832"
    assert_error(
        client.get(url.replace("31322832", "50000004"), headers={"Origin": ORIGIN}), 404, "NOT_FOUND"
    )
    assert client.get(url.replace("/check/", "/other/"), headers={"Origin": ORIGIN}).status_code == 422
    assert_error(client.get(url.split("?")[0]), 401, "UNAUTHORIZED")
    assert_error(client.get(url.replace("api_key=", "api_key=ri_nope")), 401, "UNAUTHORIZED")
    server_side = client.get(url.split("?")[0], headers=auth)  # a real key: no origin needed
    assert assert_envelope(server_side)["name"] == "SLOVNAFT, a.s."


def test_token_expires(client, settings, companies):
    token = widget.issue(settings.secret_key, 1, [ORIGIN], 60)
    import time

    real = time.time
    try:
        time.time = lambda: real() + 120  # itsdangerous reads the clock through time.time
        assert_error(
            client.get(
                f"/api/v1/widget/data/check/sk/31322832.json?api_key={token}", headers={"Origin": ORIGIN}
            ),
            401,
            "UNAUTHORIZED",
        )
    finally:
        time.time = real


def test_token_request_validation(client, auth):
    assert_error(client.post("/api/v1/widget-token", json={"origins": [ORIGIN]}), 401, "UNAUTHORIZED")
    for body in (
        {"origins": []},
        {"origins": ["ftp://x"]},
        {"origins": ["https://x/path"]},
        {"origins": [ORIGIN], "ttl_seconds": 10},
        {"origins": [ORIGIN], "extra": 1},
        {"origins": [ORIGIN], "ttl_seconds": "60"},
        {"origins": [ORIGIN] * 11},
        {"origins": ["httpS://AfA*"]},  # schemathesis: a host with a star was taken
        {"origins": ["https://a b"]},
        {"origins": ["https://shop_example.org"]},
    ):
        assert_error(client.post("/api/v1/widget-token", json=body, headers=auth), 422, "VALIDATION_ERROR")


def test_origin_normalisation():
    assert widget.normalise_origin("HTTPS://Shop.Example:443") == "https://shop.example"
    assert widget.normalise_origin("http://127.0.0.1:8081") == "http://127.0.0.1:8081"


def test_widget_js(client, auth):
    assert_error(client.get("/api/v1/widget.js"), 401, "UNAUTHORIZED")
    token = _token(client, auth)["token"]
    assert client.get("/api/v1/widget.js", headers=auth).status_code == 200
    resp = client.get(f"/api/v1/widget.js?api_key={token}")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/javascript")
    assert 'var BASE = "http://testserver";' in resp.text and "attachShadow" in resp.text
    assert "document.cookie" not in resp.text and 'credentials: "omit"' in resp.text
    assert (
        client.get(
            f"/api/v1/widget.js?api_key={token}", headers={"If-None-Match": resp.headers["etag"]}
        ).status_code
        == 304
    )
