"""The change hook: a data change, its monitoring events and its outbox rows commit together, through
the real loader (installed by default for every load)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, update

from regintel.db.schema import (
    api_keys,
    companies,
    company_changes,
    deliveries,
    monitoring_events,
    subscriptions,
)
from regintel.domain.types import CompanyRecord
from regintel.ingest.loader import Loader, default_hooks
from tests.builders import TEST_SOURCE, load_companies, make_company
from tests.helpers import assert_envelope

BASE = "/api/v1/monitoring/subscriptions"


def subscribe(client, auth, ico="31322832", url="http://127.0.0.1:9/a", country=None):
    body = {"ico": ico, "webhook_url": url} | ({"country": country} if country else {})
    return assert_envelope(client.post(BASE, json=body, headers=auth), 201)


def outbox(engine):
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(deliveries).order_by(deliveries.c.id)).mappings()]


def events(engine):
    with engine.connect() as conn:
        return [
            dict(r)
            for r in conn.execute(select(monitoring_events).order_by(monitoring_events.c.id)).mappings()
        ]


def test_bankruptcy_flip_queues_the_spec_payload(client, auth, engine):
    make_company(engine)
    sub = subscribe(client, auth)
    make_company(engine, in_bankruptcy=True)
    rows = outbox(engine)
    assert len(rows) == 1 and rows[0]["subscription_id"] == sub["id"] and rows[0]["status"] == "pending"
    body = json.loads(rows[0]["body"])
    with engine.connect() as conn:
        change = (
            conn.execute(select(company_changes).where(company_changes.c.field == "in_bankruptcy"))
            .mappings()
            .one()
        )
    assert rows[0]["change_id"] == change["id"] and rows[0]["message_id"].startswith("msg_")
    assert body == {
        "type": "company.insolvency.changed",
        "ico": "31322832",
        "country": "SK",
        "field": "in_bankruptcy",
        "from": False,
        "to": True,
        "detected_at": body["detected_at"],
    }
    assert (
        body["detected_at"].endswith("Z")
        and body["detected_at"][:19] == change["detected_at"].isoformat()[:19]
    )


def test_every_flag_and_only_flags_are_delivered(client, auth, engine):
    make_company(engine)
    subscribe(client, auth)
    make_company(engine, in_liquidation=True, city="Košice", name="SLOVNAFT a.s.")
    make_company(engine, in_restructuring=True)
    make_company(engine, in_bankruptcy=True)  # ends the restructuring (spec 2.2)
    fields = [(json.loads(r["body"])["field"], json.loads(r["body"])["to"]) for r in outbox(engine)]
    assert fields == [
        ("in_liquidation", True),
        ("in_restructuring", True),
        ("in_bankruptcy", True),
        ("in_restructuring", False),
    ]
    severities = {(e["field"], e["severity"]) for e in events(engine)}
    assert severities == {
        ("in_liquidation", "warning"),
        ("city", "info"),
        ("name", "info"),
        ("in_restructuring", "critical"),
        ("in_bankruptcy", "critical"),
    }


def test_unwatched_companies_and_other_keys(client, auth, engine, make_key):
    make_company(engine)
    load_companies(engine, CompanyRecord(country="SK", national_id="35757442", name="Other a.s."))
    subscribe(client, auth)
    other = {"Authorization": f"Bearer {make_key(name='other')}"}
    subscribe(client, other, url="http://127.0.0.1:9/b")
    subscribe(client, other, url="http://127.0.0.1:9/c")  # second URL, same key and company
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id="35757442", name="Other", in_bankruptcy=True),
        CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s.", in_bankruptcy=True),
    )
    assert len(outbox(engine)) == 3  # three subscriptions of the watched company; none for the other one
    assert sorted(e["api_key_id"] for e in events(engine)) == [1, 2]  # one event per key, not per URL


def test_paused_queue_deleted_and_revoked_do_not(client, auth, engine):
    make_company(engine)
    paused = subscribe(client, auth, url="http://127.0.0.1:9/paused")
    deleted = subscribe(client, auth, url="http://127.0.0.1:9/deleted")
    client.delete(f"{BASE}/{deleted['id']}", headers=auth)
    with engine.begin() as conn:
        conn.execute(update(subscriptions).where(subscriptions.c.id == paused["id"]).values(status="paused"))
    make_company(engine, in_bankruptcy=True)
    assert [r["subscription_id"] for r in outbox(engine)] == [paused["id"]]
    with engine.begin() as conn:
        conn.execute(update(api_keys).values(revoked_at=func.now()))
    make_company(engine, in_bankruptcy=False)
    assert len(outbox(engine)) == 1


def test_the_outbox_commits_with_the_data_or_not_at_all(client, auth, engine):
    """A failure after the hook ran rolls back the flag, the change row, the event and the delivery."""
    make_company(engine)
    subscribe(client, auth)

    def crash(conn, changes):
        raise RuntimeError("disk full")

    loader = Loader(engine, TEST_SOURCE, on_changes=[*default_hooks(), crash])
    loader.add(CompanyRecord(country="SK", national_id="31322832", name="SLOVNAFT, a.s.", in_bankruptcy=True))
    with pytest.raises(RuntimeError):
        loader.flush()
    with engine.connect() as conn:
        assert conn.execute(select(companies.c.in_bankruptcy)).scalar_one() is False
        assert (
            conn.execute(
                select(func.count())
                .select_from(company_changes)
                .where(company_changes.c.field == "in_bankruptcy")
            ).scalar_one()
            == 0
        )
    assert outbox(engine) == [] and events(engine) == []
    make_company(engine, in_bankruptcy=True)  # the re-run converges
    assert len(outbox(engine)) == 1 and len(events(engine)) == 1


def test_generic_webhooks_filter_by_type_country_and_company(client, auth, engine):
    make_company(engine)
    load_companies(engine, CompanyRecord(country="CZ", national_id="27082440", name="Alza.cz a.s."))
    hooks = "/api/v1/webhooks/subscriptions"

    def create(**body):
        return assert_envelope(
            client.post(hooks, json={"url": "http://127.0.0.1:9/g", **body}, headers=auth), 201
        )

    everything = create(event_types=["company.insolvency.changed", "company.created"])
    czech = create(event_types=["company.insolvency.changed"], countries=["cz"])
    one = create(event_types=["company.changed"], companies=[{"country": "SK", "ico": "31322832"}])
    load_companies(
        engine,
        CompanyRecord(
            country="SK", national_id="31322832", name="SLOVNAFT, a.s.", in_bankruptcy=True, city="Bratislava"
        ),
        CompanyRecord(country="CZ", national_id="27082440", name="Alza.cz a.s.", in_liquidation=True),
        CompanyRecord(country="SK", national_id="35757442", name="Nová a.s."),
    )
    got = {
        (r["subscription_id"], json.loads(r["body"])["type"], json.loads(r["body"]).get("field"))
        for r in outbox(engine)
    }
    assert got == {
        (everything["id"], "company.insolvency.changed", "in_bankruptcy"),
        (everything["id"], "company.insolvency.changed", "in_liquidation"),
        (everything["id"], "company.created", None),
        (czech["id"], "company.insolvency.changed", "in_liquidation"),
        (one["id"], "company.changed", "city"),
    }
    created = next(json.loads(r["body"]) for r in outbox(engine) if r["event_type"] == "company.created")
    assert created == {
        "type": "company.created",
        "ico": "35757442",
        "country": "SK",
        "name": "Nová a.s.",
        "detected_at": created["detected_at"],
    }
    assert events(engine) == []  # generic webhooks feed no monitoring events
