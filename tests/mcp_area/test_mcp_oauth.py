"""`/mcp` under the MCP authorization specification (OAuth 2.1), on a real uvicorn server on 127.0.0.1: the
401 challenge names the endpoint's protected-resource metadata, the documents lead to the accounts area's
authorization server, and the official SDK client's own OAuth provider (discovery, dynamic registration,
authorization code with PKCE, token) ends with a token that lists and calls the tools."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import (
    AuthorizationCodeResult,
    OAuthClientInformationFull,
    OAuthClientMetadata,
    OAuthToken,
)

from regintel.api.app import create_app
from regintel.areas.mcp.tools import TOOLS
from tests.areas_accounts.fakes import serve
from tests.areas_accounts.test_oauth import browser
from tests.mcp_area.test_mcp_http import ACCEPT, INIT, SLOVNAFT, rest

# one client with a long timeout: the machine running the tests may be busy
web = httpx.Client(timeout=60)
REDIRECT = "http://127.0.0.1:9/callback"  # never called: the test reads the consent's Location header


@pytest.fixture
def base(settings) -> Iterator[str]:
    """The app on a free port with `base_url` where it listens (the OAuth issuer and resource names)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    with serve(create_app(settings.model_copy(update={"base_url": url})), sock) as served:
        yield served


def test_401_challenge_names_the_protected_resource_metadata(base):
    for path in ("/mcp", "/mcp/v1"):
        for headers, error in (
            ({}, ""),
            ({"Authorization": "Bearer rio_not_a_token"}, ', error="invalid_token"'),
        ):
            resp = web.post(base + path, json=INIT, headers=ACCEPT | headers)
            assert resp.status_code == 401 and resp.json()["error"]["code"] == "UNAUTHORIZED"
            metadata = f"{base}/.well-known/oauth-protected-resource{path}"
            assert resp.headers["www-authenticate"] == (
                f'Bearer realm="regintel", resource_metadata="{metadata}", scope="api"' + error
            )
            doc = web.get(metadata).json()
            assert doc["resource"] == base + path and doc["authorization_servers"] == [base]
            assert doc["bearer_methods_supported"] == ["header"] and doc["scopes_supported"] == ["api"]
    assert web.get(base + "/.well-known/oauth-protected-resource").json()["resource"] == base + "/api/v1"
    server_meta = web.get(base + "/.well-known/oauth-authorization-server").json()
    assert server_meta["issuer"] == base and "S256" in server_meta["code_challenge_methods_supported"]
    # the query-parameter key is a credential too: a bad one is an invalid token
    resp = web.post(base + "/mcp", params={"api_key": "nope"}, json=INIT, headers=ACCEPT)
    assert resp.status_code == 401 and resp.headers["www-authenticate"].endswith(', error="invalid_token"')


class Memory:
    """The SDK's TokenStorage protocol, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def test_the_sdk_clients_oauth_flow_then_tools(base, engine, data):
    """The SDK client starts without a credential, follows the 401 challenge to the metadata, registers
    itself (RFC 7591), sends the user to /oauth/authorize (here: the account approves through its session),
    exchanges the code and retries with the token."""
    http, csrf = browser(base, engine)
    redirected: list[str] = []
    codes: list[AuthorizationCodeResult] = []

    async def redirect_handler(url: str) -> None:
        redirected.append(url)
        path = url.removeprefix(base)
        consent = await anyio.to_thread.run_sync(lambda: http.get(path))
        assert consent.status_code == 200, consent.text
        assert consent.json()["data"]["registration"] == "dynamic"
        approved = await anyio.to_thread.run_sync(
            lambda: http.post(path, json={"approve": True}, headers=csrf)
        )
        assert approved.status_code == 302, approved.text
        query = parse_qs(urlsplit(approved.headers["location"]).query)
        codes.append(AuthorizationCodeResult(code=query["code"][0], state=query.get("state", [None])[0]))

    async def callback_handler() -> AuthorizationCodeResult:
        return codes[-1]

    storage = Memory()
    auth = OAuthClientProvider(
        base + "/mcp",
        OAuthClientMetadata(
            client_name="SDK test client",
            redirect_uris=[REDIRECT],
            grant_types=["authorization_code", "refresh_token"],
            response_types=["code"],
            token_endpoint_auth_method="none",
        ),
        storage,
        redirect_handler,
        callback_handler,
    )

    async def main() -> tuple[Any, Any]:
        async with (
            httpx2.AsyncClient(auth=auth, timeout=30) as client,
            streamable_http_client(base + "/mcp", http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await session.list_tools(), await session.call_tool(
                "get_company", {"national_id": SLOVNAFT, "country": "sk"}
            )

    listed, company = anyio.run(main)
    assert len(redirected) == 1
    params = parse_qs(urlsplit(redirected[0]).query)
    assert params["code_challenge_method"] == ["S256"] and params["resource"] == [base + "/mcp"]
    assert storage.tokens is not None and re.fullmatch(r"rio_\S+", storage.tokens.access_token)
    assert storage.client is not None and storage.client.client_id.startswith("ric_")
    assert len(listed.tools) == len(TOOLS)
    token = storage.tokens.access_token
    assert company.structured_content == rest(base, token, f"/api/v1/companies/SK/{SLOVNAFT}")
    # the token is limited and counted like a key of the account's plan, on /mcp as on REST
    resp = web.post(base + "/mcp", json=INIT, headers=ACCEPT | {"Authorization": f"Bearer {token}"})
    assert resp.status_code == 200 and "x-quota-remaining" in resp.headers
    revoked = web.post(base + "/oauth/revoke", data={"token": token, "client_id": storage.client.client_id})
    assert revoked.status_code == 200
    time.sleep(2.1)  # a process may remember a key for 2 s (db/keys.py KeyCache, docs/api.md)
    resp = web.post(base + "/mcp", json=INIT, headers=ACCEPT | {"Authorization": f"Bearer {token}"})
    assert resp.status_code == 401 and 'error="invalid_token"' in resp.headers["www-authenticate"]
