"""The worker end to end, in-process: a data change through the real loader → the outbox → a real
HTTP receiver on 127.0.0.1 that verifies Standard Webhooks signatures."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from regintel.db.schema import deliveries, delivery_attempts, subscriptions
from regintel.jobs.signing import signed_headers
from tests.builders import make_company
from tests.helpers import assert_envelope
from tests.jobs.support import drain, subscribe

BASE = "/api/v1/monitoring/subscriptions"


def rows(engine, table, order):
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(table).order_by(order)).mappings()]


def test_bankruptcy_reaches_the_receiver_signed(client, auth, engine, receiver, make_worker):
    make_company(engine)
    sub = subscribe(client, auth, receiver)
    make_company(engine, in_bankruptcy=True)
    worker = make_worker()
    assert asyncio.run(worker.run_once()) == 1
    [got] = receiver.wait_for(1)
    assert got.verified and got.error is None
    assert got.json == {
        "type": "company.insolvency.changed",
        "ico": "31322832",
        "country": "SK",
        "field": "in_bankruptcy",
        "from": False,
        "to": True,
        "detected_at": got.json["detected_at"],
    }
    assert got.headers["content-type"] == "application/json"
    assert got.headers["host"] == f"127.0.0.1:{receiver.server.server_address[1]}"
    [delivery] = rows(engine, deliveries, deliveries.c.id)
    assert (delivery["status"], delivery["attempts"], delivery["last_status_code"]) == ("succeeded", 1, 200)
    assert got.message_id == delivery["message_id"]
    [attempt] = rows(engine, delivery_attempts, delivery_attempts.c.id)
    assert (attempt["status_code"], attempt["error"], attempt["attempt"]) == (200, None, 1)
    assert attempt["duration_ms"] >= 0 and attempt["worker"] == worker.id
    record = assert_envelope(client.get(f"{BASE}/{sub['id']}", headers=auth))
    assert (record["total_deliveries"], record["last_status"], record["consecutive_failures"]) == (1, 200, 0)
    assert record["last_delivery_at"].endswith("Z")
    assert asyncio.run(worker.run_once()) == 0  # delivered once, not again


def test_failures_are_retried_with_the_same_id(client, auth, engine, receiver, make_worker):
    make_company(engine)
    sub = subscribe(client, auth, receiver)
    receiver.statuses["/hook"] = [500, 503]
    make_company(engine, in_bankruptcy=True)
    drain(make_worker(), lambda: len(receiver.received) == 3)
    assert [r.status for r in receiver.received] == [500, 503, 200]
    assert len({r.message_id for r in receiver.received}) == 1 and all(r.verified for r in receiver.received)
    assert len({r.headers["webhook-timestamp"] for r in receiver.received}) >= 1
    log = assert_envelope(client.get(f"{BASE}/{sub['id']}/deliveries", headers=auth))
    assert [(a["status_code"], a["error"]) for a in log[0]["attempt_log"]] == [
        (500, "HTTP 500"),
        (503, "HTTP 503"),
        (200, None),
    ]
    assert (log[0]["status"], log[0]["attempts"]) == ("succeeded", 3)
    record = assert_envelope(client.get(f"{BASE}/{sub['id']}", headers=auth))
    assert (record["total_failures"], record["total_deliveries"], record["consecutive_failures"]) == (2, 1, 0)


def test_exhausted_retries_pause_without_losing_anything(client, auth, engine, receiver, make_worker):
    make_company(engine)
    sub = subscribe(client, auth, receiver)
    receiver.statuses["/hook"] = [500] * 4
    make_company(engine, in_bankruptcy=True)
    make_company(engine, in_liquidation=True)
    worker = make_worker()
    drain(worker, lambda: len(receiver.received) == 4)  # 1 attempt + 3 retries of the first event
    record = assert_envelope(client.get(f"{BASE}/{sub['id']}", headers=auth))
    assert record["status"] == "paused" and "failed 4 times" in record["pause_reason"]
    assert record["consecutive_failures"] == 4 and record["queued_deliveries"] == 1
    first, second = rows(engine, deliveries, deliveries.c.id)
    assert (first["status"], first["attempts"], second["status"], second["attempts"]) == (
        "failed",
        4,
        "pending",
        0,
    )
    assert asyncio.run(worker.run_once()) == 0  # paused: nothing is attempted
    assert {r.message_id for r in receiver.received} == {first["message_id"]}  # the later event waited
    assert_envelope(client.post(f"{BASE}/{sub['id']}/resume", headers=auth))
    drain(worker, lambda: len(receiver.received) == 6)
    assert [r.message_id for r in receiver.received[4:]] == [first["message_id"], second["message_id"]]
    assert [r.json["field"] for r in receiver.received[4:]] == ["in_bankruptcy", "in_liquidation"]


def test_a_later_event_waits_for_an_earlier_retry(client, auth, engine, receiver, make_worker):
    make_company(engine)
    subscribe(client, auth, receiver)
    receiver.statuses["/hook"] = [500]
    make_company(engine, in_bankruptcy=True)
    make_company(engine, in_bankruptcy=False)
    drain(make_worker(webhook_retry_schedule=[0.3]), lambda: len(receiver.received) == 3)
    assert [(r.json["to"], r.status) for r in receiver.received] == [(True, 500), (True, 200), (False, 200)]


def test_test_delivery(client, auth, engine, receiver, make_worker):
    make_company(engine)
    sub = subscribe(client, auth, receiver)
    queued = assert_envelope(client.post(f"{BASE}/{sub['id']}/test", headers=auth), 202)
    asyncio.run(make_worker().run_once())
    [got] = receiver.wait_for(1)
    assert got.verified and got.message_id == queued["delivery_id"]
    assert got.json["type"] == "test" and got.json["ico"] == "31322832"


def test_rotation_signs_with_both_secrets_during_the_grace(client, auth, engine, receiver, make_worker):
    make_company(engine)
    sub = subscribe(client, auth, receiver)
    old = sub["secret"]
    new = assert_envelope(client.post(f"{BASE}/{sub['id']}/rotate-secret", headers=auth))["secret"]
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker().run_once())
    [got] = receiver.wait_for(1)
    assert len(got.headers["webhook-signature"].split(" ")) == 2
    for secret in (old, new):
        assert Webhook(secret).verify(got.body, got.headers)["to"] is True


def test_forged_and_replayed_deliveries_are_rejected(client, auth, engine, receiver, make_worker):
    make_company(engine)
    secret = subscribe(client, auth, receiver)["secret"]
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker().run_once())
    [got] = receiver.wait_for(1)
    verifier = Webhook(secret)
    assert verifier.verify(got.body, got.headers)["to"] is True
    tampered = got.body.replace(b'"to":true', b'"to":false')
    with pytest.raises(WebhookVerificationError, match="No matching signature"):
        verifier.verify(tampered, got.headers)
    old = signed_headers(
        got.message_id, got.body.decode(), [secret], datetime.now(UTC) - timedelta(minutes=10)
    )
    with pytest.raises(WebhookVerificationError, match="too old"):
        verifier.verify(got.body, old)  # a replay of a captured delivery, beyond the 5-minute tolerance
    with pytest.raises(WebhookVerificationError, match="No matching signature"):
        moved = str(int(got.headers["webhook-timestamp"]) + 1)  # a fresh timestamp on an old signature
        verifier.verify(got.body, got.headers | {"webhook-timestamp": moved})
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + "A" * 43 + "=").verify(got.body, got.headers)  # someone else's secret


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_private_addresses_are_refused_at_delivery(client, auth, engine, receiver, make_worker, host):
    """Accepted at creation (permissive settings, or a name that resolved elsewhere then), the address is
    checked again before the attempt: DNS rebinding cannot reach an internal service."""
    make_company(engine)
    url = receiver.url("/hook").replace("127.0.0.1", host)
    assert_envelope(client.post(BASE, json={"ico": "31322832", "webhook_url": url}, headers=auth), 201)
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker(allow_private_webhooks=False, webhook_retry_schedule=[60]).run_once())
    assert receiver.received == []
    [delivery] = rows(engine, deliveries, deliveries.c.id)
    assert delivery["status"] == "pending" and delivery["attempts"] == 1
    assert delivery["last_error"].startswith("refused:") and "loopback" in delivery["last_error"]


@pytest.mark.parametrize("answer, error", [(302, "HTTP 302"), (404, "HTTP 404")])
def test_non_2xx_is_a_failure(client, auth, engine, receiver, make_worker, answer, error):
    make_company(engine)
    subscribe(client, auth, receiver)
    receiver.statuses["/hook"] = [answer]
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker(webhook_retry_schedule=[60]).run_once())
    [delivery] = rows(engine, deliveries, deliveries.c.id)
    assert (delivery["status"], delivery["last_status_code"], delivery["last_error"]) == (
        "pending",
        answer,
        error,
    )
    assert delivery["next_attempt_at"].replace(tzinfo=UTC) > datetime.now(UTC) + timedelta(seconds=50)


def test_timeouts_and_refused_connections(client, auth, engine, receiver, make_worker):
    make_company(engine)
    subscribe(client, auth, receiver)
    assert_envelope(
        client.post(BASE, json={"ico": "31322832", "webhook_url": "http://127.0.0.1:9/closed"}, headers=auth),
        201,
    )
    receiver.delay = 1.5
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker(webhook_timeout_seconds=0.3, webhook_retry_schedule=[60]).run_once())
    errors = sorted(a["error"] for a in rows(engine, delivery_attempts, delivery_attempts.c.id))
    assert errors[0].startswith("ConnectError") and errors[1] == "timeout after 0.3 s"
    with engine.connect() as conn:
        figures = conn.execute(
            select(subscriptions.c.consecutive_failures, subscriptions.c.last_status)
        ).all()
    assert [tuple(f) for f in figures] == [(1, None), (1, None)]


def test_heartbeat_shows_in_status(client, auth, make_worker):
    assert assert_envelope(client.get("/api/v1/public/status"))["worker"]["alive"] is False
    asyncio.run(make_worker().run_once())
    worker = assert_envelope(client.get("/api/v1/public/status"))["worker"]
    assert worker["alive"] is True and worker["last_heartbeat"].endswith("Z")


def test_two_workers_share_the_queue_without_duplicates_or_reordering(
    client, auth, engine, receiver, make_worker
):
    """PostgreSQL claims with FOR UPDATE SKIP LOCKED (SQLite serialises the claim statement): two
    workers running at once deliver every event exactly once, each subscription's in order."""
    from regintel.domain.types import CompanyRecord
    from tests.builders import load_companies
    from tests.jobs.support import valid_icos

    icos = valid_icos(8)
    load_companies(engine, *(CompanyRecord(country="SK", national_id=i, name=f"F {i}") for i in icos))
    for i in icos:
        subscribe(client, auth, receiver, path=f"/{i}", ico=i)
    for flags in ({"in_bankruptcy": True}, {"in_liquidation": True}, {"in_bankruptcy": False}):
        load_companies(
            engine, *(CompanyRecord(country="SK", national_id=i, name=f"F {i}", **flags) for i in icos)
        )
    receiver.delay = 0.02
    workers = [make_worker(webhook_concurrency=4), make_worker(webhook_concurrency=4)]

    async def both() -> None:
        await asyncio.gather(*(asyncio.to_thread(asyncio.run, w.run_once()) for w in workers))

    deadline = time.monotonic() + 20
    while len(receiver.received) < 24 and time.monotonic() < deadline:
        asyncio.run(both())
    got = receiver.received
    assert len(got) == 24 and len({r.message_id for r in got}) == 24 and all(r.verified for r in got)
    for i in icos:
        assert [(r.json["field"], r.json["to"]) for r in got if r.path == f"/{i}"] == [
            ("in_bankruptcy", True),
            ("in_liquidation", True),
            ("in_bankruptcy", False),
        ]
    with engine.connect() as conn:
        claimed_by = set(conn.execute(select(delivery_attempts.c.worker)).scalars())
    assert claimed_by <= {w.id for w in workers}


def test_a_host_name_is_resolved_and_pinned(client, auth, engine, receiver, make_worker):
    """The worker connects to the address it resolved and checked, keeping the name in `Host`."""
    make_company(engine)
    url = receiver.url("/named").replace("127.0.0.1", "localhost")
    sub = assert_envelope(client.post(BASE, json={"ico": "31322832", "webhook_url": url}, headers=auth), 201)
    receiver.secrets["/named"] = sub["secret"]
    make_company(engine, in_bankruptcy=True)
    asyncio.run(make_worker().run_once())
    [got] = receiver.wait_for(1)
    assert got.verified and got.headers["host"] == f"localhost:{receiver.server.server_address[1]}"
