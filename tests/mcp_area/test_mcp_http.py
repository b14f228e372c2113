"""`/mcp` over a real uvicorn server, driven by the official MCP SDK client (Streamable HTTP): the
handshake, the 13 tools with strict input schemas, results equal to the REST API's for the same
company, tool errors with the REST error codes, and the transport's HTTP edges (401, 405, 403)."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest
from mcp.shared.exceptions import MCPError

from regintel.areas.mcp.toolkit import MARKETS
from regintel.areas.mcp.tools import TOOLS
from regintel.areas.search.company_filters import CompanyFilters
from regintel.domain.identifiers import IDENTIFIER_TYPES
from regintel.domain.timeline import EVENT_TYPES
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.mcp_area.conftest import mcp_session

# one client with a long timeout: the machine running the tests may be busy
web = httpx.Client(timeout=60)
SLOVNAFT = "31322832"
EXPECTED = {
    "search_companies",
    "get_company",
    "lookup_identifier",
    "company_brief",
    "company_timeline",
    "advanced_search",
    "insolvency_events",
    "monitoring_subscriptions",
    "credit_score",
    "nis2_scope",
    "company_relations",
    "ultimate_owner",
    "sanctions_screening",
}


def rest(server: str, key: str, path: str, **params: Any) -> Any:
    resp = web.get(server + path, params=params, headers={"Authorization": f"Bearer {key}"})
    assert resp.status_code == 200, resp.text
    return resp.json()["data"]


def calls(server: str, key: str, *wanted: tuple[str, dict[str, Any]]) -> list[Any]:
    """Call the tools in one SDK session; the results in order."""

    async def main() -> list[Any]:
        async with mcp_session(server + "/mcp", key) as session:
            return [await session.call_tool(name, args) for name, args in wanted]

    return anyio.run(main)


def test_handshake_and_tool_list(server, api_key):
    async def main() -> Any:
        async with mcp_session(server + "/mcp", api_key) as session:
            return await session.list_tools()

    listed = anyio.run(main).tools
    assert len(listed) == len(TOOLS) == 13  # spec 1: "It exposes 13 tools over this API"
    assert {t.name for t in listed} == EXPECTED
    for tool in listed:
        schema = tool.input_schema
        assert schema["type"] == "object" and schema["additionalProperties"] is False, tool.name
        assert tool.description and len(tool.description) > 60 and tool.annotations.read_only_hint
    by_name = {t.name: t for t in listed}
    # descriptions carry the API's own constants
    assert ", ".join(IDENTIFIER_TYPES) in by_name["lookup_identifier"].description
    assert MARKETS in by_name["get_company"].input_schema["properties"]["country"]["description"]
    assert MARKETS in by_name["get_company"].description
    assert f"the {len(CompanyFilters.model_fields)} filters" in by_name["advanced_search"].description
    assert ", ".join(CompanyFilters.model_fields) in by_name["advanced_search"].description
    assert ", ".join(EVENT_TYPES) in by_name["company_timeline"].description


def test_company_tools_answer_what_the_rest_api_answers(server, api_key, data):
    company, brief, by_vat, search, timeline = calls(
        server,
        api_key,
        ("get_company", {"national_id": SLOVNAFT, "country": "sk"}),
        ("company_brief", {"national_id": SLOVNAFT}),
        ("lookup_identifier", {"type": "vat", "value": "SK2020372640"}),
        ("search_companies", {"q": "slovnaft", "limit": 5}),
        ("company_timeline", {"national_id": "00177041", "country": "CZ"}),
    )
    assert not company.is_error
    assert company.structured_content == rest(server, api_key, f"/api/v1/companies/SK/{SLOVNAFT}")
    assert company.content[0].text.startswith(
        "SLOVNAFT, a.s. (SK 31322832), active; 2023 revenue 6,000,000,000 EUR, "
        "profit 100,000,000 EUR; sources: test_register (CC0 1.0)"
    )
    assert brief.structured_content == rest(server, api_key, "/api/v1/agent/company-brief", ico=SLOVNAFT)
    assert brief.content[0].text == brief.structured_content["headline"]
    assert by_vat.structured_content["items"] == rest(
        server, api_key, "/api/v1/companies/by-identifier", type="vat", value="SK2020372640"
    )
    assert search.structured_content["items"] == rest(
        server, api_key, "/api/v1/companies/search", q="slovnaft", limit=5
    )
    assert search.structured_content["items"][0]["nationalId"] == SLOVNAFT
    assert (
        timeline.structured_content["events"]
        == rest(server, api_key, "/api/v1/companies/00177041/timeline", country="cz", limit=50)["events"]
    )


def test_search_and_insolvency_tools(server, api_key, engine, data):
    load_companies(engine, CompanyRecord(country="SK", national_id="44444443", in_restructuring=True))
    advanced, insolvency = calls(
        server,
        api_key,
        ("advanced_search", {"country": ["sk"], "in_bankruptcy": True}),
        ("insolvency_events", {"scope": "any"}),
    )
    assert [c["nationalId"] for c in advanced.structured_content["items"]] == ["35757442"]
    assert advanced.structured_content["items"] == rest(
        server, api_key, "/api/v1/companies/advanced-search", country="sk", in_bankruptcy=1
    )
    assert [i["ico"] for i in insolvency.structured_content["items"]] == ["44444443"]
    assert (
        insolvency.structured_content["items"]
        == rest(server, api_key, "/api/v1/public/recent-bankruptcies.json", scope="any")["items"]
    )
    assert insolvency.structured_content["licence"]["id"] == "CC-BY-4.0"


def error_of(result: Any) -> dict[str, Any]:
    assert result.is_error
    error = result.structured_content["error"]
    assert result.content[0].text.startswith(error["code"] + ": ")
    return error  # type: ignore[no-any-return]


BAD_CALLS = [
    ("get_company", {"national_id": "00000000"}, "NOT_FOUND"),
    ("get_company", {"national_id": "12345678", "country": "sk"}, "VALIDATION_ERROR"),  # check digit
    ("get_company", {"national_id": SLOVNAFT, "countryy": "sk"}, "VALIDATION_ERROR"),  # unknown argument
    ("get_company", {}, "VALIDATION_ERROR"),
    ("get_company", {"national_id": 31322832}, "VALIDATION_ERROR"),
    ("get_company", {"national_id": "1" * 41}, "VALIDATION_ERROR"),
    ("search_companies", {"q": "   "}, "VALIDATION_ERROR"),
    ("search_companies", {"q": "x", "limit": 10_000}, "VALIDATION_ERROR"),
    ("lookup_identifier", {"type": "iban", "value": "x"}, "VALIDATION_ERROR"),
    ("lookup_identifier", {"type": "lei", "value": "not-a-lei"}, "VALIDATION_ERROR"),
    ("advanced_search", {"per_page": 51}, "VALIDATION_ERROR"),
    ("advanced_search", {"country": "sk"}, "VALIDATION_ERROR"),  # a list filter takes an array
    ("advanced_search", {"nace": ["Ω"]}, "VALIDATION_ERROR"),
    ("company_brief", {"national_id": SLOVNAFT, "purpose": "gossip"}, "VALIDATION_ERROR"),
    ("company_timeline", {"national_id": SLOVNAFT, "event_types": ["party"]}, "VALIDATION_ERROR"),
    ("company_timeline", {"national_id": SLOVNAFT, "cursor": "garbage!"}, "VALIDATION_ERROR"),
    ("insolvency_events", {"scope": "'; drop table companies; --"}, "VALIDATION_ERROR"),
    ("insolvency_events", {"limit": 0}, "VALIDATION_ERROR"),
    ("monitoring_subscriptions", {"status": "deleted"}, "VALIDATION_ERROR"),
    (
        "lookup_identifier",
        {"type": "vat", "value": "SK2020372640", "country": "sk", "extra": 1},
        "VALIDATION_ERROR",
    ),
]


def test_bad_arguments_are_tool_errors_with_rest_codes(server, api_key, data):
    """One session through all of them: an error never ends the session."""
    results = calls(server, api_key, *((name, args) for name, args, _ in BAD_CALLS))
    assert [(name, error_of(r)["code"]) for (name, _, _), r in zip(BAD_CALLS, results, strict=True)] == [
        (name, code) for name, _, code in BAD_CALLS
    ]


def test_ambiguous_identifier_lists_candidates_and_session_survives_errors(server, api_key, engine, data):
    load_companies(engine, CompanyRecord(country="CZ", national_id=SLOVNAFT, name="Slovnaft Česko s.r.o."))
    ambiguous, huge, fine = calls(
        server,
        api_key,
        ("get_company", {"national_id": SLOVNAFT}),
        ("search_companies", {"q": "ž" * 100_000}),
        ("get_company", {"national_id": SLOVNAFT, "country": "CZ"}),
    )
    error = error_of(ambiguous)
    assert error["code"] == "AMBIGUOUS_IDENTIFIER"
    assert {c["country"] for c in error["details"]["candidates"]} == {"SK", "CZ"}
    assert error_of(huge)["code"] == "VALIDATION_ERROR"
    assert fine.structured_content["name"] == "Slovnaft Česko s.r.o."


def test_unknown_tool_is_a_protocol_error(server, api_key):
    async def main() -> tuple[MCPError, Any]:
        async with mcp_session(server + "/mcp", api_key) as session:
            with pytest.raises(MCPError) as caught:
                await session.call_tool("no_such_tool", {})
            return caught.value, await session.call_tool("insolvency_events", {})

    error, after = anyio.run(main)
    assert error.code == -32602 and "no_such_tool" in error.message
    assert not after.is_error  # the session goes on


def test_monitoring_tool_lists_only_this_keys_subscriptions(server, api_key, make_key, data):
    other = make_key("business", name="other")
    for key, url in ((api_key, "http://127.0.0.1:9/a"), (other, "http://127.0.0.1:9/b")):
        resp = web.post(
            server + "/api/v1/monitoring/subscriptions",
            headers={"Authorization": f"Bearer {key}"},
            json={"ico": SLOVNAFT, "webhook_url": url},
        )
        assert resp.status_code == 201, resp.text
    (mine,) = calls(server, api_key, ("monitoring_subscriptions", {}))
    assert [s["webhook_url"] for s in mine.structured_content["items"]] == ["http://127.0.0.1:9/a"]
    assert mine.structured_content["items"] == rest(server, api_key, "/api/v1/monitoring/subscriptions")
    assert "secret" not in str(mine.structured_content)


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_without_a_valid_key_401_with_a_bearer_challenge(server, api_key, settings):
    # the challenge names the service's configured public address (REGINTEL_BASE_URL)
    metadata = (
        f'resource_metadata="{settings.base_url}/.well-known/oauth-protected-resource/mcp", scope="api"'
    )
    for headers, challenge in (
        ({}, f'Bearer realm="regintel", {metadata}'),
        (
            {"Authorization": "Bearer ri_unknown"},
            f'Bearer realm="regintel", {metadata}, error="invalid_token"',
        ),
    ):
        resp = web.post(server + "/mcp", json=INIT, headers=ACCEPT | headers)
        assert resp.status_code == 401 and resp.json()["error"]["code"] == "UNAUTHORIZED"
        assert resp.headers["www-authenticate"] == challenge
    for path in ("/mcp", "/mcp/v1"):
        resp = web.post(server + path, params={"api_key": api_key}, json=INIT, headers=ACCEPT)
        assert resp.status_code == 200 and resp.json()["result"]["serverInfo"]["name"] == "regintel"
    assert web.post(server + "/mcp/v1", json=INIT, headers=ACCEPT).status_code == 401

    async def main() -> None:
        async with mcp_session(server + "/mcp", None):
            pass

    with pytest.raises(BaseException):  # noqa: B017 - the SDK raises its transport error in an exception group
        anyio.run(main)


def test_counted_and_limited_like_keyed_calls(server, make_key):
    key = make_key("free")
    headers = ACCEPT | {"Authorization": f"Bearer {key}"}
    first = web.post(server + "/mcp", json=INIT, headers=headers)
    second = web.post(server + "/mcp", json=INIT | {"id": 2}, headers=headers)
    assert first.status_code == second.status_code == 200
    remaining = [int(r.headers["x-quota-remaining"]) for r in (first, second)]
    assert remaining[1] == remaining[0] - 1
    rest_call = web.get(server + "/api/v1/companies/stats", headers={"Authorization": f"Bearer {key}"})
    assert int(rest_call.headers["x-quota-remaining"]) == remaining[1] - 1  # one counter for both


def test_transport_edges(server, api_key):
    auth = {"Authorization": f"Bearer {api_key}"}
    for method in ("GET", "DELETE"):
        resp = web.request(method, server + "/mcp", headers=auth | ACCEPT)
        assert resp.status_code == 405 and resp.headers["allow"] == "OPTIONS, POST"
        assert resp.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
    resp = web.post(server + "/mcp", json=INIT, headers=auth | ACCEPT | {"Origin": "https://evil.example"})
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "FORBIDDEN"
    resp = web.post(
        server + "/mcp", content=b"{not json", headers=auth | ACCEPT | {"Content-Type": "application/json"}
    )
    assert resp.status_code == 400 and "error" in resp.json()
    resp = web.post(server + "/mcp", json=INIT, headers=auth | ACCEPT | {"Origin": "http://localhost:3000"})
    assert resp.status_code == 200


def test_options_allow_tells_the_truth(server, api_key):
    """`Allow` names only what the path serves: POST (GET and DELETE answer 405, as the Streamable HTTP
    transport provides for a server without a stream or a session), on both paths of the endpoint."""
    auth = {"Authorization": f"Bearer {api_key}"}
    for path in ("/mcp", "/mcp/v1"):
        resp = web.options(server + path)
        assert resp.status_code == 204
        assert resp.headers["allow"] == "OPTIONS, POST"
        for method in ("GET", "HEAD", "DELETE"):
            resp = web.request(method, server + path, headers=auth | ACCEPT)
            assert resp.status_code == 405
            assert resp.headers["allow"] == "OPTIONS, POST"


MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


def test_the_2026_per_request_revision(server, api_key, data):
    """The SDK also serves the 2026-07-28 revision (no handshake; each POST self-contained): the same
    key check, tools and caller."""
    headers = ACCEPT | {"Authorization": f"Bearer {api_key}", "MCP-Protocol-Version": MODERN}

    def post(method: str, params: dict[str, Any], **extra: str) -> Any:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {"_meta": META, **params}}
        resp = web.post(server + "/mcp", json=body, headers=headers | {"Mcp-Method": method} | extra)
        assert resp.status_code == 200, resp.text
        return resp.json()["result"]

    assert len(post("tools/list", {})["tools"]) == 13
    company = post(
        "tools/call",
        {"name": "get_company", "arguments": {"national_id": SLOVNAFT, "country": "SK"}},
        **{"Mcp-Name": "get_company"},
    )
    assert company["structuredContent"] == rest(server, api_key, f"/api/v1/companies/SK/{SLOVNAFT}")
    monitoring = post(
        "tools/call",
        {"name": "monitoring_subscriptions", "arguments": {}},
        **{"Mcp-Name": "monitoring_subscriptions"},
    )
    assert monitoring["structuredContent"] == {"items": [], "total": 0, "page": 1}  # the key reached the tool
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": META}}
    resp = web.post(
        server + "/mcp",
        json=body,
        headers=ACCEPT | {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/list"},
    )
    assert resp.status_code == 401
