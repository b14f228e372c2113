"""The MCP server (official SDK, low-level `Server`): lists the tool table and runs a call.

A call validates its arguments with the tool's model, then runs the tool in a worker thread on its own
connection (`anyio.to_thread`), never on the event loop. Every failure is a tool result with
`isError` and the REST error code (`VALIDATION_ERROR`, `NOT_FOUND`, `AMBIGUOUS_IDENTIFIER`, …) in the
text and in `structuredContent.error`, so an agent can read it and correct itself; an unknown tool is
a protocol error (INVALID_PARAMS), as the specification asks."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
import mcp.types as types
import orjson
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from regintel import __version__
from regintel.api.deps import Caller
from regintel.api.envelope import dumps
from regintel.areas.mcp.toolkit import Tool, ToolContext
from regintel.areas.mcp.tools import BY_NAME, TOOLS
from regintel.errors import RegintelError

log = logging.getLogger("regintel.mcp")
NAME = "regintel"
INSTRUCTIONS = (
    "European company registry data. Start with company_brief for one company (it names what it cannot "
    "answer in notCovered). Find companies (search_companies, lookup_identifier, advanced_search), read "
    "one (get_company, company_timeline), assess it (credit_score, sanctions_screening, nis2_scope), "
    "follow its ownership (company_relations, ultimate_owner), and follow insolvencies and the key's "
    "monitoring (insolvency_events, monitoring_subscriptions). Every answer carries its sources and "
    "licences: cite them."
)
READ_ONLY = types.ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def tool_definitions() -> list[types.Tool]:
    return [
        types.Tool(
            name=t.name,
            title=t.title,
            description=t.description,
            annotations=READ_ONLY,
            input_schema=t.params.model_json_schema(),
        )
        for t in TOOLS
    ]


def build_server(state: Any, caller_of: Callable[[Any], Caller | None]) -> Server[Any]:
    """A server over the app's `state`; `caller_of(request)` gives the key a call runs for (the HTTP
    request of the call, None over stdio)."""
    definitions = tool_definitions()

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=definitions)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = BY_NAME.get(params.name)
        if tool is None:
            raise MCPError(
                types.INVALID_PARAMS, f"Unknown tool {params.name!r}", {"tools": [t.name for t in TOOLS]}
            )
        return await call(tool, params.arguments or {}, ToolContext(state, caller_of(ctx.request)))

    return Server(
        NAME,
        version=__version__,
        title="regintel company registry",
        instructions=INSTRUCTIONS,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def call(tool: Tool, arguments: dict[str, Any], ctx: ToolContext) -> types.CallToolResult:
    try:
        args = tool.params.model_validate(arguments)
    except ValidationError as exc:
        details = [
            {
                "field": ".".join(str(p) for p in e["loc"]) or "arguments",
                "in": "arguments",
                "message": e["msg"],
                "type": e["type"],
            }
            for e in exc.errors()
        ]
        fields = ", ".join(sorted({d["field"] for d in details}))
        return error_result("VALIDATION_ERROR", f"Invalid arguments: {fields}", details)
    # The app's admission gate (api/db_gate.py), when it has one: a call takes a permit before its
    # connection, as a REST request does, so a busy process sheds it with OVERLOADED instead of queueing.
    gate = getattr(ctx.state, "db_gate", None)
    try:
        if gate is not None:
            await gate.acquire()
        try:
            result = await anyio.to_thread.run_sync(_run, tool, ctx, args)
        finally:
            if gate is not None:
                gate.release()
    except RegintelError as exc:
        return error_result(exc.code, exc.message, exc.details)
    except Exception:
        log.exception("MCP tool %s failed", tool.name)
        return error_result("INTERNAL_ERROR", "Internal error; the server log has the details")
    return types.CallToolResult(
        content=[types.TextContent(text=tool.text(result))], structured_content=result
    )


def _run(tool: Tool, ctx: ToolContext, args: Any) -> dict[str, Any]:
    """In a worker thread: one connection for the call; the result as the JSON the REST API sends."""
    with ctx.state.engine.connect() as conn:
        value = tool.run(conn, ctx, args)
    result: dict[str, Any] = orjson.loads(dumps(value))  # a tool's result is a JSON object
    return result


def error_result(code: str, message: str, details: Any = None) -> types.CallToolResult:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    text = f"{code}: {message}"
    if details is not None:
        text += "\n" + dumps(details).decode()
    return types.CallToolResult(
        content=[types.TextContent(text=text)], structured_content={"error": error}, is_error=True
    )
