"""`regintel worker` as a real process: SIGKILL in the middle of a batch loses nothing (at least once;
the duplicates carry the same `webhook-id`), and SIGTERM stops it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from regintel.db.schema import deliveries
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.jobs.support import valid_icos

pytestmark = pytest.mark.slow
COMPANIES = 20


def start_worker(settings, tmp_path: Path, name: str) -> subprocess.Popen:  # type: ignore[type-arg]
    env = os.environ | {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(tmp_path / "data"),
        "REGINTEL_ALLOW_PRIVATE_WEBHOOKS": "1",
        "REGINTEL_WEBHOOK_TIMEOUT_SECONDS": "1",
        "REGINTEL_WEBHOOK_CONCURRENCY": "8",
        "REGINTEL_WORKER_POLL_SECONDS": "0.1",
        "REGINTEL_WEBHOOK_RETRY_SCHEDULE": "[0.2, 0.2, 0.2]",
    }
    log = open(tmp_path / f"{name}.log", "w")
    return subprocess.Popen([sys.executable, "-m", "regintel", "worker"], env=env, stdout=log, stderr=log)


def statuses(engine) -> dict[str, int]:  # type: ignore[no-untyped-def]
    with engine.connect() as conn:
        return dict(
            conn.execute(select(deliveries.c.status, func.count()).group_by(deliveries.c.status)).all()
        )


def wait(condition, timeout: float) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_sigkill_mid_batch_then_restart_loses_nothing(client, auth, engine, settings, receiver, tmp_path):
    icos = valid_icos(COMPANIES)
    load_companies(
        engine, *(CompanyRecord(country="SK", national_id=i, name=f"Firma {i} s.r.o.") for i in icos)
    )
    ops = [{"action": "create", "ico": i, "webhook_url": receiver.url(f"/{i}")} for i in icos]
    created = assert_envelope(
        client.post("/api/v1/monitoring/subscriptions/bulk", json={"operations": ops}, headers=auth)
    )
    for item in created["results"]:
        receiver.secrets[f"/{item['data']['ico']}"] = item["data"]["secret"]
    load_companies(
        engine,
        *(
            CompanyRecord(country="SK", national_id=i, name=f"Firma {i} s.r.o.", in_bankruptcy=True)
            for i in icos
        ),
    )
    with engine.connect() as conn:
        expected = set(conn.execute(select(deliveries.c.message_id)).scalars())
    assert len(expected) == COMPANIES

    receiver.delay = 0.5  # answers come late: the first batch is in flight when the worker dies
    first = start_worker(settings, tmp_path, "first")
    wait(lambda: len(receiver.received) >= 3, 20)
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    assert statuses(engine).get("delivering", 0) > 0  # claimed, sent, never recorded

    second = start_worker(settings, tmp_path, "second")
    try:
        wait(lambda: statuses(engine) == {"succeeded": COMPANIES}, 40)
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(15) == 0
    got = receiver.received
    assert {r.message_id for r in got} == expected  # every event arrived
    assert len(got) > len(expected)  # the interrupted batch came twice, with the same webhook-id
    unverified = [(r.path, r.error, len(r.body)) for r in got if not r.verified]
    assert not unverified
    assert {r.path: r.json["to"] for r in got} == {f"/{i}": True for i in icos}
    assert "Worker stopped" in (tmp_path / "second.log").read_text()
