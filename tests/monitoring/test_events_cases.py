"""Monitoring events (spec 6.2: `ico`, `since`, `severity`, cursor) and cases (spec 4.6) through HTTP."""

from __future__ import annotations

from regintel.domain.types import CompanyRecord
from tests.builders import load_companies, make_company
from tests.helpers import assert_envelope, assert_error

EVENTS = "/api/v1/monitoring/events"
CASES = "/api/v1/monitoring/cases"


def watch(client, auth, ico="31322832"):
    assert_envelope(
        client.post(
            "/api/v1/monitoring/subscriptions",
            json={"ico": ico, "webhook_url": "http://127.0.0.1:9/x"},
            headers=auth,
        ),
        201,
    )


def setup_events(client, auth, engine):
    make_company(engine)
    load_companies(engine, CompanyRecord(country="SK", national_id="35757442", name="Druhá a.s."))
    watch(client, auth)
    watch(client, auth, "35757442")
    make_company(engine, city="Košice")
    make_company(engine, city="Košice", in_bankruptcy=True)
    load_companies(
        engine, CompanyRecord(country="SK", national_id="35757442", name="Druhá a.s.", in_liquidation=True)
    )


def test_events_filters_and_cursor(client, auth, engine):
    setup_events(client, auth, engine)
    items = assert_envelope(client.get(EVENTS, headers=auth))
    assert [(e["ico"], e["field"], e["severity"]) for e in items] == [
        ("31322832", "city", "info"),
        ("31322832", "in_bankruptcy", "critical"),
        ("35757442", "in_liquidation", "warning"),
    ]
    bankrupt = items[1]
    assert bankrupt == {
        "id": bankrupt["id"],
        "type": "company.insolvency.changed",
        "ico": "31322832",
        "country": "SK",
        "company_name": "SLOVNAFT, a.s.",
        "field": "in_bankruptcy",
        "from": False,
        "to": True,
        "severity": "critical",
        "source": "test_register",
        "detected_at": bankrupt["detected_at"],
        "case_id": None,
    }
    assert items[0]["from"] is None and items[0]["to"] == "Košice"
    only = assert_envelope(client.get(f"{EVENTS}?ico=35757442&country=sk", headers=auth))
    assert [e["field"] for e in only] == ["in_liquidation"]
    assert [e["field"] for e in assert_envelope(client.get(f"{EVENTS}?severity=CRITICAL", headers=auth))] == [
        "in_bankruptcy"
    ]
    assert assert_envelope(client.get(f"{EVENTS}?since=2999-01-01", headers=auth)) == []
    assert len(assert_envelope(client.get(f"{EVENTS}?since=2000-01-01T00:00:00%2B02:00", headers=auth))) == 3
    page = client.get(f"{EVENTS}?limit=2", headers=auth)
    assert len(assert_envelope(page)) == 2
    rest = assert_envelope(
        client.get(f"{EVENTS}?limit=2&cursor={page.json()['meta']['next_cursor']}", headers=auth)
    )
    assert [e["id"] for e in rest] == [items[2]["id"]]


def test_events_bad_input(client, auth, engine, make_key):
    setup_events(client, auth, engine)
    for query, field in [
        ("severity=panic", "severity"),
        ("since=yesterday", "since"),
        ("cursor=%%%", "cursor"),
        ("country=sk", "country"),
        ("limit=501", "limit"),
        ("ico=31322833&country=sk", None),
        ("sevrity=info", "sevrity"),
    ]:
        err = assert_error(client.get(f"{EVENTS}?{query}", headers=auth), 422, "VALIDATION_ERROR")
        if field:
            assert err["details"][0]["field"] == field
    assert_error(client.get(f"{EVENTS}?ico=35757450", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(EVENTS), 401, "UNAUTHORIZED")
    other = {"Authorization": f"Bearer {make_key(name='other')}"}
    assert assert_envelope(client.get(EVENTS, headers=other)) == []  # events belong to the watching key


def test_cases(client, auth, engine, make_key):
    setup_events(client, auth, engine)
    first, second, third = assert_envelope(client.get(EVENTS, headers=auth))
    made = assert_envelope(
        client.patch(
            f"{EVENTS}/{second['id']}/case",
            json={"title": "Slovnaft bankruptcy", "note": "call legal"},
            headers=auth,
        )
    )
    case = made["case"]
    assert (
        made["case_id"] == case["id"] and case["title"] == "Slovnaft bankruptcy" and case["event_count"] == 1
    )
    moved = assert_envelope(
        client.patch(f"{EVENTS}/{first['id']}/case", json={"case_id": case["id"]}, headers=auth)
    )
    assert moved["case"]["event_count"] == 2
    listed = assert_envelope(client.get(CASES, headers=auth))
    assert [(c["id"], c["event_count"], c["note"]) for c in listed] == [(case["id"], 2, "call legal")]
    one = assert_envelope(client.get(f"{CASES}/{case['id']}", headers=auth))
    assert [e["id"] for e in one["events"]] == [second["id"], first["id"]]
    detached = assert_envelope(
        client.patch(f"{EVENTS}/{first['id']}/case", json={"case_id": None}, headers=auth)
    )
    assert detached["case_id"] is None and detached["case"] is None
    assert assert_envelope(client.get(f"{CASES}/{case['id']}", headers=auth))["event_count"] == 1
    filtered = assert_envelope(client.get(f"{EVENTS}?severity=critical", headers=auth))
    assert filtered[0]["case_id"] == case["id"]

    for body in [
        {},
        {"case_id": case["id"], "title": "both"},
        {"title": "  "},
        {"case_id": 0},
        {"colour": "red"},
    ]:
        assert_error(
            client.patch(f"{EVENTS}/{third['id']}/case", json=body, headers=auth), 422, "VALIDATION_ERROR"
        )
    assert_error(
        client.patch(f"{EVENTS}/{third['id']}/case", json={"case_id": 999}, headers=auth), 404, "NOT_FOUND"
    )
    assert_error(
        client.patch(f"{EVENTS}/999/case", json={"case_id": case["id"]}, headers=auth), 404, "NOT_FOUND"
    )
    other = {"Authorization": f"Bearer {make_key(name='other')}"}
    assert_error(client.get(f"{CASES}/{case['id']}", headers=other), 404, "NOT_FOUND")
    assert_error(
        client.patch(f"{EVENTS}/{third['id']}/case", json={"title": "mine"}, headers=other), 404, "NOT_FOUND"
    )
    assert assert_envelope(client.get(CASES, headers=other)) == []
    resp = client.get(f"{CASES}?page=1&per_page=1", headers=auth)
    assert resp.json()["meta"]["total"] == 1
