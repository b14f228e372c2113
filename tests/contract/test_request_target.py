"""The length of a request target (issue 16), through `regintel serve` on 127.0.0.1: uvicorn parses at
most 65,535 bytes of path and query; a longer target is answered 414 `URI_TOO_LONG` with the error body,
however long it is, and every request the document calls valid fits, the identity-provider callback's
eleven parameters and the OAuth authorization request's eight included."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient

from regintel.api.http_protocol import MAX_TARGET_BYTES
from regintel.api.openapi import iter_operations
from tests.contract.conftest import Demo

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("REGINTEL_TEST_POSTGRES_URL")),
    reason="the HTTP server and the document do not depend on the backend: SQLite only",
)
REGINTEL = str(Path(sys.executable).parent / "regintel")
CALLBACK = "/account/identities/{provider}/callback"


@pytest.fixture(scope="module")
def serve(demo: Demo) -> Iterator[int]:
    """`regintel serve` itself (its uvicorn settings are what is tested); yields the port."""
    free = socket.socket()
    free.bind(("127.0.0.1", 0))
    port = free.getsockname()[1]
    free.close()
    env = {
        **os.environ,
        "REGINTEL_DATABASE_URL": demo.settings.database_url,
        "REGINTEL_DATA_DIR": str(demo.settings.data_dir),
        "REGINTEL_AUTO_MIGRATE": "0",
        "REGINTEL_RATE_LIMIT_STORAGE": "memory",
    }
    server = subprocess.Popen(
        [REGINTEL, "serve", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, "regintel serve did not start"
            time.sleep(0.5)
        yield port
    finally:
        server.terminate()
        server.wait(30)


def _get(port: int, target: str) -> tuple[int, dict[str, str], bytes]:
    """One GET with this exact request target over a raw socket (an HTTP client would refuse or split it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, body


@pytest.mark.parametrize("length", [MAX_TARGET_BYTES + 1, 70_000, 20_000_000])
def test_a_target_over_the_limit_is_a_414_with_a_code(serve: int, length: int) -> None:
    prefix = "/api/v1/companies/search?q="
    started = time.monotonic()
    status, headers, body = _get(serve, prefix + "a" * (length - len(prefix)))
    assert status == 414, body[:300]
    assert headers["content-type"] == "application/json"
    error = json.loads(body)
    assert error["error"]["code"] == "URI_TOO_LONG"
    assert error["meta"]["request_id"] == headers["x-request-id"]
    # Read and dropped, not buffered: 20 MB is answered in the time it takes to send it.
    assert time.monotonic() - started < 20


def test_a_target_at_the_limit_reaches_the_app(serve: int) -> None:
    prefix = "/api/v1/public/autocomplete?zz="
    status, _, body = _get(serve, prefix + "a" * (MAX_TARGET_BYTES - len(prefix)))
    assert status == 422, body[:300]  # the app's answer: `zz` is not a parameter of the operation
    assert json.loads(body)["error"]["details"][0]["field"] == "zz"


def test_the_longest_valid_identity_callback_reaches_the_app(serve: int, demo: Demo) -> None:
    doc = httpx.get(f"http://127.0.0.1:{serve}/api/v1/public/openapi.json", timeout=60).json()
    params = doc["paths"][CALLBACK]["get"]["parameters"]
    # `%` takes the most bytes a value may: 3 (`%25`) for 1 character.
    query = "&".join(
        f"{p['name']}={quote('%' * _string(p['schema'])['maxLength'], safe='')}"
        for p in params
        if p["in"] == "query"
    )
    target = CALLBACK.format(provider="p" * 40) + "?" + query
    assert len(target) > 50_000
    status, _, body = _get(serve, target)
    assert status == 404, body[:300]  # the app's: no such provider on a demo install, not a 414 or a 400
    assert json.loads(body)["error"]["code"] == "NOT_FOUND"


def test_every_operation_declares_the_414(in_process: tuple[Any, str]) -> None:
    app, _ = in_process
    with TestClient(app) as client:
        doc = client.get("/api/v1/public/openapi.json").json()
    missing = [f"{m} {p}" for p, m, op in iter_operations(doc) if "414" not in op["responses"]]
    assert not missing


def test_the_bounded_operations_fit_in_a_request_target(in_process: tuple[Any, str]) -> None:
    """The longest target each operation's schema allows, percent-encoded: 12 bytes a character (4 UTF-8
    bytes) unless the pattern takes ASCII only (3). Parameters without a bound are left out."""
    app, _ = in_process
    with TestClient(app) as client:
        doc = client.get("/api/v1/public/openapi.json").json()
    longest = {f"{m.upper()} {p}": _longest(p, op) for p, m, op in iter_operations(doc)}
    for label in (
        f"GET {CALLBACK}",
        "GET /oauth/authorize",
        "POST /oauth/authorize",
        "GET /api/v1/reconcile",
    ):
        assert longest[label] is not None, label
    over = {label: n for label, n in longest.items() if n is not None and n > MAX_TARGET_BYTES}
    assert not over


def test_a_callback_value_outside_printable_ascii_is_refused(in_process: tuple[Any, str]) -> None:
    app, _ = in_process
    with TestClient(app) as client:
        answer = client.get(CALLBACK.format(provider="p"), params={"code": "é"})
    assert answer.status_code == 422
    assert answer.json()["error"]["details"][0]["field"] == "code"


def _string(schema: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in [schema, *schema.get("anyOf", [])] if s.get("type") == "string")


_ASCII_ONLY = re.compile(r"(?<!\\)\.|\\[SWDP]|\[\^")


def _longest(path: str, op: dict[str, Any]) -> int | None:
    total = len(path)
    for param in op.get("parameters", []):
        if param["in"] not in ("path", "query"):
            continue
        size = _value_bytes(param["schema"])
        if size is None:
            return None
        total += size + (len(param["name"]) + 2 if param["in"] == "query" else 0)
    return total


def _value_bytes(schema: dict[str, Any]) -> int | None:
    sizes = []
    for part in [schema, *schema.get("anyOf", [])]:
        kind = part.get("type")
        if "enum" in part:
            sizes.append(max(len(quote(str(v), safe="")) for v in part["enum"]))
        elif kind in ("integer", "number", "boolean", "null"):
            sizes.append(32)
        elif kind == "string":
            if "maxLength" not in part:
                return None
            pattern = part.get("pattern", "")
            ascii_only = pattern.isascii() and pattern and not _ASCII_ONLY.search(pattern)
            sizes.append(part["maxLength"] * (3 if ascii_only else 12))
        elif kind is not None:
            return None  # arrays, objects: not bounded here
    return max(sizes) if sizes else None
