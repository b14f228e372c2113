"""Monitoring subscriptions through HTTP (spec 2.5, 4.6): create, list, one, delete, rotate, test,
resume, bulk; ownership by key; bad input never a 500."""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from regintel.db.schema import deliveries, subscriptions
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies, make_company
from tests.helpers import assert_envelope, assert_error

BASE = "/api/v1/monitoring/subscriptions"
HOOK = "http://127.0.0.1:9/hook"


def create(client, auth, ico="31322832", url=HOOK, **extra):
    return client.post(BASE, json={"ico": ico, "webhook_url": url, **extra}, headers=auth)


def test_create_shows_the_secret_once(client, auth, engine):
    make_company(engine)
    data = assert_envelope(create(client, auth), 201)
    assert data["ico"] == "31322832" and data["country"] == "SK" and data["company_name"] == "SLOVNAFT, a.s."
    assert data["webhook_url"] == HOOK and data["status"] == "active"
    assert data["event_types"] == ["company.insolvency.changed"]
    assert data["secret"].startswith("whsec_") and len(data["secret"]) > 40
    assert (data["consecutive_failures"], data["total_deliveries"], data["total_failures"]) == (0, 0, 0)
    assert data["last_delivery_at"] is None and data["created_at"].endswith("Z")
    listed = assert_envelope(client.get(BASE, headers=auth))
    assert [s["id"] for s in listed] == [data["id"]] and "secret" not in listed[0]
    one = assert_envelope(client.get(f"{BASE}/{data['id']}", headers=auth))
    assert "secret" not in one and one["queued_deliveries"] == 0
    assert_error(create(client, auth), 409, "CONFLICT")


def test_country_is_any_case_and_defaults_to_sk(client, auth, engine):
    make_company(engine)
    load_companies(engine, CompanyRecord(country="CZ", national_id="31322832", name="Česká firma s.r.o."))
    assert_error(create(client, auth), 409, "AMBIGUOUS_IDENTIFIER")
    data = assert_envelope(create(client, auth, country="cz"), 201)
    assert data["country"] == "CZ" and data["company_name"] == "Česká firma s.r.o."


@pytest.mark.parametrize(
    "ico, status, code",
    [
        (
            "31322833",
            422,
            "VALIDATION_ERROR",
        ),  # wrong check digit (well-formed elsewhere: 404 without country)
        ("35757442", 404, "NOT_FOUND"),  # well-formed, unknown
        ("' OR 1=1 --", 422, "VALIDATION_ERROR"),
        ("", 422, "VALIDATION_ERROR"),
        ("1" * 41, 422, "VALIDATION_ERROR"),
        ("३१३२२८३२", 422, "VALIDATION_ERROR"),  # non-ASCII digits
        ("SK31322832", 422, "VALIDATION_ERROR"),
    ],
)
def test_bad_identifiers(client, auth, engine, ico, status, code):
    make_company(engine)
    assert_error(create(client, auth, ico=ico, country="sk"), status, code)


