"""A local fake of the EU VIES REST API on 127.0.0.1 that answers like the real one: the real answer for
PL 7740001454 (tests/fixtures/eu_vies), the same shape with `isValid` false for other numbers, and the
failure modes VIES has (a member state unavailable, a slow answer, a server error, a non-JSON page)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REAL = json.loads(
    (Path(__file__).parent.parent / "fixtures" / "eu_vies" / "vies_rest_ms_PL_vat_7740001454.json").read_text(
        encoding="utf-8"
    )
)
SLOW_SECONDS = 4.0


def _answer(ms: str, number: str, valid: bool, error: str) -> dict[str, object]:
    body = dict(REAL)
    body.update(
        {
            "isValid": valid,
            "userError": error,
            "originalVatNumber": number,
            "vatNumber": number,
            "requestDate": "2026-10-08T04:42:27.326Z",
        }
    )
    if not valid:
        body.update({"name": "---", "address": "---"})
    return body


class Handler(BaseHTTPRequestHandler):
    calls: list[str] = []

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        type(self).calls.append(self.path)
        parts = self.path.strip("/").split("/")  # ms/{MS}/vat/{number}
        if len(parts) != 4 or parts[0] != "ms" or parts[2] != "vat":
            self._send(404, b"not found", "text/plain")
            return
        ms, number = parts[1], parts[3]
        if ms == "PL":
            body = REAL if number == "7740001454" else _answer(ms, number, False, "INVALID")
        elif ms == "DE":
            body = _answer(ms, number, False, "MS_UNAVAILABLE")
        elif ms == "FR":
            time.sleep(SLOW_SECONDS)
            body = _answer(ms, number, True, "VALID")
        elif ms == "IT":
            self._send(500, b"<html>Internal error</html>", "text/html")
            return
        elif ms == "AT":
            self._send(200, b"<html>maintenance</html>", "text/html")
            return
        else:
            body = _answer(ms, number, True, "VALID")
        self._send(200, json.dumps(body).encode(), "application/json")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def fake_vies() -> Iterator[tuple[str, list[str]]]:
    """(base URL, list of the paths asked) of a server running for the duration of the block."""
    calls: list[str] = []
    handler = type("H", (Handler,), {"calls": calls})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", calls
    finally:
        server.shutdown()
        server.server_close()
