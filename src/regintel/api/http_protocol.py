"""The HTTP/1.1 protocol `regintel serve` runs uvicorn with: uvicorn's httptools protocol, except that a
request target (path and query) over what it can parse is answered 414 `URI_TOO_LONG` with the `Error`
body and a request id, instead of a bare text 400.

uvicorn hands the target to `httptools.parse_url`, whose offsets are 16-bit: a target of 65,536 bytes or
more fails there and was answered `400 Invalid HTTP request received.` as plain text (measured with
uvicorn 0.54 and httptools 0.9, issue 16). Until then uvicorn buffers the target whatever its length; this
protocol stops reading at the limit. Every schema-valid request of the document fits (docs/api.md,
"Conformance"); the 414 is declared on every operation."""

from __future__ import annotations

import logging
import os

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from regintel.api.envelope import dumps

log = logging.getLogger("regintel.access")

# httptools.parse_url takes at most 65,535 bytes (a 16-bit length).
MAX_TARGET_BYTES = 65_535
LINGER_SECONDS = 10


class TargetTooLong(Exception):
    """Raised from the parser callback: httptools stops parsing and uvicorn answers the error."""


def too_long_body(request_id: str) -> bytes:
    message = (
        f"The request target (path and query string) is over {MAX_TARGET_BYTES:,} bytes, more than this "
        "server reads; send long inputs in the body of the POST form where the operation has one"
    )
    return dumps(
        {
            "error": {"code": "URI_TOO_LONG", "message": message, "details": {"max_bytes": MAX_TARGET_BYTES}},
            "meta": {"request_id": request_id},
        }
    )


class HttpProtocol(HttpToolsProtocol):
    refused = False  # the 414 is sent: what the client still sends is read and dropped

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > MAX_TARGET_BYTES:
            raise TargetTooLong

    def data_received(self, data: bytes) -> None:
        if not self.refused:
            super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        # uvicorn answers every parser error here; only an over-long target is ours to explain. `self.url`
        # is reset when a message begins, so a longer one is the target of this request.
        if len(self.url) <= MAX_TARGET_BYTES:
            super().send_400_response(msg)
            return
        request_id = os.urandom(16).hex()
        body = too_long_body(request_id)
        content = [STATUS_LINE[414]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"content-length: " + str(len(body)).encode() + b"\r\n",
                b"x-request-id: " + request_id.encode() + b"\r\n",
                b"connection: close\r\n\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        client = self.client[0] if self.client else "-"
        # The target itself is not logged: it is too long to read and may carry `api_key`.
        log.info('%s "(a target over %d bytes)" 414 id=%s', client, MAX_TARGET_BYTES, request_id)
        # The rest of the target is still on its way. Closing now would answer it with a TCP reset, which
        # can discard the 414 before the client reads it; so the answer ends with a FIN, what follows is
        # dropped unparsed, and the connection closes when the client closes it or after LINGER_SECONDS.
        self.refused = True
        if not self.transport.can_write_eof():  # TLS: no half-close
            self.transport.close()
            return
        self.transport.write_eof()  # the client's FIN then closes the transport (uvicorn's eof_received)
        self.loop.call_later(LINGER_SECONDS, self.transport.close)
