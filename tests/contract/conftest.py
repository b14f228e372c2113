"""One demo install for the contract tests (issue 16): `regintel demo` into a fresh folder (the bundled
demo data, the sanctions lists, the search index, statistics snapshots and queued jobs, exactly as a
newcomer runs it), a key, and the app, served by uvicorn on 127.0.0.1 (a port of its own, never 8000)
for the outside tools."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient

from regintel.api.app import create_app
from regintel.api.http_protocol import HttpProtocol
from regintel.config import Plan, Settings
from regintel.db.engine import make_engine
from regintel.db.keys import create_key


@dataclass(frozen=True)
class Demo:
    settings: Settings
    key: str
    output: str  # what `regintel demo` printed (not on a terminal)


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Demo:
    root: Path = tmp_path_factory.mktemp("contract")
    # Limits out of the way: the tools send hundreds of requests a minute from one address.
    settings = Settings(
        database_url=f"sqlite:///{root / 'regintel.db'}",
        data_dir=root / "data",
        rate_limit_storage="memory",
        shared_limit_per_minute=10**9,
        plans={"free": Plan(title="Free", rate_per_minute=10**9, monthly_quota=10**9)},
    )
    env = {
        **os.environ,
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(root / "data"),
    }
    done = subprocess.run(
        [str(Path(sys.executable).parent / "regintel"), "demo"],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    engine = make_engine(settings.database_url, pool=False)
    with engine.begin() as conn:
        _, key = create_key(conn, "contract", "free")
    engine.dispose()
    return Demo(settings=settings, key=key, output=done.stdout)


@pytest.fixture(scope="module")
def in_process(demo: Demo) -> Iterator[tuple[Any, str]]:
    """The app in this process (schemathesis calls it through ASGI) and the key."""
    app = create_app(demo.settings.model_copy(update={"base_url": "http://testserver"}))
    with TestClient(app):  # runs the lifespan (the MCP session manager, the thread limiter)
        yield app, demo.key


@pytest.fixture(scope="module")
def served(demo: Demo) -> Iterator[str]:
    """The demo install served by uvicorn on a free port of 127.0.0.1; yields its address."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(demo.settings.model_copy(update={"base_url": base}))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3, http=HttpProtocol)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    yield base
    server.should_exit = True
    thread.join(10)
