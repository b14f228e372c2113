"""Counters hold when several worker processes serve at once (a real uvicorn with 2 workers, and
processes racing on the counter file)."""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from limits import RateLimitItemPerSecond

from regintel.config import load_settings
from regintel.db.engine import make_engine
from regintel.db.keys import KeyRecord, create_key
from regintel.services.limiter import Limiter

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_plan_limit_across_two_workers(settings, tmp_path: Path):
    engine = make_engine(settings.database_url, pool=False)
    with engine.begin() as conn:
        _, raw = create_key(conn, "multi", "free")
    engine.dispose()
    port = _free_port()
    env = os.environ | {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(tmp_path / "data"),
    }
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
        env=env,
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
        codes = []
        # New connections each time so both worker processes take requests.
        for _ in range(125):
            codes.append(httpx.get(f"{base}/api/v1/me", params={"api_key": raw}, timeout=10).status_code)
        assert codes.count(200) == 120
        assert codes.count(429) == 5
        assert codes[:120] == [200] * 120
    finally:
        proc.terminate()
        proc.wait(timeout=20)


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
