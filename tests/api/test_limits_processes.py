"""Counters hold when several worker processes serve at once (a real uvicorn with 2 workers)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from regintel.db.engine import make_engine
from regintel.db.keys import create_key

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
    env = os.environ | {"REGINTEL_DATABASE_URL": settings.database_url,
                        "REGINTEL_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "regintel", "serve", "--port", str(port),
                             "--workers", "2", "--log-level", "warning"], env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.time() + 30
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