@pytest.mark.parametrize(
    "url, reason",
    [
        ("ftp://example.com/hook", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("http://user:pw@127.0.0.1/hook", "credentials"),
        ("http:///nohost", "host"),
        ("http://exa mple.com/", "malformed"),
        ("http://" + "a" * 2100 + ".com/", None),  # over 2,048: refused by the body model
        ("http://no-such-host.invalid/hook", "unresolvable"),
    ],
)
def test_bad_urls(client, auth, engine, url, reason):
    make_company(engine)
    err = assert_error(create(client, auth, url=url), 422, "VALIDATION_ERROR")
    if reason:
        assert err["details"][0]["reason"] == reason and err["details"][0]["field"] == "webhook_url"


@pytest.mark.parametrize(
    "url, reason",
    [
        ("http://127.0.0.1:8080/hook", "loopback_address"),
        ("http://localhost/hook", "loopback_address"),
        ("http://10.1.2.3/hook", "private_address"),
        ("http://192.168.0.1/hook", "private_address"),
        ("http://169.254.169.254/latest/meta-data", "link_local_address"),
        ("http://[::1]/hook", "loopback_address"),
        ("http://[::ffff:127.0.0.1]/hook", "loopback_address"),
        ("http://[::ffff:10.0.0.1]/hook", "private_address"),
        ("http://[fe80::1]/hook", "link_local_address"),
        ("http://[fc00::1]/hook", "private_address"),
        ("http://0.0.0.0/hook", "unspecified_address"),
        ("http://224.0.0.1/hook", "multicast_address"),
        ("http://100.64.0.1/hook", None),  # shared address space: not global
        ("http://2130706433/hook", "loopback_address"),  # 127.0.0.1 as one number
    ],
)
def test_private_addresses_are_refused(app_factory, auth, engine, url, reason):
    make_company(engine)
    strict = app_factory(allow_private_webhooks=False)
    err = assert_error(create(strict, auth, url=url), 422, "VALIDATION_ERROR")
    assert err["details"][0]["reason"].endswith("_address")
    if reason:
        assert err["details"][0]["reason"] == reason
    assert "public addresses" in err["message"]


def test_unknown_and_missing_body_fields(client, auth, engine):
    make_company(engine)
    err = assert_error(create(client, auth, secret="mine"), 422, "VALIDATION_ERROR")
    assert err["details"][0]["field"] == "secret"
    assert_error(client.post(BASE, json={"ico": "31322832"}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.post(BASE, content=b"{not json", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(BASE + "?stat=paused", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(BASE + "?status=gone", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.post(BASE, json={"ico": "31322832", "webhook_url": HOOK}), 401, "UNAUTHORIZED")


def test_a_key_sees_only_its_own(client, auth, engine, make_key):
    make_company(engine)
    mine = assert_envelope(create(client, auth), 201)
    other = {"Authorization": f"Bearer {make_key('pro', name='other')}"}
    assert assert_envelope(client.get(BASE, headers=other)) == []
    for method, path in [
        ("GET", ""),
        ("DELETE", ""),
        ("POST", "/rotate-secret"),
        ("POST", "/test"),
        ("POST", "/resume"),
        ("GET", "/deliveries"),
    ]:
        assert_error(client.request(method, f"{BASE}/{mine['id']}{path}", headers=other), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/999999", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/abc", headers=auth), 404, "NOT_FOUND")  # ids are integers: no such path
    assert_error(client.get(f"{BASE}/99999999999999999999999", headers=auth), 422, "VALIDATION_ERROR")


def test_rotate_secret(client, auth, engine):
    make_company(engine)
    sub = assert_envelope(create(client, auth), 201)
    rotated = assert_envelope(client.post(f"{BASE}/{sub['id']}/rotate-secret", headers=auth))
    assert rotated["secret"].startswith("whsec_") and rotated["secret"] != sub["secret"]
    assert rotated["previous_secret_valid_until"].endswith("Z")
    with engine.connect() as conn:
        row = conn.execute(select(subscriptions).where(subscriptions.c.id == sub["id"])).mappings().one()
    assert (row["secret"], row["previous_secret"]) == (rotated["secret"], sub["secret"])


def test_test_delivery_is_queued(client, auth, engine):
    make_company(engine)
    sub = assert_envelope(create(client, auth), 201)
    queued = assert_envelope(client.post(f"{BASE}/{sub['id']}/test", headers=auth), 202)
    assert queued["delivery_id"].startswith("msg_") and queued["status"] == "pending"
    log = assert_envelope(client.get(f"{BASE}/{sub['id']}/deliveries", headers=auth))
    assert [(d["delivery_id"], d["event_type"], d["status"]) for d in log] == [
        (queued["delivery_id"], "test", "pending")
    ]
    assert assert_envelope(client.get(f"{BASE}/{sub['id']}", headers=auth))["queued_deliveries"] == 1


def test_delete_cancels_what_is_queued(client, auth, engine):
    make_company(engine)
    sub = assert_envelope(create(client, auth), 201)
    client.post(f"{BASE}/{sub['id']}/test", headers=auth)
    data = assert_envelope(client.delete(f"{BASE}/{sub['id']}", headers=auth))
    assert data == {"id": sub["id"], "deleted": True, "cancelled_deliveries": 1}
    assert_error(client.get(f"{BASE}/{sub['id']}", headers=auth), 404, "NOT_FOUND")
    assert_error(client.delete(f"{BASE}/{sub['id']}", headers=auth), 404, "NOT_FOUND")
    assert assert_envelope(client.get(BASE, headers=auth)) == []
    assert_envelope(create(client, auth), 201)  # the same pair can be subscribed again


def test_resume_requeues_failed_deliveries(client, auth, engine):
    make_company(engine)
    sub = assert_envelope(create(client, auth), 201)
    client.post(f"{BASE}/{sub['id']}/test", headers=auth)
    with engine.begin() as conn:
        conn.execute(update(subscriptions).values(status="paused", pause_reason="failing"))
        conn.execute(update(deliveries).values(status="failed", attempts=8))
    paused = assert_envelope(client.get(f"{BASE}?status=paused", headers=auth))
    assert [(s["status"], s["pause_reason"]) for s in paused] == [("paused", "failing")]
    data = assert_envelope(client.post(f"{BASE}/{sub['id']}/resume", headers=auth))
    assert (data["status"], data["requeued_deliveries"], data["pause_reason"]) == ("active", 1, None)
    log = assert_envelope(client.get(f"{BASE}/{sub['id']}/deliveries?status=pending", headers=auth))
    assert [(d["status"], d["attempts"]) for d in log] == [("pending", 0)]
    again = assert_envelope(
        client.post(f"{BASE}/{sub['id']}/resume", json={"retry_failed": False}, headers=auth)
    )
    assert again["requeued_deliveries"] == 0
    assert_error(
        client.post(f"{BASE}/{sub['id']}/resume", json={"retry": 1}, headers=auth), 422, "VALIDATION_ERROR"
    )


def test_list_paginates(client, auth, engine):
    make_company(engine)
    for port in range(3):
        assert_envelope(create(client, auth, url=f"http://127.0.0.1:{9000 + port}/h"), 201)
    resp = client.get(f"{BASE}?page=2&per_page=2", headers=auth)
    assert len(assert_envelope(resp)) == 1
    assert (resp.json()["meta"]["total"], resp.json()["meta"]["page"], resp.json()["meta"]["per_page"]) == (
        3,
        2,
        2,
    )
    assert_error(client.get(f"{BASE}?per_page=0", headers=auth), 422, "VALIDATION_ERROR")


def test_bulk_is_per_item(client, auth, engine, make_key):
    make_company(engine)
    theirs = assert_envelope(create(client, {"Authorization": f"Bearer {make_key(name='b')}"}), 201)
    ops = [
        {"action": "create", "ico": "31322832", "webhook_url": HOOK},
        {"action": "create", "ico": "31322832", "webhook_url": HOOK},  # duplicate of the first
        {"action": "create", "ico": "31322833", "country": "sk", "webhook_url": HOOK},  # bad check digit
        {"action": "create", "ico": "35757442", "webhook_url": HOOK},  # unknown
        {"action": "create", "ico": "31322832", "webhook_url": "ftp://x/"},
        {"action": "delete", "id": theirs["id"]},  # another key's
        {"action": "explode"},
        "not an object",
        {"action": "create", "ico": "31322832", "webhook_url": HOOK, "extra": 1},
    ]
    data = assert_envelope(client.post(f"{BASE}/bulk", json={"operations": ops}, headers=auth))
    assert [r["status"] for r in data["results"]] == [201, 409, 422, 404, 422, 404, 422, 422, 422]
    assert (data["succeeded"], data["failed"]) == (1, 8)
    created = data["results"][0]["data"]
    assert created["secret"].startswith("whsec_")
    assert data["results"][1]["error"]["code"] == "CONFLICT"
    deleted = assert_envelope(
        client.post(
            f"{BASE}/bulk", json={"operations": [{"action": "delete", "id": created["id"]}]}, headers=auth
        )
    )
    assert deleted["results"][0]["status"] == 200 and deleted["results"][0]["data"]["deleted"] is True
    assert_error(client.post(f"{BASE}/bulk", json={"operations": []}, headers=auth), 422, "VALIDATION_ERROR")
    too_many = [{"action": "delete", "id": 1}] * 101
    assert_error(
        client.post(f"{BASE}/bulk", json={"operations": too_many}, headers=auth), 422, "VALIDATION_ERROR"
    )
