"""`/companies/changes/stream` (Server-Sent Events) against a real uvicorn server on 127.0.0.1, read by a
streaming httpx client: events as changes are written, heartbeats, disconnect and resume by Last-Event-ID."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn

from regintel.api.app import create_app
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_error

PATH = "/api/v1/companies/changes/stream"


@pytest.fixture
def server(settings) -> Iterator[str]:
    app = create_app(
        settings.model_copy(
            update={"changes_stream_poll_seconds": 0.05, "changes_stream_heartbeat_seconds": 0.3}
        )
    )
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)
    assert not thread.is_alive()  # no stream kept the server from stopping


def sse(lines: Iterator[str]) -> Iterator[dict[str, str]]:
    """Events ({"id", "event", "data"}) and comments ({"comment"}) as the SSE wire format delimits them."""
    event: dict[str, str] = {}
    for line in lines:
        if not line:
            if event:
                yield event
                event = {}
        elif line.startswith(":"):
            yield {"comment": line[1:].strip()}
        else:
            key, _, value = line.partition(":")
            event[key] = event.get(key, "") + value.removeprefix(" ")


def take(stream: Iterator[dict[str, str]], changes: int, heartbeats: int = 0) -> tuple[list[dict], list[str]]:
    """Read until `changes` change events and `heartbeats` heartbeats arrived (the read timeout bounds it)."""
    got, comments = [], []
    for item in stream:
        if "comment" in item:
            comments.append(item["comment"])
        elif item.get("event") == "change":
            got.append(item)
        if len(got) >= changes and comments.count("heartbeat") >= heartbeats:
            return got, comments
    raise AssertionError("stream ended")


def rename(engine, name: str) -> None:
    load_companies(engine, CompanyRecord(country="SK", national_id="31322832", name=name))


def test_stream_delivers_resumes_and_beats(server, engine, auth):
    rename(engine, "SLOVNAFT, a.s.")  # written before the stream opens: not sent without a resume point
    with httpx.Client(base_url=server, headers=auth, timeout=httpx.Timeout(5.0)) as http:
        with http.stream("GET", PATH) as resp:
            assert resp.status_code == 200
            assert resp.headers["content-type"].startswith("text/event-stream")
            events = sse(resp.iter_lines())
            assert next(events) == {"comment": "resuming after change 1"}
            rename(engine, "Slovnaft a.s.")
            started = time.monotonic()
            other = http.get("/api/v1/companies/changes")  # the open stream does not hold other requests
            assert other.status_code == 200 and time.monotonic() - started < 2
            got, comments = take(events, changes=1, heartbeats=1)
        first = got[0]
        assert first["id"] == "2" and first["event"] == "change"
        data = json.loads(first["data"])
        assert (data["id"], data["field"], data["from"], data["to"], data["ico"]) == (
            2,
            "name",
            "SLOVNAFT, a.s.",
            "Slovnaft a.s.",
            "31322832",
        )
        assert "heartbeat" in comments
        rename(engine, "SLOVNAFT a.s.")  # while disconnected
        rename(engine, "Slovnaft")
        with http.stream("GET", PATH, headers={"Last-Event-ID": first["id"]}) as resp:
            got, _ = take(sse(resp.iter_lines()), changes=2, heartbeats=1)
        assert [(g["id"], json.loads(g["data"])["to"]) for g in got] == [
            ("3", "SLOVNAFT a.s."),
            ("4", "Slovnaft"),
        ]
        with http.stream("GET", PATH, params={"last_event_id": 0, "field": "created"}) as resp:
            got, _ = take(sse(resp.iter_lines()), changes=1, heartbeats=1)
        assert [json.loads(g["data"])["field"] for g in got] == ["created"]


def test_stream_rejects_bad_input(client, auth):
    assert_error(client.get(PATH, headers=auth | {"Last-Event-ID": "abc"}), 422, "VALIDATION_ERROR")
    assert_error(client.get(PATH, params={"last_event_id": -1}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(PATH, params={"country": "xx1"}, headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get(PATH), 401, "UNAUTHORIZED")
