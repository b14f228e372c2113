"""`/mcp`: the Streamable HTTP transport of the MCP specification, in the API's own app.

The SDK's session manager runs stateless with JSON responses: each POST carries one JSON-RPC message and
gets its answer in the response body, so any API process answers any request (no session to pin to a
process, nothing lost on a restart), as the REST API scales. The route serves POST only, so GET (a
server-to-client stream) and DELETE (end a session) answer the app's 405 with `Allow: OPTIONS, POST`, as
the transport specification provides for a server that offers no stream and no session to end.

Every request is authenticated and limited exactly as a keyed REST call (`require_key`: the bearer key
or `?api_key=`, the plan's rate limit and quota, counted once per HTTP request); a missing or bad key
answers 401 `UNAUTHORIZED` before the SDK sees the body, with the challenge of the MCP authorization
specification: `WWW-Authenticate: Bearer resource_metadata="…"` naming the endpoint's RFC 9728 document
(served by the accounts area), from which an OAuth client finds the authorization server. OAuth access
tokens are API keys of the account's plan (accounts area), so `require_key` accepts them unchanged.
A browser `Origin` other than the service's own (or localhost) is refused with 403 (the specification's
DNS-rebinding rule). The manager lives in the app's lifespan (`lifespan` below, merged by FastAPI when
the area's router is included)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.requests import Request
from starlette.types import Receive, Scope, Send

from regintel.api.deps import Caller, public_base, require_key
from regintel.api.envelope import error_response
from regintel.areas.accounts.oauth import SCOPE
from regintel.areas.mcp.server import build_server
from regintel.errors import Forbidden, RegintelError, UpstreamUnavailable

PATH = "/mcp"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def caller_of(request: Any) -> Caller | None:
    """The key a call runs for: left on the HTTP request's scope by `McpEndpoint`."""
    if request is None:
        return None
    caller: Caller | None = request.scope.get("state", {}).get("mcp_caller")  # stored by McpEndpoint
    return caller


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    manager = StreamableHTTPSessionManager(
        app=build_server(app.state, caller_of), json_response=True, stateless=True
    )
    async with manager.run():
        app.state.mcp_manager = manager
        try:
            yield
        finally:
            app.state.mcp_manager = None


def _check_origin(request: Request, base_url: str) -> None:
    origin = request.headers.get("origin")
    if not origin:
        return
    own = urlsplit(base_url)
    parts = urlsplit(origin)
    if (parts.scheme, parts.netloc) == (own.scheme, own.netloc) or parts.hostname in LOCAL_HOSTS:
        return
    raise Forbidden(f"Origin {origin} may not call this MCP server")


def challenge(request: Request) -> str:
    """The 401 challenge: RFC 6750 with RFC 9728's `resource_metadata` (the MCP authorization spec), and
    an error code only when a credential was sent (RFC 6750 3.1)."""
    path = PATH + "/v1" if request.url.path.rstrip("/").endswith("/v1") else PATH
    metadata = f"{public_base(request)}/.well-known/oauth-protected-resource{path}"
    sent = "authorization" in request.headers or "api_key" in request.query_params
    return f'Bearer realm="regintel", resource_metadata="{metadata}", scope="{SCOPE}"' + (
        ', error="invalid_token"' if sent else ""
    )


class McpEndpoint:
    """ASGI endpoint of `/mcp`: the API's checks, then the SDK's transport."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        app = scope["app"]
        try:
            _check_origin(request, app.state.settings.base_url)
            caller = await require_key(request)
            manager = getattr(app.state, "mcp_manager", None)
            if manager is None:
                raise UpstreamUnavailable(
                    "The MCP server is not running (the app's lifespan has not started)"
                )
        except RegintelError as exc:
            headers = dict(exc.headers)
            if exc.status == 401:
                headers["WWW-Authenticate"] = challenge(request)
            rid = str(scope.get("state", {}).get("request_id", ""))
            await error_response(rid, exc.status, exc.code, exc.message, exc.details, headers)(
                scope, receive, send
            )
            return
        scope["state"]["mcp_caller"] = caller
        await manager.handle_request(scope, receive, send)
