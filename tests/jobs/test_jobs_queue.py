"""The jobs table: queued in the caller's transaction, deduplicated, claimed once, retried, failed."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Engine

from regintel.config import Settings
from regintel.db import jobs as db
from regintel.jobs import registry
from regintel.jobs.runner import run_due

CALLS: list[Mapping[str, Any]] = []


@registry.job_handler("test.echo")
def _echo(ctx: registry.JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    CALLS.append(payload)
    if payload.get("fail") == "permanent":
        raise registry.Permanent("bad payload")
    if payload.get("fail"):
        raise RuntimeError("flaky")
    return {"echo": payload["n"], "attempt": ctx.attempt}


@pytest.fixture(autouse=True)
def _clear() -> None:
    CALLS.clear()


def _now() -> datetime:
    return datetime.now(UTC)


def test_queued_job_runs_once_and_keeps_its_result(engine: Engine, settings: Settings) -> None:
    with engine.begin() as conn:
        job_id = db.enqueue(conn, "test.echo", {"n": 7}, now=_now())
    assert run_due(engine, settings, "w1") == 1
    assert run_due(engine, settings, "w1") == 0
    with engine.connect() as conn:
        job = db.get(conn, job_id)  # type: ignore[arg-type]
    assert job is not None and job["status"] == "done" and job["result"] == {"echo": 7, "attempt": 1}
    assert CALLS == [{"n": 7}]


def test_rolled_back_change_queues_nothing(engine: Engine, settings: Settings) -> None:
    with pytest.raises(RuntimeError), engine.begin() as conn:
        db.enqueue(conn, "test.echo", {"n": 1}, now=_now())
        raise RuntimeError("the change failed")
    assert run_due(engine, settings, "w1") == 0


def test_dedupe_key_queues_one_job_until_it_runs(engine: Engine, settings: Settings) -> None:
    with engine.begin() as conn:
        first = db.enqueue(conn, "test.echo", {"n": 1}, now=_now(), dedupe_key="index")
        second = db.enqueue(conn, "test.echo", {"n": 2}, now=_now(), dedupe_key="index")
    assert first is not None and second is None
    run_due(engine, settings, "w1")
    with engine.begin() as conn:
        assert db.enqueue(conn, "test.echo", {"n": 3}, now=_now(), dedupe_key="index") is not None


def test_failures_retry_with_backoff_then_fail(engine: Engine, settings: Settings) -> None:
    with engine.begin() as conn:
        flaky = db.enqueue(conn, "test.echo", {"n": 1, "fail": True}, now=_now(), max_attempts=2)
        bad = db.enqueue(conn, "test.echo", {"n": 2, "fail": "permanent"}, now=_now())
    assert run_due(engine, settings, "w1") == 2
    with engine.connect() as conn:
        assert db.get(conn, bad)["status"] == "failed"  # type: ignore[arg-type,index]
        retry = db.get(conn, flaky)  # type: ignore[arg-type]
    assert retry is not None and retry["status"] == "queued" and "flaky" in retry["last_error"]
    assert run_due(engine, settings, "w1") == 0  # not due before its back-off
    with engine.begin() as conn:  # time passes
        conn.execute(db.jobs.update().values(run_after=_now() - timedelta(seconds=1)))
    assert run_due(engine, settings, "w1") == 1
    with engine.connect() as conn:
        assert db.get(conn, flaky)["status"] == "failed"  # type: ignore[arg-type,index]
        assert db.counts(conn) == {"failed": 2}


def test_expired_lease_is_claimed_again(engine: Engine) -> None:
    with engine.begin() as conn:
        db.enqueue(conn, "test.echo", {"n": 1}, now=_now())
        first = db.claim(conn, "dead-worker", 5, _now(), timedelta(seconds=-1))
        again = db.claim(conn, "w2", 5, _now(), timedelta(minutes=1))
        none = db.claim(conn, "w3", 5, _now(), timedelta(minutes=1))
    assert [r["id"] for r in first] == [r["id"] for r in again] and not none
    assert again[0]["attempts"] == 2
