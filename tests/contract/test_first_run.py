"""The first ten minutes of a newcomer, from the outside (issue 16): what `regintel demo` and `regintel
serve` print when not on a terminal, a busy port, and the key scheme `?api_key=` on every keyed
operation of the document."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from regintel.api.openapi import is_keyed, iter_operations
from tests.contract.conftest import Demo

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("REGINTEL_TEST_POSTGRES_URL")),
    reason="the command line and the document do not depend on the backend: SQLite only",
)
REGINTEL = str(Path(sys.executable).parent / "regintel")


def _env(demo: Demo) -> dict[str, str]:
    return {
        **os.environ,
        "REGINTEL_DATABASE_URL": demo.settings.database_url,
        "REGINTEL_DATA_DIR": str(demo.settings.data_dir),
        "REGINTEL_AUTO_MIGRATE": "0",
    }


def test_demo_output_is_whole_and_says_where_the_reasons_are(demo: Demo) -> None:
    assert "…" not in demo.output, "a table cut to the width of a terminal that is not there"
    assert "gleif_rr" in demo.output and "sk_obchodny_vestnik" in demo.output
    rejected = re.search(r"(\d+) rows were rejected \(each with its reason.*?in (\S+)\)", demo.output, re.S)
    assert rejected, demo.output[-1500:]
    assert Path(rejected.group(2).rstrip(":")).is_dir()
    assert re.search(r"statistics snapshots: \d+ computed", demo.output)
    assert " of " not in demo.output.split("statistics snapshots:")[1].splitlines()[0]  # not "23 of 24"


def test_serve_refuses_a_busy_port_plainly(demo: Demo) -> None:
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        done = subprocess.run(
            [REGINTEL, "serve", "--port", str(port), "--workers", "1"],
            env=_env(demo),
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        busy.close()
    out = done.stdout + done.stderr
    assert done.returncode == 2, out[-1500:]  # not uvicorn's bare exit code 3
    assert f"127.0.0.1:{port}" in out and "already in use" in out and "--port" in out, out[-1500:]
    assert "Traceback" not in out


def test_serve_names_the_docs_and_the_key_command(demo: Demo) -> None:
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    server = subprocess.Popen(
        [REGINTEL, "serve", "--port", str(port), "--workers", "1"],
        env=_env(demo),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
    finally:
        server.terminate()
        server.wait(30)
    assert f"http://127.0.0.1:{port}/api/v1/public/swagger" in first, first
    assert "regintel keys create" in first, first


def test_the_key_in_the_query_works_on_every_keyed_operation(in_process: tuple[Any, str]) -> None:
    app, key = in_process
    client = TestClient(app)
    doc = client.get("/api/v1/public/openapi.json").json()
    refused = []
    # Not the stream (it never ends), nor the reconciliation manifest, whose key is optional (`{}` first).
    keyed = [
        (path, method)
        for path, method, op in iter_operations(doc)
        if is_keyed(op)
        and {} not in op["security"]
        and "text/event-stream" not in op["responses"].get("200", {}).get("content", {})
    ]
    assert len(keyed) > 100
    for path, method in keyed:
        url = re.sub(r"\{[^}]+\}", "1", re.sub(r"\{(country|cc)\}", "sk", path))
        resp = client.request(method.upper(), url, params={"api_key": key})
        wrong = client.request(method.upper(), url, params={"api_key": "ri_" + "x" * 40})
        named = resp.status_code == 422 and "api_key" in resp.text
        if resp.status_code == 401 or named or wrong.status_code != 401:
            refused.append(
                f"{method.upper()} {path}: {resp.status_code} with the key, {wrong.status_code} "
                f"with a wrong one: {resp.text[:150]}"
            )
    assert not refused, "\n".join(refused)
