"""`/api/v1/enrich/jobs` through HTTP with the real worker's job runner: create, follow, read the result
(JSON lines and CSV), key isolation, resume after a run that died, and the edges."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from sqlalchemy import func, select

from regintel.areas.enrich import jobs as enrich_jobs
from regintel.areas.enrich.service import MAX_IDENTIFIERS
from regintel.areas.enrich.tables import enrich_results
from regintel.jobs.registry import JobContext
from regintel.jobs.runner import run_due
from tests.api import companies_fixture
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/enrich/jobs"
IDS = ["31322832", {"country": "cz", "id": "00177041"}, "12345678", "00000000", "35 757 442", "Žilina"]


@pytest.fixture
def data(engine):
    companies_fixture.load(engine)


def lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def create(client, auth, ids: list[Any], **body: Any) -> dict[str, Any]:
    resp = client.post(URL, json={"identifiers": ids, **body}, headers=auth)
    job = assert_envelope(resp, 202)
    assert resp.headers["location"] == f"{URL}/{job['id']}"
    return job  # type: ignore[no-any-return]


def test_a_job_from_queue_to_result(client, auth, engine, settings, data):
    job = create(client, auth, IDS)
    assert (job["status"], job["total"], job["processed"], job["resultUrl"]) == ("queued", 6, 0, None)
    assert_error(client.get(f"{URL}/{job['id']}/result", headers=auth), 409, "CONFLICT")
    assert run_due(engine, settings, "test-worker") >= 1  # other areas may queue jobs of their own
    done = assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))
    assert (done["status"], done["processed"], done["progress"], done["attempts"]) == ("done", 6, 1.0, 1)
    assert done["counts"] == {"found": 3, "not_found": 2, "invalid": 1, "ambiguous": 0}
    assert done["resultUrl"] == f"{URL}/{job['id']}/result" and done["finishedAt"]
    resp = client.get(done["resultUrl"], headers=auth)
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/x-ndjson"
    answers = lines(resp.text)
    assert [(a["index"], a["status"]) for a in answers] == [
        (0, "found"),
        (1, "found"),
        (2, "not_found"),
        (3, "not_found"),
        (4, "found"),
        (5, "invalid"),
    ]
    bulk = assert_envelope(client.post("/api/v1/companies/bulk", json={"identifiers": IDS}, headers=auth))
    assert answers == bulk  # the same answers as the synchronous batch lookup
    assert answers[1]["company"]["name"] == "ŠKODA AUTO a.s."


def test_result_as_csv(client, auth, engine, settings, data):
    job = create(client, auth, ["31322832", "27082440"], country="CZ")
    run_due(engine, settings, "test-worker")
    resp = client.get(f"{URL}/{job['id']}/result", params={"format": "csv"}, headers=auth)
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    assert [(r["index"], r["status"], r["country"], r["name"], r["inRestructuring"]) for r in rows] == [
        ("0", "not_found", "", "", ""),
        ("1", "found", "CZ", '\'=HYPERLINK("http://x") s.r.o.', "true"),
    ]


def test_only_the_creating_key_sees_a_job(client, auth, make_key, engine, settings, data):
    job = create(client, auth, ["31322832"])
    run_due(engine, settings, "test-worker")
    other = {"Authorization": f"Bearer {make_key('business', name='other')}"}
    assert_error(client.get(f"{URL}/{job['id']}", headers=other), 404, "NOT_FOUND")
    assert_error(client.get(f"{URL}/{job['id']}/result", headers=other), 404, "NOT_FOUND")
    assert_error(client.get(f"{URL}/{job['id']}"), 401, "UNAUTHORIZED")
    assert_error(client.post(URL, json={"identifiers": ["31322832"]}), 401, "UNAUTHORIZED")


def test_a_job_taken_over_after_a_dead_run_is_complete_without_duplicates(
    client, auth, engine, settings, data, monkeypatch
):
    ids = [f"{n:08d}" for n in range(1, 23)] + ["31322832"]
    job = create(client, auth, ids)
    monkeypatch.setattr(enrich_jobs, "CHUNK", 5)
    calls = {"n": 0}
    real_bulk = enrich_jobs.lookup_svc.bulk

    def dying_bulk(*args: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:
            raise SystemExit("worker killed")  # the process dies mid-job: two chunks are written
        return real_bulk(*args)

    monkeypatch.setattr(enrich_jobs.lookup_svc, "bulk", dying_bulk)
    payload = {"identifiers": ids, "country": None}
    with pytest.raises(SystemExit):
        enrich_jobs.enrich_lookup(JobContext(engine, settings, job["id"], 1), payload)
    half = assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))
    assert half["processed"] == 10
    result = enrich_jobs.enrich_lookup(JobContext(engine, settings, job["id"], 2), payload)
    expected = assert_envelope(
        client.post("/api/v1/companies/bulk", json={"identifiers": ids[:20]}, headers=auth)
    )
    expected += assert_envelope(
        client.post("/api/v1/companies/bulk", json={"identifiers": ids[20:]}, headers=auth)
    )
    assert result["total"] == 23 and sum(result["counts"].values()) == 23
    assert result["counts"]["found"] == sum(a["status"] == "found" for a in expected) == 2
    with engine.connect() as conn:
        stored = conn.execute(
            select(func.count(), func.count(func.distinct(enrich_results.c.idx))).where(
                enrich_results.c.job_id == job["id"]
            )
        ).one()
    assert tuple(stored) == (23, 23)
    with engine.connect() as conn:
        bodies = [
            r.body
            for r in conn.execute(
                select(enrich_results.c.body)
                .where(enrich_results.c.job_id == job["id"])
                .order_by(enrich_results.c.idx)
            )
        ]
    assert bodies == expected[:20] + [a | {"index": a["index"] + 20} for a in expected[20:]]
    # a third run (a second worker that took the lease over late) writes nothing twice
    enrich_jobs.enrich_lookup(JobContext(engine, settings, job["id"], 3), payload)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).where(enrich_results.c.job_id == job["id"])).scalar() == 23


@pytest.mark.parametrize(
    "body",
    [
        {"identifiers": []},
        {"identifiers": ["1"] * (MAX_IDENTIFIERS + 1)},
        {"identifiers": [31322832]},
        {"identifiers": ["x" * 65]},
        {"identifiers": [""]},
        {"identifiers": [{"id": "1", "cc": "sk"}]},
        {"identifiers": [["31322832"]]},
        {"identifiers": ["31322832"], "country": "svk"},
        {"identifiers": ["31322832"], "sections": ["all"]},
        {},
    ],
)
def test_bad_bodies(client, auth, body):
    assert_error(client.post(URL, json=body, headers=auth), 422, "VALIDATION_ERROR")


def test_unknown_jobs_and_bad_ids(client, auth):
    assert_error(client.get(f"{URL}/999999", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(f"{URL}/999999/result", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(f"{URL}/0", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{URL}/abc", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get(f"{URL}/1/result", params={"format": "xml"}, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(client.get(f"{URL}/1", params={"verbose": 1}, headers=auth), 422, "VALIDATION_ERROR")


def test_a_country_for_bare_identifiers_and_an_unknown_country(client, auth, engine, settings, data):
    job = create(client, auth, ["00177041"], country="cz")
    assert job["country"] == "CZ"
    run_due(engine, settings, "test-worker")
    assert assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))["counts"]["found"] == 1
    assert_error(
        client.post(URL, json={"identifiers": ["1"], "country": "xx"}, headers=auth), 422, "VALIDATION_ERROR"
    )
