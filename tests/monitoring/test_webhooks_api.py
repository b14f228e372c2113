"""Generic webhook subscriptions (spec 4.5) through HTTP."""

from __future__ import annotations

import pytest

from tests.builders import make_company
from tests.helpers import assert_envelope, assert_error

HOOKS = "/api/v1/webhooks/subscriptions"
URL = "http://127.0.0.1:9/generic"


def test_create_list_delete(client, auth, engine, make_key):
    make_company(engine)
    body = {
        "url": URL,
        "event_types": ["company.created", "company.insolvency.changed"],
        "countries": ["sk", "Cz"],
        "companies": [{"country": "sk", "ico": "31 322 832"}],
        "description": "CRM sync",
    }
    made = assert_envelope(client.post(HOOKS, json=body, headers=auth), 201)
    assert made["secret"].startswith("whsec_") and made["status"] == "active"
    assert made["event_types"] == ["company.insolvency.changed", "company.created"]
    assert made["countries"] == ["CZ", "SK"] and made["companies"] == [{"country": "SK", "ico": "31322832"}]
    listed = assert_envelope(client.get(HOOKS, headers=auth))
    assert [s["id"] for s in listed] == [made["id"]] and "secret" not in listed[0]
    # the two families stay apart
    assert assert_envelope(client.get("/api/v1/monitoring/subscriptions", headers=auth)) == []
    assert_error(client.get(f"/api/v1/monitoring/subscriptions/{made['id']}", headers=auth), 404, "NOT_FOUND")
    other = {"Authorization": f"Bearer {make_key(name='other')}"}
    assert_error(client.delete(f"{HOOKS}/{made['id']}", headers=other), 404, "NOT_FOUND")
    assert_envelope(client.post(f"{HOOKS}/{made['id']}/resume", headers=auth))
    gone = assert_envelope(client.delete(f"{HOOKS}/{made['id']}", headers=auth))
    assert gone["deleted"] is True
    assert assert_envelope(client.get(HOOKS, headers=auth)) == []


@pytest.mark.parametrize(
    "body, status",
    [
        ({"url": URL, "event_types": []}, 422),
        ({"url": URL, "event_types": ["company.exploded"]}, 422),
        ({"url": URL, "event_types": ["company.changed"]}, 422),  # needs a company scope
        ({"url": URL, "event_types": ["company.created"], "countries": ["Slovakia"]}, 422),
        (
            {
                "url": URL,
                "event_types": ["company.created"],
                "companies": [{"country": "SK", "ico": "31322833"}],
            },
            422,
        ),
        (
            {
                "url": URL,
                "event_types": ["company.created"],
                "companies": [{"country": "SK", "ico": "35757442"}],
            },
            404,
        ),
        ({"url": "gopher://x/", "event_types": ["company.created"]}, 422),
        ({"url": URL, "event_types": ["company.created"], "filter": "x"}, 422),
        ({"event_types": ["company.created"]}, 422),
    ],
)
def test_bad_input(client, auth, engine, body, status):
    make_company(engine)
    assert_error(
        client.post(HOOKS, json=body, headers=auth),
        status,
        "VALIDATION_ERROR" if status == 422 else "NOT_FOUND",
    )


def test_private_url_refused(app_factory, auth, engine):
    strict = app_factory(allow_private_webhooks=False)
    err = assert_error(
        strict.post(
            HOOKS, json={"url": "http://[::1]:8080/", "event_types": ["company.created"]}, headers=auth
        ),
        422,
        "VALIDATION_ERROR",
    )
    assert err["details"][0] == {
        "field": "url",
        "in": "body",
        "reason": "loopback_address",
        "message": err["details"][0]["message"],
    }
