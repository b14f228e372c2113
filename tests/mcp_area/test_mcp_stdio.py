"""`regintel mcp`: the same tools over stdio, started as a subprocess by the official SDK client."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from regintel.areas.mcp.tools import TOOLS

SLOVNAFT = "31322832"


def params(settings, *args: str) -> StdioServerParameters:
    env = {
        "REGINTEL_DATABASE_URL": settings.database_url,
        "REGINTEL_DATA_DIR": str(settings.data_dir),
        "REGINTEL_RATE_LIMIT_STORAGE": "sqlite",
        "REGINTEL_LOG_LEVEL": "WARNING",
    }
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return StdioServerParameters(command=sys.executable, args=["-m", "regintel", "mcp", *args], env=env)


def session_run(server: StdioServerParameters, *wanted: tuple[str, dict[str, Any]]) -> tuple[Any, list[Any]]:
    async def main() -> tuple[Any, list[Any]]:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            return listed, [await session.call_tool(name, args) for name, args in wanted]

    return anyio.run(main)


def test_stdio_lists_and_calls_the_tools(settings, client, auth, api_key, data):
    listed, (company, brief, bad, monitoring) = session_run(
        params(settings, "--api-key", api_key),
        ("get_company", {"national_id": SLOVNAFT, "country": "SK"}),
        ("company_brief", {"national_id": "35757442"}),
        ("get_company", {"national_id": SLOVNAFT, "extra": 1}),
        ("monitoring_subscriptions", {}),
    )
    assert [t.name for t in listed.tools] == [t.name for t in TOOLS]
    assert (
        company.structured_content
        == client.get(f"/api/v1/companies/SK/{SLOVNAFT}", headers=auth).json()["data"]
    )
    assert (
        brief.structured_content
        == client.get("/api/v1/agent/company-brief", params={"ico": "35757442"}, headers=auth).json()["data"]
    )
    assert brief.structured_content["flags"][0]["code"] == "IN_BANKRUPTCY"
    assert bad.is_error and bad.structured_content["error"]["code"] == "VALIDATION_ERROR"
    assert monitoring.structured_content == {"items": [], "total": 0, "page": 1}


def test_stdio_without_a_key_and_with_a_bad_one(settings, data):
    _, (company, monitoring) = session_run(
        params(settings), ("get_company", {"national_id": SLOVNAFT}), ("monitoring_subscriptions", {})
    )
    assert company.structured_content["nationalId"] == SLOVNAFT
    assert monitoring.is_error and monitoring.structured_content["error"]["code"] == "UNAUTHORIZED"
    run = subprocess.run(
        [sys.executable, "-m", "regintel", "mcp", "--api-key", "ri_nope"],
        input="",
        capture_output=True,
        text=True,
        timeout=180,
        env=os.environ | params(settings).env,
    )
    assert run.returncode == 1 and "UNAUTHORIZED" in run.stderr and run.stdout == ""
