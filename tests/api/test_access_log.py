"""The access log: one line per request with status, time and request id, and never an API key."""

from __future__ import annotations

import logging


def test_access_line_masks_the_key(client, api_key, caplog):
    with caplog.at_level(logging.INFO, logger="regintel.access"):
        response = client.get(f"/api/v1/me?x_api_key=1&api_key={api_key}", headers={"X-Request-ID": "req-7"})
    assert response.status_code == 422  # x_api_key is an unknown parameter; the key must still be masked
    lines = [r.getMessage() for r in caplog.records if r.name == "regintel.access"]
    assert len(lines) == 1
    assert api_key not in lines[0]
    assert "x_api_key=1&api_key=***" in lines[0]
    assert '"GET /api/v1/me?' in lines[0] and " 422 " in lines[0] and lines[0].endswith("id=req-7")


def test_access_line_for_a_public_path(client, caplog):
    with caplog.at_level(logging.INFO, logger="regintel.access"):
        client.get("/api/v1/public/status")
    [line] = [r.getMessage() for r in caplog.records if r.name == "regintel.access"]
    assert '"GET /api/v1/public/status" 200 ' in line


def test_quiet_above_info(client, api_key, caplog):
    with caplog.at_level(logging.WARNING, logger="regintel.access"):
        client.get(f"/api/v1/me?api_key={api_key}")
    assert not [r for r in caplog.records if r.name == "regintel.access"]
