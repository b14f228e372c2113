"""`GET /api/v1/public/data-sources` (+ .json, .csv)."""

from __future__ import annotations

import csv
import io

from tests.builders import make_company
from tests.helpers import assert_envelope, assert_error


def test_catalogue_json_and_csv(client, engine):
    make_company(engine)
    data = assert_envelope(client.get("/api/v1/public/data-sources"))
    entry = next(d for d in data if d["id"] == "test_register")
    assert entry["licence"] == "CC0 1.0" and entry["row_count"] == 0  # counted by import runs only
    resp = client.get("/api/v1/public/data-sources.json?country=sk&category=register")
    assert [d["id"] for d in assert_envelope(resp)] == ["test_register"]
    assert resp.headers["cache-control"] == "public, max-age=1800"
    assert assert_envelope(client.get("/api/v1/public/data-sources.json?country=fr")) == []
    resp = client.get("/api/v1/public/data-sources.csv")
    assert resp.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    assert rows[0]["id"] == "test_register" and rows[0]["attribution"] == "Test data"


def test_filters_validate(client):
    assert_error(client.get("/api/v1/public/data-sources?country=svk"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/public/data-sources?category=a;drop"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/public/data-sources?county=sk"), 422, "VALIDATION_ERROR")
