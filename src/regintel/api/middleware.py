"""Outermost ASGI middleware: request id, timing, response headers, the access log, and a
last-resort 500."""

from __future__ import annotations

import logging
import os
import re
import time
from typing import Any

import anyio
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from regintel.api import metrics
from regintel.api.db_gate import DbGate
from regintel.api.envelope import error_response

log = logging.getLogger("regintel.api")
# Our own access log instead of uvicorn's: uvicorn's prints the query string as sent, and
# `?api_key=` would put credentials into every log line.
access_log = logging.getLogger("regintel.access")
_SECRET_PARAM = re.compile(r"(?<![^&])(api_key=)[^&]*")


class RequestContext:
    """Gives every request an id (or keeps a sane incoming `X-Request-ID`) and puts it on the response.

    Handlers may leave extra headers in `scope["state"]["extra_headers"]` (quota figures), which are
    added here so that they reach success and error responses alike. Database connections in
    `scope["state"]["close_after"]` (deps.open_conn) are closed, and their `DbGate` permits given back,
    as soon as the response starts (a slow reader of a long body holds no connection; streamed bodies
    read with connections of their own), or when the request fails.

    Beyond `max_inflight` requests in this process, new ones are answered 503 `OVERLOADED` at once.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        gate: DbGate | None = None,
        close_in_thread: bool = False,
        max_inflight: int = 1_000,
    ):
        self.app = app
        self.gate = gate
        self.close_in_thread = close_in_thread
        self.max_inflight = max_inflight
        self.inflight = 0

    async def _close(self, conns: list[Any]) -> None:
        if not conns:
            return
        taken = list(conns)
        conns.clear()
        try:
            if self.close_in_thread:  # PostgreSQL: giving a connection back may send a ROLLBACK
                await anyio.to_thread.run_sync(_close_all, taken)
            else:
                _close_all(taken)
        finally:
            if self.gate is not None:
                for _ in taken:
                    self.gate.release()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # 32 random hex digits, as uuid4().hex gave, without building a UUID object (1% of a lookup).
        rid = _incoming_id(scope) or os.urandom(16).hex()
        state: dict[str, Any] = scope.setdefault("state", {})
        state["request_id"] = rid
        state["started"] = time.perf_counter()
        state["extra_headers"] = {}
        state["close_after"] = []
        started = False
        status = 500
        if self.inflight >= self.max_inflight:
            metrics.SHED.labels("in_flight").inc()
            response = error_response(
                rid,
                503,
                "OVERLOADED",
                f"This process is serving {self.inflight} requests already; try again shortly",
                headers={"Retry-After": "1"},
            )
            status = 503
            await response(scope, receive, send)
            _log_access(scope, status, rid, state["started"])
            return
        self.inflight += 1
        metrics.INFLIGHT.inc()
        # HEAD is GET without the body (RFC 9110 9.3.2): routes declare GET only.
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        head_done = False

        async def send_wrapper(message: Message) -> None:
            nonlocal started, status, head_done
            if message["type"] == "http.response.start":
                await self._close(state["close_after"])
                started = True
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode()))
                for name, value in state["extra_headers"].items():
                    headers.append((name.lower().encode(), value.encode()))
                message["headers"] = headers
            elif head and message["type"] == "http.response.body":
                if head_done:  # a streamed body goes on after the HEAD answer ended: drop it
                    return
                head_done = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        except Exception:
            log.exception("Unhandled error", extra={"request_id": rid})
            if started:
                raise
            response = error_response(rid, 500, "INTERNAL_ERROR", "Internal error; quote the request id")
            await response(scope, receive, send_wrapper)
        finally:
            self.inflight -= 1
            metrics.INFLIGHT.dec()
            await self._close(state["close_after"])
            route = scope.get("route")
            metrics.observe(
                getattr(route, "path_format", "unmatched"),
                scope.get("method", ""),
                status,
                time.perf_counter() - state["started"],
            )
            if access_log.isEnabledFor(logging.INFO):
                _log_access(scope, status, rid, state["started"])


def _close_all(conns: list[Any]) -> None:
    for conn in conns:
        conn.close()


def _log_access(scope: Scope, status: int, rid: str, started: float) -> None:
    query = scope.get("query_string", b"").decode("latin-1")
    target = scope.get("path", "") + ("?" + _SECRET_PARAM.sub(r"\1***", query) if query else "")
    client = scope.get("client") or ("-", 0)
    ms = (time.perf_counter() - started) * 1000
    access_log.info(
        '%s "%s %s" %d %.1fms id=%s',
        client[0],
        scope.get("method", ""),
        target,
        status,
        ms,
        rid,
        extra={
            "request_id": rid,
            "client": client[0],
            "method": scope.get("method", ""),
            "target": target,
            "status": status,
            "duration_ms": round(ms, 1),
        },
    )


def _incoming_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"x-request-id":
            text: str = value.decode("latin-1")
            if 0 < len(text) <= 128 and text.replace("-", "").replace("_", "").isalnum():
                return text
    return None


class CorsForOrigins:
    """Starlette's `CORSMiddleware` for the requests that send `Origin` (browsers' cross-origin calls and
    preflights); every other request goes straight to the app, with the one thing CORS does to its answer
    done here: `Vary: Origin` merged into the response's `Vary` exactly as `CORSMiddleware.send` merges it.
    Parsing the request headers and the response headers for CORS's sake on every call was about 3% of a
    keyed lookup's CPU (docs/performance.md, session 15)."""

    def __init__(self, app: ASGIApp, /, **options: Any):
        self.app = app
        self.cors = CORSMiddleware(app, **options)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or any(name == b"origin" for name, _ in scope["headers"]):
            await self.cors(scope, receive, send)
            return

        async def send_vary(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add_vary_origin(message.setdefault("headers", []))
            await send(message)

        await self.app(scope, receive, send_vary)


def _add_vary_origin(headers: list[tuple[bytes, bytes]]) -> None:
    """`MutableHeaders(...)["Vary"] = ", ".join([*getlist("Vary"), "Origin"])` on a raw header list: the
    first `vary` line holds the joined value, later ones are dropped, none appends one."""
    found = [i for i, (name, _) in enumerate(headers) if name == b"vary"]
    if not found:
        headers.append((b"vary", b"Origin"))
        return
    value = b", ".join([headers[i][1] for i in found] + [b"Origin"])
    for i in reversed(found[1:]):
        del headers[i]
    headers[found[0]] = (b"vary", value)
