"""The periodic re-check (job `security.recheck`, `python -m regintel.areas.security recheck`): checks older
than the configured age are queued again, fresh ones and hosts no register publishes any more are not; a
queued re-check then runs for real against a loopback host."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from regintel.areas.security import queries
from regintel.areas.security.service import RECHECK_JOB
from regintel.db import jobs as jobs_db
from regintel.db.schema import jobs
from regintel.jobs.runner import LEASE, run_one
from tests.security.conftest import add_domain, drain, job_settings
from tests.security.servers import well_configured
from tests.security.test_posture import https_site


def store(engine, host, hours_ago, score=80):
    with engine.begin() as conn:
        queries.save_check(
            conn,
            {
                "host": host,
                "status": "done",
                "score": score,
                "findings": [],
                "facts": {},
                "error": None,
                "checked_at": datetime.now(UTC) - timedelta(hours=hours_ago),
                "duration_ms": 5,
            },
            [],
        )


def queue_recheck(engine, payload):
    with engine.begin() as conn:
        return jobs_db.enqueue(conn, RECHECK_JOB, payload, now=datetime.now(UTC))


def run_recheck(engine, settings):
    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        claimed = jobs_db.claim(conn, "w", 10, datetime.now(UTC), LEASE, kinds=[RECHECK_JOB])
    for job in claimed:
        run_one(engine, settings, "w", job)
    return len(claimed)


def queued(engine, kind="security.check"):
    with engine.connect() as conn:
        return conn.execute(
            select(jobs.c.payload, jobs.c.priority, jobs.c.run_after, jobs.c.status)
            .where(jobs.c.kind == kind)
            .order_by(jobs.c.id)
        ).all()


@pytest.fixture
def hosts(engine, company):
    old, fresh = add_domain(engine, "www.stara-kontrola.test"), add_domain(engine, "www.cerstva.test")
    store(engine, old, 200)
    store(engine, fresh, 2)
    store(engine, "www.uz-nie.test", 500)  # checked once, no register publishes it any more
    return old, fresh


def test_stale_checks_are_queued_again(engine, settings, hosts):
    old, _ = hosts
    queue_recheck(engine, {})
    assert run_recheck(engine, settings) == 1
    assert [(p, prio) for p, prio, _, _ in queued(engine)] == [({"host": old}, 300)]
    [(_, _, _, status)] = queued(engine, RECHECK_JOB)
    assert status == "done"


def test_configured_age_and_the_default_from_settings(engine, settings, hosts):
    old, fresh = hosts
    queue_recheck(engine, {"max_age_hours": 1})
    run_recheck(engine, settings)
    assert sorted(p["host"] for p, *_ in queued(engine)) == sorted([old, fresh])
    run_recheck(engine, settings.model_copy(update={"security_max_age_hours": 1000}))  # nothing queued
    assert run_recheck(engine, settings) == 0


def test_periodic_recheck_queues_itself_and_is_deduplicated(engine, settings, hosts):
    queue_recheck(engine, {"every_hours": 24})
    started = datetime.now(UTC)
    run_recheck(engine, settings)
    rows = queued(engine, RECHECK_JOB)
    assert [r.status for r in rows] == ["done", "queued"]
    nxt = rows[1].run_after if rows[1].run_after.tzinfo else rows[1].run_after.replace(tzinfo=UTC)
    assert timedelta(hours=23, minutes=59) < nxt - started < timedelta(hours=24, minutes=1)
    assert run_recheck(engine, settings) == 0  # not due yet
    queue_recheck(engine, {})
    run_recheck(engine, settings)
    assert len(queued(engine)) == 1  # the stale host's check, queued once (deduplicated while queued)


def test_a_full_batch_continues(engine, settings, hosts, monkeypatch):
    from regintel.areas.security import service

    monkeypatch.setattr(service, "RECHECK_BATCH", 1)
    queue_recheck(engine, {"max_age_hours": 1})
    run_recheck(engine, settings)
    assert len(queued(engine)) == 1 and [r.status for r in queued(engine, RECHECK_JOB)] == ["done", "queued"]


@pytest.mark.parametrize(
    "payload", [{"max_age_hours": 0}, {"every_hours": "24"}, {"every_hours": True}, {"max_age_hours": 10**6}]
)
def test_bad_payload_fails_the_job_without_queueing(engine, settings, hosts, payload):
    queue_recheck(engine, payload)
    run_recheck(engine, settings)
    assert queued(engine) == [] and queued(engine, RECHECK_JOB)[0].status == "failed"


def test_the_queued_recheck_runs_for_real(
    client, auth, engine, settings, company, dns_server, authority, web
):
    host = add_domain(engine, "www.obnova.test")
    store(engine, host, 300, score=10)
    well_configured(dns_server, "obnova.test", host)
    https, http = https_site(web, authority, host)
    queue_recheck(engine, {})
    run_recheck(engine, settings)
    assert (
        drain(
            engine, job_settings(settings, dns_server=dns_server, https=https, http=http, authority=authority)
        )
        == 1
    )
    view = client.get("/api/v1/companies/36000001/security", headers=auth).json()["data"]
    assert view["score"] == 100 and view["domains"][0]["recheck_queued"] is False


def test_queue_command(engine, settings, monkeypatch, capsys):
    from regintel.areas.security.__main__ import main

    monkeypatch.setenv("REGINTEL_DATABASE_URL", settings.database_url)
    assert main(["recheck", "24", "72"]) == 0 and "queued security.recheck job" in capsys.readouterr().out
    assert main(["recheck", "24"]) == 0 and "already queued" in capsys.readouterr().out
    assert main(["recheck", "0"]) == 2 and main(["check"]) == 2 and main(["recheck", "1", "2", "3"]) == 2
    assert [p for p, *_ in queued(engine, RECHECK_JOB)] == [{"every_hours": 24, "max_age_hours": 72}]
