"""A company an import adds or renames is screened by the job the import queued
(`screening.changed_companies`, run by the worker `regintel worker` runs), so the credit score's sanctions
factor moves from "not screened" to the screening's answer without waiting for the next list import. One
job waits at a time."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from regintel.areas.screening.hits import refresh_company_hits
from regintel.db.jobs import SCREEN_CHANGED, enqueue
from regintel.db.schema import jobs
from regintel.jobs.worker import Worker
from tests.builders import load_companies
from tests.scores.test_sanctions_factor import CLEAN, CUBA, LATE, record
from tests.screening.support import load_lists

NEW = ("SK", "35757442")


def screening_jobs(engine):
    with engine.connect() as conn:
        rows = conn.execute(
            select(jobs.c.status, jobs.c.payload, jobs.c.result).where(jobs.c.kind == SCREEN_CHANGED)
        )
        return [tuple(r) for r in rows]


def run_worker(engine, settings):
    worker = Worker(engine, settings)
    for _ in range(20):
        if not any(status in ("queued", "running") for status, _, _ in screening_jobs(engine)):
            return
        asyncio.run(worker.run_once())
    raise AssertionError(f"screening jobs not done: {screening_jobs(engine)}")


def sanctions(client, auth, key):
    body = client.get(f"/api/v1/companies/{key[1]}/credit-score", params={"country": key[0]}, headers=auth)
    assert body.status_code == 200, body.text
    data = body.json()["data"]
    return data, next(f for f in data["factors"] if f["code"] == "sanctions")


@pytest.fixture
def listed(engine):
    """The lists imported and every company then in the database screened, as after a list import."""
    load_companies(engine, record(CLEAN, "Tatra Pekáreň s.r.o."))
    load_lists(engine)
    refresh_company_hits(engine)
    return engine


def test_an_import_queues_one_screening_and_the_worker_screens_the_new_companies(
    client, auth, listed, settings
):
    load_companies(listed, record(LATE, "Zelená Lúka s.r.o."))
    load_companies(listed, record(NEW, "Horský Potok a.s."))
    waiting = screening_jobs(listed)
    # the second import found the first one's job waiting: one job, from the first import's change rows
    assert [status for status, _, _ in waiting] == ["queued"]
    for key in (LATE, NEW):
        body, f = sanctions(client, auth, key)
        assert (f["available"], f["note"]) == (False, "not screened since imported")
        assert "sanctions.sanctions_screening" in body["missing_inputs"]
    before = sanctions(client, auth, LATE)[0]["confidence"]

    run_worker(listed, settings)

    [(status, _, result)] = screening_jobs(listed)
    # CLEAN's own creation is read again too (SLACK), and the list screening began within IN_FLIGHT of it
    assert status == "done" and result["companies"] == 3
    for key in (LATE, NEW):
        body, f = sanctions(client, auth, key)
        assert (f["available"], f["value"], f["points"], f["note"]) == (True, 0, 5.0, "screened: no hit")
        assert "sanctions.sanctions_screening" not in body["missing_inputs"]
    assert sanctions(client, auth, LATE)[0]["confidence"] == pytest.approx(before + 0.05)


def test_a_rename_is_screened_again(client, auth, listed, settings):
    load_companies(listed, record(CUBA, "Kamenný Most s.r.o."))
    run_worker(listed, settings)
    assert sanctions(client, auth, CUBA)[1]["points"] == 5.0
    # the company now bears the name of an OFAC-listed bank: a name match once its screening ran
    load_companies(listed, record(CUBA, "BANCO NACIONAL DE CUBA, a.s."))
    assert sanctions(client, auth, CUBA)[1]["points"] == 5.0  # the last screening, until the job runs
    run_worker(listed, settings)
    _, f = sanctions(client, auth, CUBA)
    names = [e["value"] for e in f["evidence"] if e["input"] == "name_match"]
    assert (f["points"], f["note"] is not None) == (2.5, True)
    assert names and all(n.startswith("sanctions_ofac:") for n in names)


def test_a_reimport_that_changes_nothing_queues_nothing(listed, settings):
    load_companies(listed, record(LATE, "Zelená Lúka s.r.o."))
    run_worker(listed, settings)
    done = screening_jobs(listed)
    load_companies(listed, record(LATE, "Zelená Lúka s.r.o."))
    # a change the screening does not read (the headcount) queues nothing either
    rec = record(LATE, "Zelená Lúka s.r.o.")
    load_companies(listed, replace(rec, employees=57))
    assert screening_jobs(listed) == done


def test_without_a_list_nothing_is_queued_until_the_list_import_screens_everyone(client, auth, engine):
    load_companies(engine, record(LATE, "Zelená Lúka s.r.o."))
    assert screening_jobs(engine) == []
    _, f = sanctions(client, auth, LATE)
    assert (f["available"], f["note"]) == (False, "not screened since imported")
    load_lists(engine)
    refresh_company_hits(engine)  # the job the list import queued (screening.company_hits)
    assert sanctions(client, auth, LATE)[1]["note"] == "screened: no hit"


def test_a_job_that_finds_no_list_screens_nothing(engine, settings):
    load_companies(engine, record(LATE, "Zelená Lúka s.r.o."))
    with engine.begin() as conn:
        enqueue(conn, SCREEN_CHANGED, {"from_change": 1}, now=datetime.now(UTC), dedupe_key=SCREEN_CHANGED)
    run_worker(engine, settings)
    [(status, _, result)] = screening_jobs(engine)
    assert (status, result["companies"], result["reason"]) == ("done", 0, "no sanctions list")


def test_a_bad_payload_fails_at_once(engine, settings):
    with engine.begin() as conn:
        enqueue(conn, SCREEN_CHANGED, {"from_change": "x"}, now=datetime.now(UTC), max_attempts=5)
    asyncio.run(Worker(engine, settings).run_once())
    [(status, _, _)] = screening_jobs(engine)
    assert status == "failed"
