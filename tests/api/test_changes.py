"""`/companies/changes` and `/companies/changes/feed` through HTTP (the stream: test_changes_stream.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from regintel.domain.types import CompanyRecord
from tests.api.feed_checks import check_atom
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/companies/changes"


@pytest.fixture
def history(engine):
    """created ×2, then a rename, a bankruptcy flip (SK) and a CZ address change: 5 change rows."""
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s."),
        CompanyRecord(country="CZ", national_id="26168685", name="Seznam.cz, a.s.", city="Praha"),
    )
    load_companies(engine, CompanyRecord(country="SK", national_id="31322832", name="Slovnaft a.s."))
    load_companies(engine, CompanyRecord(country="SK", national_id="31322832", in_bankruptcy=True))
    load_companies(engine, CompanyRecord(country="CZ", national_id="26168685", city="Praha 5"))


def changes(client, auth, **params):
    resp = client.get(URL, params=params, headers=auth)
    return assert_envelope(resp), resp.json()["meta"]


def test_follow_the_log_oldest_first(client, auth, engine, history):
    items, meta = changes(client, auth)
    assert [(i["ico"], i["field"], i["from"], i["to"]) for i in items] == [
        ("31322832", "created", None, "SLOVNAFT, a.s."),
        ("26168685", "created", None, "Seznam.cz, a.s."),
        ("31322832", "name", "SLOVNAFT, a.s.", "Slovnaft a.s."),
        ("31322832", "in_bankruptcy", "false", "true"),
        ("26168685", "city", "Praha", "Praha 5"),
    ]
    assert [i["id"] for i in items] == sorted(i["id"] for i in items)
    assert items[3]["source"] == "test_register" and items[3]["country"] == "SK"
    assert items[3]["company_url"] == "http://testserver/api/v1/companies/SK/31322832"
    assert items[3]["detected_at"].endswith("Z")
    assert meta["next_cursor"] is None
    newer, meta2 = changes(client, auth, cursor=meta["resume_cursor"])
    assert newer == [] and meta2["resume_cursor"] == meta["resume_cursor"]
    load_companies(engine, CompanyRecord(country="SK", national_id="31322832", in_bankruptcy=False))
    newer, _ = changes(client, auth, cursor=meta["resume_cursor"])
    assert [(i["field"], i["to"]) for i in newer] == [("in_bankruptcy", "false")]


def test_pages(client, auth, history):
    seen, cursor = [], None
    while True:
        items, meta = changes(client, auth, limit=2, **({"cursor": cursor} if cursor else {}))
        seen += items
        cursor = meta["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == 5 and len({i["id"] for i in seen}) == 5


@pytest.mark.parametrize(
    "params, fields",
    [
        ({"country": "cz"}, ["created", "city"]),
        ({"field": "in_bankruptcy"}, ["in_bankruptcy"]),
        ({"source": "test_register", "country": "SK"}, ["created", "name", "in_bankruptcy"]),
        ({"source": "gleif"}, []),
        (
            {"since": (datetime.now(UTC) - timedelta(hours=1)).isoformat()},
            ["created", "created", "name", "in_bankruptcy", "city"],
        ),
        ({"since": (datetime.now(UTC) + timedelta(hours=1)).isoformat()}, []),
        ({"since": "2020-01-01T00:00:00"}, ["created", "created", "name", "in_bankruptcy", "city"]),
    ],
)
def test_filters(client, auth, history, params, fields):
    items, _ = changes(client, auth, **params)
    assert [i["field"] for i in items] == fields


@pytest.mark.parametrize(
    "params",
    [
        {"cursor": "zzz"},
        {"since": "yesterday"},
        {"limit": 0},
        {"limit": 1001},
        {"country": "Slovakia"},
        {"fields": "name"},
        {"field": "x" * 65},
    ],
)
def test_bad_parameters(client, auth, params):
    assert_error(client.get(URL, params=params, headers=auth), 422, "VALIDATION_ERROR")


def test_literal_paths_win_over_the_company_routes(client, auth):
    assert assert_envelope(client.get(URL, headers=auth)) == []
    assert_error(client.get(URL), 401, "UNAUTHORIZED")
    assert_error(client.get(f"{URL}/feed"), 401, "UNAUTHORIZED")
    assert_error(client.get(f"{URL}/stream"), 401, "UNAUTHORIZED")


def test_atom_feed(client, auth, api_key, history):
    resp = client.get(f"{URL}/feed", headers=auth)
    assert resp.headers["content-type"] == "application/atom+xml; charset=utf-8"
    parsed = check_atom(resp.content)
    assert [e.title for e in parsed.entries] == [
        "Seznam.cz, a.s. (CZ 26168685): city",
        "Slovnaft a.s. (SK 31322832): in_bankruptcy",
        "Slovnaft a.s. (SK 31322832): name",
        "Seznam.cz, a.s. (CZ 26168685): created",
        "Slovnaft a.s. (SK 31322832): created",
    ]
    assert parsed.entries[1].summary == "in_bankruptcy: false -> true (source test_register)"
    assert parsed.entries[1].link == "http://testserver/api/v1/companies/SK/31322832"
    by_query_key = client.get(f"{URL}/feed", params={"api_key": api_key, "field": "name", "limit": 1})
    filtered = check_atom(by_query_key.content)
    assert [e.title for e in filtered.entries] == ["Slovnaft a.s. (SK 31322832): name"]
    assert filtered.feed.title == "Company changes (field name)"
    assert api_key not in by_query_key.text  # the self link drops the key
    assert_error(client.get(f"{URL}/feed", params={"limit": 201}, headers=auth), 422, "VALIDATION_ERROR")


def test_empty_atom_feed_is_valid(client, auth):
    assert check_atom(client.get(f"{URL}/feed", headers=auth).content).entries == []
