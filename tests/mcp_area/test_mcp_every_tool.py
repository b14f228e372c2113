"""Every one of the 13 tools, called by real clients over both transports: the official SDK client of the 2.x
line (the project's) and of the 1.x line (in a virtual environment this module builds once), over Streamable
HTTP on a real uvicorn server and over stdio (`regintel mcp` as a subprocess), and the MCP Inspector CLI
from npm. Arguments are checked against the listed input schema with a JSON Schema validator; each result
equals its REST route's answer; an unknown argument is refused by the schema and by the server."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from regintel.areas.mcp.tools import TOOLS
from tests.mcp_area.test_mcp_http import SLOVNAFT, mcp_session, rest
from tests.mcp_area.test_mcp_stdio import params
from tests.screening.support import load_lists

Pick = Callable[[Any], Any]
ITEMS: Pick = lambda r: r["items"]  # noqa: E731 - a REST list answer is the tool's `items`
WHOLE: Pick = lambda r: r  # noqa: E731
CZ = "00177041"
# tool, arguments, the REST route answering the same, its query parameters, and the part of the tool's result
# that equals the REST answer's `data` (the whole of it unless said)
CALLS: list[tuple[str, dict[str, Any], str, dict[str, Any], Pick]] = [
    (
        "search_companies",
        {"q": "slovnaft", "limit": 5},
        "/api/v1/companies/search",
        {"q": "slovnaft", "limit": 5},
        ITEMS,
    ),
    (
        "get_company",
        {"national_id": SLOVNAFT, "country": "sk"},
        f"/api/v1/companies/SK/{SLOVNAFT}",
        {},
        WHOLE,
    ),
    (
        "lookup_identifier",
        {"type": "vat", "value": "SK2020372640"},
        "/api/v1/companies/by-identifier",
        {"type": "vat", "value": "SK2020372640"},
        ITEMS,
    ),
    ("company_brief", {"national_id": SLOVNAFT}, "/api/v1/agent/company-brief", {"ico": SLOVNAFT}, WHOLE),
    (
        "company_timeline",
        {"national_id": CZ, "country": "cz"},
        f"/api/v1/companies/{CZ}/timeline",
        {"country": "cz", "limit": 50},
        lambda r: {"events": r["events"]},
    ),
    (
        "advanced_search",
        {"country": ["sk"], "sort": "name"},
        "/api/v1/companies/advanced-search",
        {"country": "sk"},
        ITEMS,
    ),
    (
        "insolvency_events",
        {"scope": "any"},
        "/api/v1/public/recent-bankruptcies.json",
        {"scope": "any"},
        lambda r: {"items": r["items"]},
    ),
    ("monitoring_subscriptions", {}, "/api/v1/monitoring/subscriptions", {}, ITEMS),
    (
        "credit_score",
        {"national_id": SLOVNAFT, "country": "sk"},
        f"/api/v1/companies/{SLOVNAFT}/credit-score",
        {},
        WHOLE,
    ),
    ("nis2_scope", {"national_id": SLOVNAFT}, f"/api/v1/companies/{SLOVNAFT}/nis2", {}, WHOLE),
    ("company_relations", {"national_id": SLOVNAFT}, f"/api/v1/companies/{SLOVNAFT}/relations", {}, WHOLE),
    (
        "ultimate_owner",
        {"national_id": SLOVNAFT, "max_depth": 5},
        f"/api/v1/companies/{SLOVNAFT}/ultimate-owner",
        {"max_depth": 5},
        WHOLE,
    ),
    (
        "sanctions_screening",
        {"national_id": SLOVNAFT, "threshold": 0.5},
        f"/api/v1/companies/{SLOVNAFT}/sanctions",
        {"threshold": 0.5},
        WHOLE,
    ),
]
UNKNOWN = [(name, args | {"unexpected": 1}) for name, args, *_ in CALLS]


def rest_part(pick: Pick, data: Any) -> Any:
    """The REST answer's `data` cut as the tool's result is (a timeline's or a feed's events only)."""
    return data if pick in (ITEMS, WHOLE) else pick(data)


def check(tools: list[dict[str, Any]], results: list[dict[str, Any]], server: str, key: str) -> None:
    """`tools` and `results` as JSON (the wire names): the 13 tools, the valid calls then the unknown-argument
    calls."""
    assert [t["name"] for t in tools] == [t.name for t in TOOLS]
    schemas = {t["name"]: t["inputSchema"] for t in tools}
    for name, schema in schemas.items():
        Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False, name
    assert len(results) == 2 * len(CALLS)
    for (name, args, path, query, pick), result in zip(CALLS, results, strict=False):
        Draft202012Validator(schemas[name]).validate(args)
        assert not result.get("isError"), (name, result)
        assert result["content"][0]["type"] == "text" and result["content"][0]["text"], name
        assert pick(result["structuredContent"]) == rest_part(pick, rest(server, key, path, **query)), name
    for (name, args), result in zip(UNKNOWN, results[len(CALLS) :], strict=True):
        assert not Draft202012Validator(schemas[name]).is_valid(args), name
        assert result["isError"] and result["structuredContent"]["error"]["code"] == "VALIDATION_ERROR", name
        assert "unexpected" in result["content"][0]["text"], name


@pytest.fixture
def world(engine, data):
    load_lists(engine)  # sanctions lists, so the screening tool has something to screen against


def wire(tool_or_result: Any) -> dict[str, Any]:
    return tool_or_result.model_dump(mode="json", by_alias=True, exclude_none=True)  # type: ignore[no-any-return]


def test_sdk_2x_over_http_every_tool(server, api_key, world):
    async def main() -> tuple[Any, list[Any]]:
        async with mcp_session(server + "/mcp", api_key) as session:
            listed = await session.list_tools()
            return listed, [await session.call_tool(n, a) for n, a in [(c[0], c[1]) for c in CALLS] + UNKNOWN]

    listed, results = anyio.run(main)
    check([wire(t) for t in listed.tools], [wire(r) for r in results], server, api_key)


def test_sdk_2x_over_stdio_every_tool(server, settings, api_key, world):
    async def main() -> tuple[Any, list[Any]]:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        async with (
            stdio_client(params(settings, "--api-key", api_key)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.list_tools()
            return listed, [await session.call_tool(n, a) for n, a in [(c[0], c[1]) for c in CALLS] + UNKNOWN]

    listed, results = anyio.run(main)
    check([wire(t) for t in listed.tools], [wire(r) for r in results], server, api_key)


# -- the 1.x line -------------------------------------------------------------------------------------------

SDK1 = "mcp>=1.25,<2"


def _cache_dir() -> Path:
    """Where the 1.x environment is kept between runs (CI may cache it): REGINTEL_TEST_CACHE, else
    $XDG_CACHE_HOME or ~/.cache, under regintel-tests/."""
    root = os.environ.get("REGINTEL_TEST_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "regintel-tests"
    )
    return Path(root)


@pytest.fixture(scope="session")
def sdk1_python() -> str:
    """The Python of a virtual environment holding the SDK's 1.x line, built once (under a lock, as xdist
    workers start together) with this interpreter's venv and pip from the package index."""
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    home = _cache_dir() / f"mcp-sdk1-{tag}"
    python = home / "bin" / "python"
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f"mcp-sdk1-{tag}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        ready = home / ".ready"
        if not ready.exists():
            shutil.rmtree(home, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", str(home)], check=True, timeout=300)
            run = subprocess.run(
                [str(python), "-m", "pip", "install", "-q", SDK1], capture_output=True, text=True, timeout=900
            )
            assert run.returncode == 0, f"could not install {SDK1} into {home}: {run.stderr[-2000:]}"
            ready.write_text(SDK1)
    return str(python)


def sdk1(python: str, job: dict[str, Any]) -> dict[str, Any]:
    job = job | {"calls": [[c[0], c[1]] for c in CALLS] + [[n, a] for n, a in UNKNOWN]}
    run = subprocess.run(
        [python, str(Path(__file__).with_name("sdk1_client.py"))],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    out: dict[str, Any] = json.loads(run.stdout)
    assert out["sdk"].startswith("1.") and out["protocol"] == "2025-11-25", out["sdk"]
    return out


def test_sdk_1x_over_http_every_tool(server, api_key, world, sdk1_python):
    out = sdk1(
        sdk1_python,
        {"transport": "http", "url": server + "/mcp", "headers": {"Authorization": f"Bearer {api_key}"}},
    )
    check(out["tools"], out["results"], server, api_key)


def test_sdk_1x_over_stdio_every_tool(server, settings, api_key, world, sdk1_python):
    stdio = params(settings, "--api-key", api_key)
    out = sdk1(
        sdk1_python, {"transport": "stdio", "command": stdio.command, "args": stdio.args, "env": stdio.env}
    )
    check(out["tools"], out["results"], server, api_key)


# -- the MCP Inspector CLI (npm) ---------------------------------------------------------------------------

INSPECTOR = "@modelcontextprotocol/inspector@0.17"


@pytest.mark.skipif(shutil.which("npx") is None, reason="npx (npm) is not installed")
def test_inspector_cli_lists_and_calls_the_tools(server, api_key, world):
    def inspector(*args: str) -> Any:
        run = subprocess.run(
            [
                "npx",
                "-y",
                INSPECTOR,
                "--cli",
                server + "/mcp",
                "--transport",
                "http",
                "--header",
                f"Authorization: Bearer {api_key}",
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert run.returncode == 0, run.stderr[-4000:] + run.stdout[-2000:]
        return json.loads(run.stdout)

    listed = inspector("--method", "tools/list")
    assert [t["name"] for t in listed["tools"]] == [t.name for t in TOOLS]
    # the CLI reads a value as JSON when it can: a bare 31322832 is a number, which the strict schema refuses
    refused = inspector(
        "--method", "tools/call", "--tool-name", "get_company", "--tool-arg", f"national_id={SLOVNAFT}"
    )
    assert refused["isError"] and refused["structuredContent"]["error"]["code"] == "VALIDATION_ERROR"
    called = inspector(
        "--method",
        "tools/call",
        "--tool-name",
        "get_company",
        "--tool-arg",
        f'national_id="{SLOVNAFT}"',
        "--tool-arg",
        "country=sk",
    )
    assert called["structuredContent"] == rest(server, api_key, f"/api/v1/companies/SK/{SLOVNAFT}")
