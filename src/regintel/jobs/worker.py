"""`regintel worker`: deliver the webhook outbox and the e-mail outbox, at least once.

A loop: heartbeat → claim due deliveries (leases) → attempt them concurrently → record every attempt
→ send due e-mails → sleep when idle. SIGTERM/SIGINT finish the current batch; a worker killed
outright leaves its leases to expire, and the deliveries are attempted again (receivers drop the
duplicates by `webhook-id`). PostgreSQL: run as many workers as needed; SQLite: run one.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from regintel.config import Settings
from regintel.db.deliveries import claim_deliveries, record_outcomes
from regintel.db.engine import upsert
from regintel.db.schema import worker_heartbeats
from regintel.jobs.deliveries import attempt, make_client
from regintel.jobs.emails import send_due_mails

log = logging.getLogger("regintel.worker")
HEARTBEAT_EVERY = timedelta(seconds=10)


class Worker:
    def __init__(self, engine: Engine, settings: Settings, worker_id: str | None = None):
        self.engine = engine
        self.settings = settings
        self.id = worker_id or f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.started_at = datetime.now(UTC)
        self._last_beat: datetime | None = None
        # A claimed delivery is re-offered to other workers once this is over: one attempt, plus margin.
        self.lease = timedelta(seconds=settings.webhook_timeout_seconds + 5)

    def heartbeat(self, force: bool = False) -> None:
        now = datetime.now(UTC)
        if not force and self._last_beat is not None and now - self._last_beat < HEARTBEAT_EVERY:
            return
        with self.engine.begin() as conn:
            upsert(conn, worker_heartbeats, [{"worker_id": self.id, "hostname": socket.gethostname(),
                                              "pid": os.getpid(), "started_at": self.started_at, "beat_at": now}],
                   keys=["worker_id"], update=["beat_at"])
        self._last_beat = now

    async def deliver_batch(self, client: object) -> int:
        """Claim up to `webhook_concurrency` deliveries, attempt them all at once, record the outcomes."""
        with self.engine.begin() as conn:
            rows = claim_deliveries(conn, self.id, self.settings.webhook_concurrency, datetime.now(UTC), self.lease)
        if not rows:
            return 0
        outcomes = await asyncio.gather(*(attempt(client, row, self.settings) for row in rows))  # type: ignore[arg-type]
        with self.engine.begin() as conn:
            paused = record_outcomes(conn, outcomes, self.id, self.settings.webhook_retry_schedule, datetime.now(UTC))
        failed = sum(1 for o in outcomes if not o.ok)
        log.info("Delivered batch worker=%s attempts=%d failed=%d paused=%d", self.id, len(outcomes), failed, paused)
        return len(rows)

    async def run_once(self) -> int:
        """One pass: every due delivery batch, then due e-mails. Returns the work done (for tests)."""
        self.heartbeat()
        done = 0
        async with make_client(self.settings) as client:
            while (n := await self.deliver_batch(client)) > 0:
                done += n
        done += await asyncio.to_thread(send_due_mails, self.engine, self.settings)
        return done

    async def run(self, stop: asyncio.Event) -> None:
        """Until `stop` is set: work while there is work, poll when idle."""
        self.heartbeat(force=True)
        log.info("Worker started id=%s", self.id)
        async with make_client(self.settings) as client:
            while not stop.is_set():
                self.heartbeat()
                done = await self.deliver_batch(client)
                done += await asyncio.to_thread(send_due_mails, self.engine, self.settings)
                if done == 0:
                    try:
                        await asyncio.wait_for(stop.wait(), self.settings.worker_poll_seconds)
                    except TimeoutError:
                        pass
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
