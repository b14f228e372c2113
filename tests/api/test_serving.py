"""Serving under load, from the outside: a real `regintel serve` with several worker processes and many
concurrent clients (issue 13). No timings are asserted; what must hold is that nothing stalls, nothing
answers 5xx but a deliberate 503 `OVERLOADED`, every body is well-formed, and the limits stay exact."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from regintel.config import Settings
from regintel.db.engine import make_engine
from regintel.db.keys import create_key
from tests.api.companies_fixture import RECORDS
from tests.builders import load_companies

pytestmark = pytest.mark.slow
LOOKUP = "/api/v1/companies/sk/31322832"
REDIS_URL = "redis://127.0.0.1:6379/13"  # a database of its own, emptied by the test that uses it


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _key(settings: Settings, plan: str) -> str:
    engine = make_engine(settings.database_url, pool=False)
    with engine.begin() as conn:
        _, raw = create_key(conn, "load", plan)
    engine.dispose()
    return raw


class Server:
    def __init__(self, settings: Settings, data_dir: Path, workers: int, **env: str):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        environ = (
            os.environ
            | {
                "REGINTEL_DATABASE_URL": settings.database_url,
                "REGINTEL_DATA_DIR": str(data_dir),
                "REGINTEL_AUTO_MIGRATE": "0",
            }
            | env
        )
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "regintel",
                "serve",
                "--port",
                str(self.port),
                "--workers",
                str(workers),
                "--log-level",
                "warning",
            ],
            env=environ,
        )
        deadline = time.time() + 90  # startup imports take seconds on a busy machine
        while time.time() < deadline:
            try:
                if httpx.get(f"{self.base}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        self.stop()
        raise AssertionError("the server did not become ready")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


@pytest.fixture
def serve(settings: Settings, engine: Any, tmp_path: Path) -> Iterator[Any]:
    load_companies(engine, *RECORDS)
    servers: list[Server] = []

    def start(workers: int = 2, **env: str) -> Server:
        servers.append(Server(settings, tmp_path / "data", workers, **env))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


async def _drive(
    base: str,
    paths: list[str],
    headers: dict[str, str],
    clients: int,
    seconds: float | None = None,
    total: int | None = None,
) -> list[httpx.Response | Exception]:
    """`clients` concurrent clients, each on its own connection, for `seconds` or `total` requests."""
    out: list[httpx.Response | Exception] = []
    stop = time.monotonic() + (seconds or 3600)
    budget = [total if total is not None else 10**9]
    async with httpx.AsyncClient(
        base_url=base, headers=headers, timeout=10, limits=httpx.Limits(max_connections=clients)
    ) as client:

        async def one(n: int) -> None:
            i = n
            while time.monotonic() < stop and budget[0] > 0:
                budget[0] -= 1
                try:
                    out.append(await client.get(paths[i % len(paths)]))
                except httpx.HTTPError as exc:
                    out.append(exc)
                i += 1

        await asyncio.gather(*(one(n) for n in range(clients)))
    return out


def _well_formed(resp: httpx.Response) -> None:
    body = resp.json()
    assert resp.headers["x-request-id"]
    if resp.status_code == 200:
        assert set(body) == {"data", "meta"} and body["meta"]["request_id"] == resp.headers["x-request-id"]
    else:
        assert set(body) == {"error", "meta"} and body["error"]["code"]


def test_64_clients_on_two_workers_get_answers_without_errors(serve: Any, settings: Settings) -> None:
    # A generous wait for a connection: this test is about stalls and errors, and the machine running it
    # may be busy with other work; shedding under overload has a test of its own below.
    server = serve(workers=2, REGINTEL_DB_WAIT_SECONDS="15")
    key = _key(settings, "business")
    paths = [
        LOOKUP,
        "/api/v1/companies/search?q=slovnaft",
        "/api/v1/companies/autocomplete?q=stav",
        "/api/v1/me",
        "/api/v1/companies/by-lei?lei=097900BGCY0000006315",
        "/api/v1/companies/sk/00000000",
    ]  # a 404 among them: errors must be well-formed too
    results = asyncio.run(
        _drive(server.base, paths, {"Authorization": f"Bearer {key}"}, clients=64, seconds=4)
    )
    failures = [r for r in results if isinstance(r, Exception)]
    assert not failures, failures[:3]
    statuses = Counter(r.status_code for r in results if isinstance(r, httpx.Response))
    assert set(statuses) <= {200, 404, 422}, statuses
    # How many answers 4 s hold depends on the machine (91 at a load of 17 here): what must hold is that
    # each of the 64 clients was answered, every time, and well-formed.
    assert len(results) >= 64 and statuses[200] > 0, statuses
    for resp in results:
        _well_formed(resp)  # type: ignore[arg-type]
    assert httpx.get(f"{server.base}{LOOKUP}", headers={"Authorization": f"Bearer {key}"}).status_code == 200


def test_a_saturated_pool_sheds_with_503_and_recovers_at_once(serve: Any, settings: Settings) -> None:
    # One connection per process and no waiting: concurrent requests beyond it must be shed at once.
    server = serve(workers=1, REGINTEL_DB_CONCURRENCY="1", REGINTEL_DB_WAIT_SECONDS="0")
    key = _key(settings, "business")
    paths = [LOOKUP, "/api/v1/companies/31322832/history", "/api/v1/companies/sk/35757442"]
    results = asyncio.run(
        _drive(server.base, paths, {"Authorization": f"Bearer {key}"}, clients=48, seconds=3)
    )
    assert not [r for r in results if isinstance(r, Exception)]
    statuses = Counter(r.status_code for r in results if isinstance(r, httpx.Response))
    assert set(statuses) == {200, 503}, statuses
    for resp in results:
        assert isinstance(resp, httpx.Response)
        _well_formed(resp)
        if resp.status_code == 503:
            assert resp.json()["error"]["code"] == "OVERLOADED" and resp.headers["retry-after"] == "1"
    # Nothing is left held: the next requests are served at once.
    for _ in range(5):
        assert (
            httpx.get(f"{server.base}{LOOKUP}", headers={"Authorization": f"Bearer {key}"}).status_code == 200
        )


@pytest.mark.parametrize("storage", ["sqlite", "redis"])
def test_four_workers_and_32_clients_admit_exactly_the_plan_limit(
    serve: Any, settings: Settings, storage: str
) -> None:
    env = {"REGINTEL_RATE_LIMIT_STORAGE": storage}
    if storage == "redis":
        try:
            redis.Redis.from_url(REDIS_URL).flushdb()
        except redis.RedisError:
            pytest.skip("no Redis on 127.0.0.1:6379")
        env["REGINTEL_REDIS_URL"] = REDIS_URL
    server = serve(workers=4, **env)
    key = _key(settings, "free")  # 120 requests per 60 s window
    results = asyncio.run(
        _drive(server.base, ["/api/v1/me"], {"Authorization": f"Bearer {key}"}, clients=32, total=200)
    )
    statuses = Counter(r.status_code for r in results if isinstance(r, httpx.Response))
    assert statuses == {200: 120, 429: 80}, statuses
