"""Counters hold when several worker processes serve at once (a real uvicorn with 2 workers, and
processes racing on the counter file)."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import UTC, datetime
from multiprocessing.queues import Queue
from pathlib import Path

import httpx
import pytest
from limits import RateLimitItemPerSecond

from regintel.api.limiter import Limiter
from regintel.config import Plan, load_settings
from regintel.db.engine import make_engine
from regintel.db.keys import KeyRecord, create_key
from regintel.errors import QuotaExceeded

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def _serving(settings, tmp_path: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """`regintel serve --workers 2` on the test database; yields its base URL."""
    port = _free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "regintel",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        env=os.environ
        | {"REGINTEL_DATABASE_URL": settings.database_url, "REGINTEL_DATA_DIR": str(tmp_path / "data")}
        | (env or {}),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 90  # startup imports take seconds on a busy machine
        while time.time() < deadline:
            try:
                httpx.get(f"{base}/api/v1/public/status", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_plan_limit_across_two_workers(settings, tmp_path: Path):
    engine = make_engine(settings.database_url, pool=False)
    with engine.begin() as conn:
        _, raw = create_key(conn, "multi", "free")
    engine.dispose()
    with _serving(settings, tmp_path) as base:
        codes = []
        # New connections each time so both worker processes take requests.
        for _ in range(125):
            codes.append(httpx.get(f"{base}/api/v1/me", params={"api_key": raw}, timeout=10).status_code)
    assert codes.count(200) == 120
    assert codes.count(429) == 5
    assert codes[:120] == [200] * 120


def test_an_accounts_quota_across_two_workers(settings, tmp_path: Path):
    """Two keys of one account called in turn on a real uvicorn with 2 worker processes: the account's
    monthly quota of 40 lets exactly 40 calls through, whichever process and key served them."""
    from regintel.areas.accounts import queries as accounts

    engine = make_engine(settings.database_url, pool=False)
    with engine.begin() as conn:
        account_id = accounts.insert_account(conn, "two@example.org", "free", datetime.now(UTC))
        raws = []
        for name in ("one", "two"):
            key, raw = create_key(conn, name, "free")
            accounts.link_key(conn, key.id, account_id)
            raws.append(raw)
    engine.dispose()
    plans = {"free": {"title": "Free", "rate_per_minute": 600, "monthly_quota": 40}}
    with _serving(settings, tmp_path, {"REGINTEL_PLANS": json.dumps(plans)}) as base:
        answers = [
            httpx.get(f"{base}/api/v1/me", params={"api_key": raws[n % 2]}, timeout=10) for n in range(50)
        ]
    assert [r.status_code for r in answers] == [200] * 40 + [429] * 10
    assert {r.json()["error"]["code"] for r in answers[40:]} == {"QUOTA_EXCEEDED"}
    assert [r.json()["data"]["usage"]["used"] for r in answers[:40]] == list(range(1, 41))


def _hammer(data_dir: str, calls: int) -> None:
    """One process: `calls` keyed checks of the same key from the same address."""
    limiter = Limiter(load_settings(data_dir=Path(data_dir)))
    for _ in range(calls):
        limiter.check_key(_KEY, "10.0.0.1")


_KEY = KeyRecord(
    id=7,
    name="k",
    plan="pro",
    prefix="ri_x",
    created_at=datetime(2026, 1, 1, tzinfo=UTC),
    expires_at=None,
    revoked_at=None,
)


def test_counter_file_counts_exactly_under_contention(tmp_path: Path):
    # Four processes at once against one counter file: every check's three increments (shared per-IP,
    # plan window, monthly quota) land, none lost or doubled, whatever the interleaving of their
    # transactions.
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_hammer, args=(str(tmp_path), 150)) for _ in range(4)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    limiter = Limiter(load_settings(data_dir=tmp_path))
    assert limiter.quota(_KEY).used == 600  # type: ignore[union-attr]
    windows = [
        (RateLimitItemPerSecond(600, 60, namespace="key"), "7"),
        (RateLimitItemPerSecond(600, 60, namespace="ip"), "10.0.0.1"),
    ]
    assert [limiter.storage.get(item.key_for(who)) for item, who in windows] == [600, 600]


# Two keys of one account (ids 7 and 8, account 3): their calls count against the account's one monthly
# counter (docs/accounts.md row 60), 450 a month, while each keeps its own per-minute window.
_ACCOUNT_KEYS = [
    KeyRecord(
        id=key_id,
        name="k",
        plan="shared",
        prefix="ri_x",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        expires_at=None,
        revoked_at=None,
        account_id=3,
    )
    for key_id in (7, 8)
]
_SHARED = {"shared": Plan(title="Shared", rate_per_minute=600, monthly_quota=450)}


def _account_calls(limiter: Limiter, keys: list[KeyRecord], calls: int, ip: str) -> int:
    """`calls` checks alternating between `keys`; returns how many the quota let through."""
    passed = 0
    for n in range(calls):
        try:
            limiter.check_key(keys[n % len(keys)], ip)
            passed += 1
        except QuotaExceeded:
            pass
    return passed


def _hammer_account(data_dir: str, calls: int, ip: str, out: Queue) -> None:  # type: ignore[type-arg]
    limiter = Limiter(load_settings(data_dir=Path(data_dir), plans=_SHARED))
    out.put(_account_calls(limiter, _ACCOUNT_KEYS, calls, ip))


def test_an_accounts_quota_counts_exactly_across_processes(tmp_path: Path):
    # Four processes, each alternating between the account's two keys, 600 calls against a quota of 450:
    # exactly 450 pass, whatever the interleaving, and the account's counter holds all 600.
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [
        ctx.Process(target=_hammer_account, args=(str(tmp_path), 150, f"10.0.0.{n}", out)) for n in range(4)
    ]
    for proc in procs:
        proc.start()
    passed = [out.get(timeout=120) for _ in procs]
    for proc in procs:
        proc.join(timeout=60)
        assert proc.exitcode == 0
    assert sum(passed) == 450
    limiter = Limiter(load_settings(data_dir=tmp_path, plans=_SHARED))
    assert limiter.account_quota(3, "shared").used == 600  # type: ignore[union-attr]
    assert [limiter.quota(key).used for key in _ACCOUNT_KEYS] == [600, 600]  # type: ignore[union-attr]
    window = RateLimitItemPerSecond(600, 60, namespace="key")
    assert [limiter.storage.get(window.key_for(str(key.id))) for key in _ACCOUNT_KEYS] == [300, 300]


def test_an_accounts_quota_counts_exactly_in_redis_from_threads(tmp_path: Path):
    import redis

    url = "redis://127.0.0.1:6379/14"
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis server on 127.0.0.1:6379")
    # An account id of this run alone, so that runs sharing the server never meet on one counter.
    account_id = 10**12 + uuid.uuid4().int % 10**12
    keys = [
        dataclasses.replace(key, id=account_id + n, account_id=account_id)
        for n, key in enumerate(_ACCOUNT_KEYS)
    ]
    settings = load_settings(data_dir=tmp_path, plans=_SHARED, redis_url=url, rate_limit_storage="redis")
    limiter = Limiter(settings)
    try:
        with ThreadPoolExecutor(4) as pool:
            passed = list(pool.map(lambda n: _account_calls(limiter, keys, 150, f"10.1.0.{n}"), range(4)))
        assert sum(passed) == 450
        assert limiter.account_quota(account_id, "shared").used == 600  # type: ignore[union-attr]
    finally:
        client = redis.Redis.from_url(url)
        for name in client.scan_iter(f"*{account_id}*"):
            client.delete(name)
        for n in range(4):
            for name in client.scan_iter(f"*10.1.0.{n}*"):
                client.delete(name)
