"""Admission of requests to the database, so that nothing waits on the connection pool on the event loop.

A request takes a permit before it takes a connection and gives it back when the connection is closed.
There are never more permits than the pool holds, so a connection checkout with a permit never waits;
a request that finds no permit waits for one on the event loop (an asyncio wait, which blocks nothing)
for at most `wait` seconds, then is shed with 503 `OVERLOADED` and `Retry-After`.

Before this, a request took its connection from the pool on the loop thread: with every connection held
by requests that the blocked loop could not finish, the process stopped answering until the pool's
30-second timeout turned the queue into 500s (issue 13).
"""

from __future__ import annotations

import asyncio

from regintel.api.metrics import DB_IN_USE, DB_WAITING, SHED
from regintel.errors import Overloaded


class DbGate:
    def __init__(self, size: int, wait_seconds: float):
        self.size = size
        self.wait_seconds = wait_seconds
        self.in_use = 0
        self.waiting = 0
        self.shed = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sem = asyncio.Semaphore(size)

    def _semaphore(self) -> asyncio.Semaphore:
        # A semaphore belongs to the loop it first waited on; test clients each run their own loop.
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._sem, self.in_use = loop, asyncio.Semaphore(self.size), 0
        return self._sem

    async def acquire(self) -> None:
        sem = self._semaphore()
        if not sem.locked():
            await sem.acquire()  # free permit: returns without suspending
        else:
            self.waiting += 1
            DB_WAITING.inc()
            try:
                await asyncio.wait_for(sem.acquire(), self.wait_seconds)
            except TimeoutError:
                self.shed += 1
                SHED.labels("database").inc()
                raise Overloaded(
                    f"All {self.size} database connections of this process stayed busy for "
                    f"{self.wait_seconds:g} s; try again shortly",
                    headers={"Retry-After": "1"},
                ) from None
            finally:
                self.waiting -= 1
                DB_WAITING.dec()
        self.in_use += 1
        DB_IN_USE.inc()

    def release(self) -> None:
        self.in_use -= 1
        DB_IN_USE.dec()
        self._sem.release()
