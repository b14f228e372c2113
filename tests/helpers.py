"""Shape guards used across the API tests."""

from __future__ import annotations

from typing import Any

import httpx


def assert_envelope(resp: httpx.Response, status: int = 200) -> Any:
    """A success response in the envelope of spec 2.1; returns `data`."""
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"data", "meta"}
    meta = body["meta"]
    assert isinstance(meta["duration_ms"], int) and meta["duration_ms"] >= 0
    assert isinstance(meta["cached"], bool)
    assert meta["request_id"] == resp.headers["x-request-id"]
    return body["data"]


def assert_error(resp: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """An error response in the `Error` shape of DESIGN.md section 3; returns `error`."""
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"error", "meta"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert body["meta"]["request_id"] == resp.headers["x-request-id"]
    return body["error"]  # type: ignore[no-any-return]
