"""Helpers of the worker tests: run the worker until a condition holds, subscribe a receiver."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from regintel.domain.identifiers import is_valid_national_id
from regintel.jobs.worker import Worker
from tests.helpers import assert_envelope
from tests.webhook_receiver import Receiver

FAST = {"webhook_retry_schedule": [0.05, 0.05, 0.05], "webhook_timeout_seconds": 2.0}


def drain(worker: Worker, until: Callable[[], bool], timeout: float = 10.0) -> None:
    """Run the worker's passes until `until()` holds (retries become due after their delay)."""
    deadline = time.monotonic() + timeout
    while True:
        asyncio.run(worker.run_once())
        if until():
            return
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.02)


def valid_icos(count: int, start: int = 3_100_000) -> list[str]:
    """`count` well-formed Slovak IČOs (mod-11 check digit)."""
    out: list[str] = []
    base = start
    while len(out) < count:
        out += [f"{base:07d}{d}" for d in range(10) if is_valid_national_id("SK", f"{base:07d}{d}")][:1]
        base += 1
    return out


def subscribe(
    client: Any, auth: dict[str, str], receiver: Receiver, path: str = "/hook", ico: str = "31322832"
) -> dict[str, Any]:
    """A monitoring subscription to the receiver, whose secret the receiver then verifies with."""
    sub = assert_envelope(
        client.post(
            "/api/v1/monitoring/subscriptions",
            json={"ico": ico, "webhook_url": receiver.url(path)},
            headers=auth,
        ),
        201,
    )
    receiver.secrets[path] = sub["secret"]
    return sub  # type: ignore[no-any-return]
