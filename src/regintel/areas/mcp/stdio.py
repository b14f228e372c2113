"""`regintel mcp`: the same tools over stdio, for a local client (spec 5: "the local variant").

The process opens the database itself (it runs beside the data, as `regintel serve` does). With
`--api-key` (or `REGINTEL_API_KEY`) the tools act for that key: the monitoring tool lists its
subscriptions and every call is limited and counted like a keyed REST call. Without a key the
operator's own process needs none, and the key-bound tool answers UNAUTHORIZED. Logs go to stderr:
stdout carries the protocol."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime
from typing import Any

import anyio
import mcp.types as types
from mcp.server.stdio import stdio_server

from regintel.api.app import create_app
from regintel.api.deps import Caller
from regintel.areas.mcp import server as mcp_server
from regintel.config import Settings
from regintel.errors import RegintelError, Unauthorized


def authenticate(state: Any, raw: str | None) -> Caller | None:
    """The key `raw` stands for, checked as `require_key` checks it; None without a key."""
    if not raw:
        return None
    key = state.key_cache.get(raw.strip(), state.engine)
    if key is None or not key.is_active(datetime.now(UTC)):
        raise Unauthorized("Unknown, revoked or expired API key")
    return Caller(key, None)


def run(settings: Settings, api_key: str | None) -> None:
    logging.basicConfig(stream=sys.stderr, level=settings.log_level.upper())
    state = create_app(settings).state
    caller = authenticate(state, api_key)
    anyio.run(_serve, state, caller)


async def _serve(state: Any, caller: Caller | None) -> None:
    server = mcp_server.build_server(state, lambda _request: caller)
    if caller is not None:
        _charge_calls(server, state, caller)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def _charge_calls(server: Any, state: Any, caller: Caller) -> None:
    """Count each tool call against the key's limits and quota, as a keyed REST call."""
    entry = server.get_request_handler("tools/call")

    async def charged(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        try:
            state.limiter.check_key(caller.key, "stdio")
        except RegintelError as exc:
            return mcp_server.error_result(exc.code, exc.message, exc.details)
        # the tool registry's handlers are untyped callables returning a CallToolResult
        result: types.CallToolResult = await entry.handler(ctx, params)
        return result

    server.add_request_handler("tools/call", entry.params_type, charged)
