"""Local stand-ins for the outside services the accounts area talks to, served by a real uvicorn on
127.0.0.1: a fake of Stripe's API (the three calls the service makes) and a fake OpenID Connect provider
that signs ID tokens with a key made in the test (joserfc). Never the real services."""

from __future__ import annotations

import base64
import hashlib
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlencode

import uvicorn
from joserfc import jwt
from joserfc.jwk import RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route


@contextmanager
def serve(app: Any, sock: socket.socket | None = None) -> Iterator[str]:
    """Run an ASGI app on a bound socket (default: a free 127.0.0.1 port) for the block; yields its URL."""
    if sock is None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=3))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(10)


class FakeStripe:
    """Answers `POST /v1/customers`, `/v1/checkout/sessions` and `/v1/billing_portal/sessions` like Stripe
    (form-encoded bodies, bearer secret key) and records every call. `fail` makes the next calls answer a
    Stripe error with that status."""

    KEY = "sk_test_fake_" + "k" * 16

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, str], dict[str, str]]] = []
        self.fail: int | None = None
        self.app = Starlette(
            routes=[
                Route("/v1/customers", self.customers, methods=["POST"]),
                Route("/v1/checkout/sessions", self.checkout, methods=["POST"]),
                Route("/v1/billing_portal/sessions", self.portal, methods=["POST"]),
            ]
        )

    async def _read(self, request: Request) -> dict[str, str] | Response:
        form = {k: str(v) for k, v in (await request.form()).multi_items()}
        self.calls.append((request.url.path, dict(request.headers), form))
        if request.headers.get("authorization") != f"Bearer {self.KEY}":
            return JSONResponse(
                {"error": {"type": "invalid_request_error", "message": "Invalid API Key"}}, 401
            )
        if self.fail:
            return JSONResponse({"error": {"type": "api_error", "message": "fake failure"}}, self.fail)
        return form

    async def customers(self, request: Request) -> Response:
        form = await self._read(request)
        if isinstance(form, Response):
            return form
        return JSONResponse(
            {
                "id": "cus_" + secrets.token_hex(6),
                "object": "customer",
                "email": form.get("email"),
                "metadata": {"account_id": form.get("metadata[account_id]")},
            }
        )

    async def checkout(self, request: Request) -> Response:
        form = await self._read(request)
        if isinstance(form, Response):
            return form
        sid = "cs_test_" + secrets.token_hex(8)
        return JSONResponse(
            {
                "id": sid,
                "object": "checkout.session",
                "mode": form.get("mode"),
                "customer": form.get("customer"),
                "url": f"https://checkout.stripe.test/c/pay/{sid}",
                "expires_at": int(time.time()) + 86_400,
                "status": "open",
            }
        )

    async def portal(self, request: Request) -> Response:
        form = await self._read(request)
        if isinstance(form, Response):
            return form
        return JSONResponse(
            {
                "id": "bps_" + secrets.token_hex(6),
                "object": "billing_portal.session",
                "customer": form.get("customer"),
                "return_url": form.get("return_url"),
                "url": "https://billing.stripe.test/p/session/" + secrets.token_hex(6),
            }
        )


class FakeOidc:
    """A minimal OpenID Connect provider: discovery, JWKS, an authorize endpoint that signs `user` in at
    once (302 back with a code), and a token endpoint that checks the code, the client and PKCE, then
    answers an RS256 ID token. `user` and `tamper` let a test choose who signs in and what goes wrong."""

    CLIENT_ID = "regintel-test"
    CLIENT_SECRET = "oidc-secret-" + "s" * 12

    def __init__(self) -> None:
        self.key = RSAKey.generate_key(2048, parameters={"kid": "k1", "use": "sig", "alg": "RS256"})
        self.other_key = RSAKey.generate_key(2048, parameters={"kid": "k1"})
        self.issuer = ""
        self.user: dict[str, Any] = {"sub": "user-1", "email": "oidc@example.org", "email_verified": True}
        self.tamper: str | None = None  # "nonce" | "aud" | "iss" | "key" | "expired"
        self.codes: dict[str, dict[str, Any]] = {}
        self.app = Starlette(
            routes=[
                Route("/.well-known/openid-configuration", self.discovery),
                Route("/jwks", self.jwks),
                Route("/authorize", self.authorize),
                Route("/token", self.token, methods=["POST"]),
            ]
        )

    async def discovery(self, request: Request) -> Response:
        base = self.issuer
        return JSONResponse(
            {
                "issuer": base,
                "authorization_endpoint": f"{base}/authorize",
                "token_endpoint": f"{base}/token",
                "jwks_uri": f"{base}/jwks",
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["RS256"],
                "code_challenge_methods_supported": ["S256"],
            }
        )

    async def jwks(self, request: Request) -> Response:
        return JSONResponse({"keys": [self.key.as_dict(private=False)]})

    async def authorize(self, request: Request) -> Response:
        p = request.query_params
        if p.get("client_id") != self.CLIENT_ID or p.get("response_type") != "code":
            return JSONResponse({"error": "invalid_request"}, 400)
        code = secrets.token_urlsafe(16)
        self.codes[code] = {
            "nonce": p.get("nonce"),
            "challenge": p.get("code_challenge"),
            "redirect_uri": p.get("redirect_uri"),
            "user": dict(self.user),
        }
        return RedirectResponse(
            f"{p['redirect_uri']}?{urlencode({'code': code, 'state': p.get('state', '')})}", 302
        )

    async def token(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).multi_items()}
        auth = request.headers.get("authorization", "")
        secret_ok = (
            auth == "Basic " + base64.b64encode(f"{self.CLIENT_ID}:{self.CLIENT_SECRET}".encode()).decode()
        )
        grant = self.codes.pop(form.get("code", ""), None)
        if not secret_ok:
            return JSONResponse({"error": "invalid_client"}, 401)
        if grant is None or form.get("redirect_uri") != grant["redirect_uri"]:
            return JSONResponse({"error": "invalid_grant"}, 400)
        verifier = form.get("code_verifier", "")
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if challenge != grant["challenge"]:
            return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, 400)
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": self.CLIENT_ID,
            "iat": now,
            "exp": now + 300,
            "nonce": grant["nonce"],
            **grant["user"],
        }
        if self.tamper == "nonce":
            claims["nonce"] = "someone-elses"
        elif self.tamper == "aud":
            claims["aud"] = "another-client"
        elif self.tamper == "iss":
            claims["iss"] = "https://evil.example"
        elif self.tamper == "expired":
            claims["iat"], claims["exp"] = now - 7200, now - 3600
        key = self.other_key if self.tamper == "key" else self.key
        id_token = jwt.encode({"alg": "RS256", "kid": "k1"}, claims, key)
        return JSONResponse(
            {
                "access_token": secrets.token_urlsafe(16),
                "token_type": "Bearer",
                "expires_in": 300,
                "id_token": id_token,
            }
        )
