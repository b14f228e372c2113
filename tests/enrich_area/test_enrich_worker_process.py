"""An enrichment job in `regintel worker` as a real process: SIGKILL mid-job, then a restarted worker
takes the job over once its lease ran out; the result is complete, in order, without duplicates."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select, update

from regintel.areas.enrich.tables import enrich_results
from regintel.db.schema import jobs
from tests.api import companies_fixture
from tests.helpers import assert_envelope

pytestmark = pytest.mark.slow
TOTAL = 12_000


def start_worker(settings, tmp_path: Path, name: str) -> subprocess.Popen:  # type: ignore[type-arg]
    env = os.environ | {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(settings.data_dir),
        "REGINTEL_WORKER_POLL_SECONDS": "0.1",
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    log = open(tmp_path / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
    return subprocess.Popen([sys.executable, "-m", "regintel", "worker"], env=env, stdout=log, stderr=log)


def written(engine, job_id: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        return tuple(
            conn.execute(
                select(func.count(), func.count(func.distinct(enrich_results.c.idx))).where(
                    enrich_results.c.job_id == job_id
                )
            ).one()
        )  # type: ignore[return-value]


def wait(condition, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_sigkill_mid_job_then_a_restarted_worker_completes_it(client, auth, engine, settings, tmp_path):
    companies_fixture.load(engine)
    ids = [f"{n:08d}" for n in range(TOTAL - 2)] + ["31322832", {"country": "cz", "id": "00177041"}]
    job = assert_envelope(client.post("/api/v1/enrich/jobs", json={"identifiers": ids}, headers=auth), 202)
    first = start_worker(settings, tmp_path, "first")
    try:
        wait(lambda: written(engine, job["id"])[0] >= 1_500, 120, "a first part of the answers")
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    count, distinct = written(engine, job["id"])
    assert count == distinct and count < TOTAL and count % 500 == 0  # whole chunks only
    status = assert_envelope(client.get(f"/api/v1/enrich/jobs/{job['id']}", headers=auth))
    assert status["status"] == "running" and status["processed"] == count
    with engine.begin() as conn:  # the dead worker's lease runs out (10 minutes in real time)
        conn.execute(
            update(jobs)
            .where(jobs.c.id == job["id"])
            .values(lease_until=datetime.now(UTC) - timedelta(seconds=1))
        )
    second = start_worker(settings, tmp_path, "second")
    try:
        wait(
            lambda: (
                assert_envelope(client.get(f"/api/v1/enrich/jobs/{job['id']}", headers=auth))["status"]
                == "done"
            ),
            180,
            "the job to finish",
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)
    done = assert_envelope(client.get(f"/api/v1/enrich/jobs/{job['id']}", headers=auth))
    assert (done["processed"], done["attempts"], done["counts"]["found"]) == (TOTAL, 2, 3)  # 00000006 is GB's
    assert written(engine, job["id"]) == (TOTAL, TOTAL)
    resp = client.get(f"/api/v1/enrich/jobs/{job['id']}/result", headers=auth)
    answers = [json.loads(line) for line in resp.text.splitlines()]
    assert [a["index"] for a in answers] == list(range(TOTAL))
    assert answers[-1]["company"]["name"] == "ŠKODA AUTO a.s."


def test_a_csv_job_with_names_survives_sigkill(client, auth, engine, settings, tmp_path):
    companies_fixture.load(engine)
    rows = ["ico;name;city"] + [f"{n:08d};;" if n % 7 else ";SLOVNAFT, a.s.;Bratislava" for n in range(7_000)]
    names = sum(1 for n in range(7_000) if not n % 7)
    content = ("\ufeff" + "\r\n".join(rows) + "\r\n").encode()
    job = assert_envelope(
        client.post("/api/v1/enrich/jobs", files={"file": ("list.csv", content, "text/csv")}, headers=auth),
        202,
    )
    first = start_worker(settings, tmp_path, "first")
    try:
        wait(lambda: written(engine, job["id"])[0] >= 1_000, 120, "a first part of the answers")
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    count, distinct = written(engine, job["id"])
    assert count == distinct and count < 7_000 and count % 500 == 0
    with engine.begin() as conn:
        conn.execute(
            update(jobs)
            .where(jobs.c.id == job["id"])
            .values(lease_until=datetime.now(UTC) - timedelta(seconds=1))
        )
    second = start_worker(settings, tmp_path, "second")
    try:
        wait(
            lambda: (
                assert_envelope(client.get(f"/api/v1/enrich/jobs/{job['id']}", headers=auth))["status"]
                == "done"
            ),
            240,
            "the job to finish",
        )
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(30)
    done = assert_envelope(client.get(f"/api/v1/enrich/jobs/{job['id']}", headers=auth))
    assert (done["processed"], done["attempts"], done["counts"]["found"]) == (7_000, 2, names + 1), (
        done
    )  # + 00000006 (GB)
    assert written(engine, job["id"]) == (7_000, 7_000)
    resp = client.get(f"/api/v1/enrich/jobs/{job['id']}/result", headers=auth)
    answers = [json.loads(line) for line in resp.text.splitlines()]
    assert [a["index"] for a in answers] == list(range(7_000))
    by_name = [a for a in answers if isinstance(a["input"], dict)]
    assert len(by_name) == names and {a["company"]["nationalId"] for a in by_name} == {"31322832"}
