"""`regintel worker`: deliver the webhook outbox and the e-mail outbox, at least once; run the jobs
table (`jobs/runner.py`); keep the statistics snapshots current.

A pipeline, not lock-step batches, so that one slow or dead receiver never holds up the others: up to
`webhook_concurrency` attempts are in flight; free slots are refilled by claiming due deliveries
(leases); finished attempts are recorded in small groups. Database calls run in threads, off the
event loop. SIGTERM/SIGINT stop claiming and finish what is in flight; a worker killed outright
leaves its leases to expire, and those deliveries are attempted again (receivers drop duplicates by
`webhook-id`). PostgreSQL: run as many workers as needed; SQLite: run one. Beside the deliveries, a
second loop recomputes the statistics snapshots when the data moved (`jobs.stats_refresh`); it may
take minutes on a large database, so it never holds up a delivery.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import time
import uuid
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from regintel.config import Settings
from regintel.db.deliveries import Outcome, claim_deliveries, record_outcomes
from regintel.db.engine import begin_write, upsert
from regintel.db.schema import worker_heartbeats
from regintel.jobs.deliveries import attempt, make_client
from regintel.jobs.emails import send_due_mails
from regintel.jobs.runner import run_due
from regintel.jobs.stats_refresh import StatsRefresher

log = logging.getLogger("regintel.worker")
HEARTBEAT_EVERY = timedelta(seconds=10)
RECORD_EVERY = 0.1  # seconds an outcome may wait to be recorded with others


class Worker:
    def __init__(self, engine: Engine, settings: Settings, worker_id: str | None = None):
        self.engine = engine
        self.settings = settings
        self.id = worker_id or f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.started_at = datetime.now(UTC)
        self._last_beat: datetime | None = None
        # A claimed delivery is offered again once this is over: one attempt, its recording, and margin.
        self.lease = timedelta(seconds=settings.webhook_timeout_seconds + 5)
        self.stats = StatsRefresher(engine)

    def heartbeat(self, force: bool = False) -> None:
        now = datetime.now(UTC)
        if not force and self._last_beat is not None and now - self._last_beat < HEARTBEAT_EVERY:
            return
        with begin_write(self.engine) as conn:
            upsert(
                conn,
                worker_heartbeats,
                [
                    {
                        "worker_id": self.id,
                        "hostname": socket.gethostname(),
                        "pid": os.getpid(),
                        "started_at": self.started_at,
                        "beat_at": now,
                    }
                ],
                keys=["worker_id"],
                update=["beat_at"],
            )
        self._last_beat = now

    def _claim(self, limit: int) -> list[dict[str, object]]:
        with begin_write(self.engine) as conn:
            return [dict(r) for r in claim_deliveries(conn, self.id, limit, datetime.now(UTC), self.lease)]

    def _record(self, outcomes: list[Outcome]) -> None:
        with begin_write(self.engine) as conn:
            paused = record_outcomes(
                conn, outcomes, self.id, self.settings.webhook_retry_schedule, datetime.now(UTC)
            )
        failed = sum(1 for o in outcomes if not o.ok)
        log.info(
            "Recorded attempts worker=%s attempts=%d failed=%d paused=%d",
            self.id,
            len(outcomes),
            failed,
            paused,
        )

    async def deliver(self, client: httpx.AsyncClient, stop: asyncio.Event) -> int:
        """Deliver until nothing is due and nothing is in flight (or `stop` is set). Returns attempts."""
        size = self.settings.webhook_concurrency
        inflight: set[asyncio.Task[Outcome]] = set()
        done: list[Outcome] = []
        total, last_record, exhausted = 0, time.monotonic(), False
        while True:
            if not stop.is_set() and not exhausted and size - len(inflight) >= max(1, size // 4):
                rows = await asyncio.to_thread(self._claim, size - len(inflight))
                exhausted = not rows
                inflight |= {asyncio.create_task(attempt(client, row, self.settings)) for row in rows}
            if inflight:
                finished, inflight = await asyncio.wait(
                    inflight, timeout=RECORD_EVERY, return_when=asyncio.FIRST_COMPLETED
                )
                done += [task.result() for task in finished]
            if done and (not inflight or time.monotonic() - last_record >= RECORD_EVERY or len(done) >= size):
                await asyncio.to_thread(self._record, done)
                total, done, last_record = total + len(done), [], time.monotonic()
                exhausted = False  # recorded deliveries may unblock the next of their subscription
            if not inflight and not done and (exhausted or stop.is_set()):
                return total

    async def run_once(self) -> int:
        """Deliver what is due now, then send due e-mails. Returns the work done (tests, `--once`)."""
        self.heartbeat()
        async with make_client(self.settings) as client:
            done = await self.deliver(client, asyncio.Event())
        done += await asyncio.to_thread(send_due_mails, self.engine, self.settings)
        while ran := await asyncio.to_thread(run_due, self.engine, self.settings, self.id):
            done += ran
        return done

    async def keep_stats(self, stop: asyncio.Event) -> None:
        """Until `stop` is set: refresh the statistics snapshots when the data moved and held still."""
        while not stop.is_set():
            try:
                written = await asyncio.to_thread(self.stats.poll, stop.is_set)
                if written:
                    log.info("Refreshed statistics snapshots worker=%s snapshots=%d", self.id, len(written))
            except SQLAlchemyError:
                log.exception(
                    "Database error refreshing statistics; retrying in %s s", self.settings.stats_poll_seconds
                )
            try:
                await asyncio.wait_for(stop.wait(), self.settings.stats_poll_seconds)
            except TimeoutError:
                pass

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop` is set: deliver, send e-mails, and poll when idle; keep the statistics current."""
        self.heartbeat(force=True)
        log.info("Worker started id=%s", self.id)
        stats = asyncio.create_task(self.keep_stats(stop))
        async with make_client(self.settings) as client:
            while not stop.is_set():
                try:
                    await asyncio.to_thread(self.heartbeat)
                    done = await self.deliver(client, stop)
                    done += await asyncio.to_thread(send_due_mails, self.engine, self.settings)
                    done += await asyncio.to_thread(run_due, self.engine, self.settings, self.id)
                except SQLAlchemyError:
                    # The database is away (restart, lock timeout): what was claimed comes back when
                    # its lease expires; keep the process and try again.
                    log.exception("Database error; retrying in %s s", self.settings.worker_poll_seconds)
                    done = 0
                if done == 0:
                    try:
                        await asyncio.wait_for(stop.wait(), self.settings.worker_poll_seconds)
                    except TimeoutError:
                        pass
        await stats
        log.info("Worker stopped id=%s", self.id)


def run_worker(engine: Engine, settings: Settings, *, once: bool = False) -> int:
    """Run a worker in this process (the CLI's `regintel worker`)."""
    worker = Worker(engine, settings)
    if once:
        return asyncio.run(worker.run_once())

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await worker.run(stop)

    asyncio.run(main())
    return 0
