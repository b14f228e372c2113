"""The official MCP SDK client of the 1.x line, run by `test_mcp_every_tool.py` in a virtual environment of
its own (the 1.x and 2.x lines cannot share one). Reads a JSON job on stdin:

    {"transport": "http", "url": "...", "headers": {...}, "calls": [[name, arguments], ...]}
    {"transport": "stdio", "command": "...", "args": [...], "env": {...}, "calls": [...]}

and prints one JSON object: the SDK's version, the negotiated protocol revision, the listed tools and each
call's result (as the SDK parsed them, by their wire names)."""

from __future__ import annotations

import json
import sys
from importlib.metadata import version
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client


async def run(session: ClientSession, job: dict[str, Any]) -> dict[str, Any]:
    init = await session.initialize()
    listed = await session.list_tools()
    results = [await session.call_tool(name, args) for name, args in job["calls"]]
    return {
        "sdk": version("mcp"),
        "protocol": init.protocolVersion,
        "tools": [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools],
        "results": [r.model_dump(mode="json", by_alias=True, exclude_none=True) for r in results],
    }


async def main(job: dict[str, Any]) -> dict[str, Any]:
    if job["transport"] == "http":
        async with (
            streamablehttp_client(job["url"], headers=job.get("headers")) as (read, write, _),
            ClientSession(read, write) as session,
        ):
            return await run(session, job)
    server = StdioServerParameters(command=job["command"], args=job["args"], env=job["env"])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        return await run(session, job)


if __name__ == "__main__":
    print(json.dumps(anyio.run(main, json.load(sys.stdin))))
