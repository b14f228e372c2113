"""`/public/stats.json` and `/public/stats/{feed}` (+ `.csv`) through HTTP: the registry serves what an
area registers, from the real database, and names the feeds on an unknown one."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from sqlalchemy import text

from regintel.api import stats_feeds
from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import CompanyRecord
from regintel.errors import InvalidIdentifier
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error


def _largest(conn, limit):  # type: ignore[no-untyped-def]
    rows = conn.execute(
        text("SELECT country, national_id, name FROM companies ORDER BY name LIMIT :n"), {"n": limit}
    )
    return [dict(r._mapping) for r in rows]


@pytest.fixture
def test_feed() -> Iterator[stats_feeds.StatsFeed]:
    feed = stats_feeds.register(
        stats_feeds.StatsFeed(
            name="test-companies",
            title="Companies by name",
            description="Test feed",
            columns=("country", "national_id", "name"),
            rows=_largest,
            attribution="Test register, CC0",
        )
    )
    yield feed
    del stats_feeds.FEEDS[feed.name]


def _valid_sk(nid: str) -> bool:
    try:
        parse_national_id("SK", nid)
    except InvalidIdentifier:
        return False
    return True


@pytest.fixture
def companies(engine):  # type: ignore[no-untyped-def]
    ids = [f"{n:08d}" for n in range(10_000_000, 10_002_000) if _valid_sk(f"{n:08d}")][:130]
    records = [
        CompanyRecord(country="SK", national_id=nid, name=f"Firma {chr(65 + n % 26)}{n} s.r.o.")
        for n, nid in enumerate(ids)
    ]
    records.append(CompanyRecord(country="CZ", national_id="26168685", name="Žluťoučký kůň, a.s."))
    load_companies(engine, *records)


def test_index_lists_registered_and_own_route_feeds(client, test_feed):
    resp = client.get("/api/v1/public/stats.json")
    assert_envelope(resp)
    feeds = {f["name"]: f for f in resp.json()["data"]["feeds"]}
    assert {"bankrupt", "sanctions", "test-companies"} <= set(feeds)
    assert feeds["bankrupt"]["json_url"].endswith("/api/v1/public/stats/bankrupt")
    assert feeds["test-companies"]["csv_url"] == "http://testserver/api/v1/public/stats/test-companies.csv"
    assert feeds["test-companies"]["columns"] == ["country", "national_id", "name"]


def test_json_feed_caps_at_100_rows(client, test_feed, companies):
    resp = client.get("/api/v1/public/stats/test-companies")
    assert resp.status_code == 200
    assert resp.headers["cache-control"] == "public, max-age=900"
    assert resp.headers["x-attribution"] == "Test register, CC0"
    data = resp.json()["data"]
    assert data["count"] == 100 and len(data["rows"]) == 100
    assert set(data["rows"][0]) == {"country", "national_id", "name"}
    assert_error(client.get("/api/v1/public/stats/test-companies?limit=101"), 422, "VALIDATION_ERROR")


def test_csv_feed_up_to_500_rows_with_attribution(client, test_feed, companies):
    resp = client.get("/api/v1/public/stats/test-companies.csv")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    lines = resp.text.splitlines()
    assert next(csv.reader([lines[0]])) == ["# Test register, CC0"]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[1:]))))
    assert len(rows) == 131
    assert any(r["name"] == "Žluťoučký kůň, a.s." for r in rows)
    assert_error(client.get("/api/v1/public/stats/test-companies.csv?limit=501"), 422, "VALIDATION_ERROR")


@pytest.mark.parametrize("name", ["nope", "bankrupt-x", "sanction"])
def test_unknown_feed_names_the_feeds(client, test_feed, name):
    err = assert_error(client.get(f"/api/v1/public/stats/{name}"), 404, "NOT_FOUND")
    assert "test-companies" in err["details"]["feeds"]


@pytest.mark.parametrize("name", ["UPPER", "a%20b", "x'%3B--", "%C5%BE"])
def test_malformed_feed_name_is_422(client, name):
    assert_error(client.get(f"/api/v1/public/stats/{name}"), 422, "VALIDATION_ERROR")
