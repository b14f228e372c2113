"""Webhook deliveries queued before a withholding and not yet delivered (areas/accounts/outbox.py): a register
person's names leave them (and the monitoring events' copies) before the worker sends them to a real
receiver; a withheld sole trader's are cancelled; a lift puts the queued bodies back."""

from __future__ import annotations

import json
from dataclasses import replace

from sqlalchemy import select

from regintel.db.schema import deliveries
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.sections import person_key
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.areas_accounts.test_privacy_traders import TRADER
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.jobs.conftest import make_worker, receiver  # noqa: F401 (fixtures)
from tests.jobs.support import drain, subscribe

HOOKS = "/api/v1/webhooks/subscriptions"
JANA = PersonRecord("Jana Testová", birth_date="1980-04")
PETER = PersonRecord("Peter Iný", birth_date="1970-01")


def _company(*people: PersonRecord, city: str = "Žilina") -> CompanyRecord:
    return CompanyRecord(
        country="SK",
        national_id="35757442",
        name="NOVA s.r.o.",
        legal_form="112",
        city=city,
        roles=[RoleRecord(role="director", holder_name=p.name, person=p) for p in people],
    )


def _hook(client, auth, receiver, ico: str) -> dict[str, object]:  # noqa: F811
    sub = assert_envelope(
        client.post(
            HOOKS,
            json={
                "url": receiver.url("/g"),
                "event_types": ["company.changed"],
                "companies": [{"country": "SK", "ico": ico}],
            },
            headers=auth,
        ),
        201,
    )
    receiver.secrets["/g"] = str(sub["secret"])
    return sub  # type: ignore[no-any-return]


def _queued(engine) -> list[str]:
    with engine.connect() as conn:
        return [str(b) for b in conn.execute(select(deliveries.c.body).order_by(deliveries.c.id)).scalars()]


def test_queued_deliveries_go_out_without_a_withheld_person(
    client,
    auth,
    engine,
    cli,  # noqa: F811
    receiver,  # noqa: F811
    make_worker,  # noqa: F811
):
    load_companies(engine, _company(JANA))
    _hook(client, auth, receiver, "35757442")
    subscribe(client, auth, receiver, path="/m", ico="35757442")  # its events name the directors too
    load_companies(engine, _company(JANA, PETER))  # the directors change: a delivery naming both waits
    assert any(JANA.name in b for b in _queued(engine))  # queued with the name: the test can fail
    events = "/api/v1/monitoring/events"
    assert JANA.name in client.get(events, headers=auth).text

    request_id = _file_request(client, engine, kind="erase")
    key = person_key(JANA.name, JANA.birth_date, JANA.nationality)
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{key}")
    assert not any(JANA.name in b for b in _queued(engine))

    drain(make_worker(), lambda: len(receiver.received) >= 1)
    got = [r for r in receiver.received if r.path == "/g"]
    assert got and all(r.verified for r in got)
    sent = "\n".join(r.body.decode() for r in got)
    assert JANA.name not in sent and PETER.name in sent and "[withheld]" in sent
    assert (
        JANA.name not in client.get(events, headers=auth).text
        and PETER.name in client.get(events, headers=auth).text
    )

    # lifted: the events name her again; the delivery went out redacted and is not sent again
    cli("lift", f"p:{key}")
    assert JANA.name in client.get(events, headers=auth).text
    assert not any(JANA.name in b for b in _queued(engine))


def test_queued_deliveries_of_a_withheld_sole_trader_are_cancelled(
    client,
    auth,
    engine,
    cli,  # noqa: F811
    receiver,  # noqa: F811
    make_worker,  # noqa: F811
):
    import asyncio

    load_companies(engine, TRADER)
    _hook(client, auth, receiver, TRADER.national_id)
    moved = replace(TRADER, city="Nitra")
    load_companies(engine, moved)  # the city changes: a delivery about the trader waits
    assert any(TRADER.national_id in b for b in _queued(engine))

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", f"SK:{TRADER.national_id}")
    with engine.connect() as conn:
        states = conn.execute(select(deliveries.c.status, deliveries.c.last_error)).all()
    assert states and all(s == "cancelled" and "data-protection" in str(e) for s, e in states)

    worker = make_worker()
    for _ in range(3):
        asyncio.run(worker.run_once())
    assert receiver.received == []
    assert json.loads(cli("lift", f"c:SK:{TRADER.national_id}"))["rows"] >= 3
    with engine.connect() as conn:
        assert {s for (s,) in conn.execute(select(deliveries.c.status))} == {"cancelled"}


def test_a_failed_delivery_resumed_after_the_withholding_goes_out_without_them(
    client,
    auth,
    engine,
    cli,  # noqa: F811
    receiver,  # noqa: F811
    make_worker,  # noqa: F811
):
    """A delivery that had failed for good is not delivered: a resume with `retry_failed` would send the body
    it kept, so it is redacted too."""
    from sqlalchemy import update

    load_companies(engine, _company(JANA))
    sub = _hook(client, auth, receiver, "35757442")
    load_companies(engine, _company(JANA, PETER))
    with engine.begin() as conn:  # as the worker leaves it once its retries are spent
        conn.execute(update(deliveries).values(status="failed", attempts=3))
    request_id = _file_request(client, engine, kind="erase")
    key = person_key(JANA.name, JANA.birth_date, JANA.nationality)
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{key}")

    resumed = client.post(f"{HOOKS}/{sub['id']}/resume", json={"retry_failed": True}, headers=auth)
    assert resumed.status_code == 200, resumed.text
    drain(make_worker(), lambda: len(receiver.received) >= 1)
    sent = "\n".join(r.body.decode() for r in receiver.received)
    assert JANA.name not in sent and PETER.name in sent
