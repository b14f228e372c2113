"""A real webhook receiver on 127.0.0.1 for the tests: verifies every delivery with the
`standardwebhooks` library, records it, and answers with a programmable status (or delay)."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks.webhooks import Webhook, WebhookVerificationError


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    verified: bool
    error: str | None
    status: int

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def message_id(self) -> str:
        return self.headers["webhook-id"]


@dataclass
class Receiver:
    secrets: dict[str, str] = field(default_factory=dict)  # path -> whsec_… used to verify
    statuses: dict[str, list[int]] = field(default_factory=dict)  # path -> answers to give, then 200
    delay: float = 0.0
    received: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length", 0))
                body = self.rfile.read(length)
                if len(body) < length:  # the sender went away mid-request (a killed worker): nothing came
                    self.close_connection = True
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = receiver._record(self.path, headers, body)  # arrival, before any delay
                if receiver.delay:
                    time.sleep(receiver.delay)
                self.send_response(status)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        # A sender that gave up (timeout, killed worker) leaves a broken pipe: expected here, not news.
        self.server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def _record(self, path: str, headers: dict[str, str], body: bytes) -> int:
        verified, error = False, None
        secret = self.secrets.get(path)
        if secret is not None:
            try:
                Webhook(secret).verify(body, headers)
                verified = True
            except WebhookVerificationError as exc:
                error = str(exc)
        with self._lock:
            plan = self.statuses.get(path) or []
            status = plan.pop(0) if plan else 200
            self.received.append(Received(path, headers, body, verified, error, status))
        return status

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.02)
        raise AssertionError(f"expected {count} deliveries, got {len(self.received)}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
