"""OAuth 2.1 authorization server (authlib): authorization code with PKCE S256 only, public clients
registered on the account page or through RFC 7591 dynamic registration (what MCP clients do), refresh
tokens rotated on every use with reuse detection, RFC 7009 revocation; no implicit or password grant
(docs/accounts.md, "OAuth 2.1").

An access token (`rio_…`, 1 hour) is stored as an `api_keys` row (its SHA-256, the account's plan), so the
unchanged key check of every keyed route accepts it as `Authorization: Bearer`, counted and limited like a
key of that plan; `oauth_tokens` records which client obtained it (revoking the client revokes them). Each
refresh moves the row to the new token (one authorization, one key: its quota goes on).
A refresh token (`rir_…`, 30 days) is single use: each use answers a new pair, and presenting a used one
again revokes its whole family (every refresh and access token descended from the same authorization).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from authlib.oauth2 import AuthorizationServer as _Server
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import (
    ClientMixin,
    InvalidGrantError,
    InvalidRequestError,
    OAuth2Payload,
    OAuth2Request,
)
from authlib.oauth2.rfc6749.grants import AuthorizationCodeGrant, RefreshTokenGrant
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7591 import (
    ClientRegistrationEndpoint,
    InvalidClientMetadataError,
    InvalidRedirectURIError,
)
from authlib.oauth2.rfc7636 import CodeChallenge
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.engine import Connection

from regintel.areas.accounts import queries as q
from regintel.errors import NotFound, ValidationFailed

SCOPE = "api"
TOKEN_PREFIX, REFRESH_PREFIX = "rio_", "rir_"
TOKEN_SECONDS = 3600
REFRESH_DAYS = 30
CODE_SECONDS = 600
GRANTS = ("authorization_code", "refresh_token")


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class Client(ClientMixin):
    def __init__(self, row: Mapping[str, Any]):
        self.client_id = str(row["client_id"])
        self.redirect_uris: list[str] = json.loads(row["redirect_uris"])
        self.name = str(row["name"])
        self.registration = str(row["registration"])

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        return self.redirect_uris[0] if len(self.redirect_uris) == 1 else None

    def get_allowed_scope(self, scope: str | None) -> str:
        return SCOPE

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in self.redirect_uris  # exact match (OAuth 2.1)

    def check_client_secret(self, client_secret: str) -> bool:
        return False  # public clients only

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        return method == "none"

    def check_response_type(self, response_type: str) -> bool:
        return response_type == "code"

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in GRANTS


class Account:
    def __init__(self, session: Mapping[str, Any]):
        self.id = int(session["account_id"])
        self.plan = str(session["plan"])


class Code:
    def __init__(self, row: Mapping[str, Any]):
        self.row = row
        self.code_challenge = row["code_challenge"]
        self.code_challenge_method = row["code_challenge_method"]

    def get_redirect_uri(self) -> str:
        return str(self.row["redirect_uri"])

    def get_scope(self) -> str:
        return str(self.row["scope"])


class _Payload(OAuth2Payload):
    def __init__(self, data: dict[str, str], datalist: dict[str, list[str]]):
        self._data, self._datalist = data, datalist

    @property
    def data(self) -> dict[str, str]:
        return self._data

    @property
    def datalist(self) -> dict[str, list[str]]:
        return self._datalist


class Req(OAuth2Request):
    """A parsed HTTP request for authlib, carrying the database connection the grant uses."""

    def __init__(
        self,
        method: str,
        uri: str,
        headers: Mapping[str, str],
        pairs: list[tuple[str, str]],
        conn: Connection,
    ):
        super().__init__(method, uri, headers=dict(headers))
        datalist: dict[str, list[str]] = {}
        for k, v in pairs:
            datalist.setdefault(k, []).append(v)
        self._form = {k: v[0] for k, v in datalist.items()}
        self.payload = _Payload(self._form, datalist)
        self.conn = conn

    @property
    def args(self) -> dict[str, str]:
        return self._form

    @property
    def form(self) -> dict[str, str]:
        return self._form


class S256Only(CodeChallenge):
    """PKCE on every authorization request, with S256 only (OAuth 2.1; `plain` is refused)."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]  # noqa: RUF012 (authlib's class attribute)

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        data = grant.request.payload.data
        if not data.get("code_challenge"):
            raise InvalidRequestError("PKCE is required: send code_challenge with code_challenge_method=S256")
        if data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("Only code_challenge_method=S256 is supported")
        super().validate_code_challenge(grant, redirect_uri)


class CodeGrant(AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]  # noqa: RUF012 (authlib's class attribute)

    def save_authorization_code(self, code: str, request: Req) -> None:
        data = request.payload.data
        q.insert_code(
            request.conn,
            code_hash=_hash(code),
            client_id=request.client.get_client_id(),
            account_id=request.user.id,
            redirect_uri=data.get("redirect_uri") or "",
            scope=SCOPE,
            code_challenge=data["code_challenge"],
            code_challenge_method=data.get("code_challenge_method") or "S256",
            created_at=datetime.now(UTC),
        )

    def query_authorization_code(self, code: str, client: Client) -> Code | None:
        conn = self.request.conn
        row = q.get_code(conn, _hash(code))
        if row is None or row["client_id"] != client.get_client_id() or row["used_at"] is not None:
            return None
        if _aware(row["created_at"]) + timedelta(seconds=CODE_SECONDS) <= datetime.now(UTC):
            return None
        return Code(row)

    def delete_authorization_code(self, authorization_code: Code) -> None:
        q.use_code(self.request.conn, authorization_code.row["code_hash"], datetime.now(UTC))

    def authenticate_user(self, authorization_code: Code) -> Account | None:
        account = q.get_account(self.request.conn, authorization_code.row["account_id"])
        return Account({"account_id": account["id"], "plan": account["plan"]}) if account else None


class Refresh:
    """A stored refresh token, as authlib's refresh grant reads it."""

    def __init__(self, row: Mapping[str, Any]):
        self.row = row

    def check_client(self, client: Client) -> bool:
        return bool(self.row["client_id"] == client.get_client_id())

    def get_scope(self) -> str:
        return SCOPE


class Access(Refresh):
    """An access token (its `oauth_tokens` row), for revocation."""


class RotatingRefreshGrant(RefreshTokenGrant):
    """Refresh with rotation (OAuth 2.1 4.3.1 for public clients): every use answers a new refresh token and
    ends the old one; a used or revoked token presented again revokes its family and is refused."""

    TOKEN_ENDPOINT_AUTH_METHODS = ["none"]  # noqa: RUF012 (authlib's class attribute)
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token: str) -> Refresh | None:
        conn = self.request.conn
        row = q.get_refresh(conn, _hash(refresh_token))
        if row is None:
            return None
        now = datetime.now(UTC)
        if row["used_at"] is not None or row["revoked_at"] is not None:
            q.revoke_family(conn, row["family_id"], now)  # reuse: someone else may hold the family
            return None
        if _aware(row["expires_at"]) <= now:
            return None
        return Refresh(row)

    def authenticate_user(self, refresh_token: Refresh) -> Account | None:
        account = q.get_account(self.request.conn, refresh_token.row["account_id"])
        return Account({"account_id": account["id"], "plan": account["plan"]}) if account else None

    def revoke_old_credential(self, refresh_token: Refresh) -> None:
        conn = self.request.conn
        now = datetime.now(UTC)
        if not q.use_refresh(conn, refresh_token.row["token_hash"], now):  # a concurrent use won the race
            q.revoke_family(conn, refresh_token.row["family_id"], now)
            raise InvalidGrantError("The refresh token was used already; its tokens are revoked")


class Revocation(RevocationEndpoint):
    """RFC 7009 for public clients (`client_id` in the form): a refresh token revokes its family, an
    access token itself. Unknown tokens answer 200 as the RFC requires."""

    CLIENT_AUTH_METHODS = ["none"]  # noqa: RUF012 (authlib's class attribute)

    def query_token(self, token_string: str, token_type_hint: str | None) -> Any:
        conn = self.server.conn
        digest = _hash(token_string)
        if token_string.startswith(REFRESH_PREFIX):
            row = q.get_refresh(conn, digest)
            return Refresh(row) if row is not None else None
        access = q.get_access(conn, digest)
        return Access(access) if access is not None else None

    def revoke_token(self, token: Refresh, request: Req) -> None:
        now = datetime.now(UTC)
        if isinstance(token, Access):
            q.revoke_access(self.server.conn, token.row["api_key_id"], now)
        else:
            q.revoke_family(self.server.conn, token.row["family_id"], now)


class Server(_Server):
    def __init__(self) -> None:
        super().__init__(scopes_supported=[SCOPE])
        self.register_token_generator(
            "default",
            BearerTokenGenerator(
                lambda *a, **k: TOKEN_PREFIX + secrets.token_urlsafe(32),
                refresh_token_generator=lambda *a, **k: REFRESH_PREFIX + secrets.token_urlsafe(32),
                expires_generator=lambda client, grant_type: TOKEN_SECONDS,
            ),
        )
        self.register_grant(CodeGrant, [S256Only(required=True)])
        self.register_grant(RotatingRefreshGrant)
        self.register_endpoint(Revocation)

    def query_client(self, client_id: str) -> Client | None:
        raise NotImplementedError  # needs the connection: see `query_client_on`

    def create_oauth2_request(self, request: Req) -> Req:
        return request

    def handle_response(self, status: int, body: Any, headers: list[tuple[str, str]]) -> Response:
        heads = dict(headers)
        if status == 302:
            return RedirectResponse(heads.pop("Location"), status_code=302, headers=heads)
        return JSONResponse(
            body if isinstance(body, dict) else json.loads(body or "{}"), status_code=status, headers=heads
        )

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        return None

    def save_token(self, token: dict[str, Any], request: Req) -> None:
        now = datetime.now(UTC)
        raw = token["access_token"]
        client: Client = request.client
        old = getattr(request, "refresh_token", None)
        expires = now + timedelta(seconds=TOKEN_SECONDS)
        if isinstance(old, Refresh) and old.row["api_key_id"] is not None:
            # One authorization is one key: a refresh puts the new token on the key of the one it replaces,
            # so the quota, the rate window and the jobs and reports made with it carry on (a new key per
            # token gave a client a fresh monthly quota every hour).
            key_id = int(old.row["api_key_id"])
            q.rotate_token(request.conn, key_id, _hash(raw), raw[:8], request.user.plan, expires)
        else:
            key_id = q.insert_token(
                request.conn,
                name=f"oauth:{client.name}"[:100],
                plan=request.user.plan,
                key_hash=_hash(raw),
                prefix=raw[:8],
                now=now,
                expires=expires,
                client_id=client.client_id,
                account_id=request.user.id,
            )
        refresh = token.get("refresh_token")
        if refresh:
            family = old.row["family_id"] if isinstance(old, Refresh) else secrets.token_hex(16)
            q.insert_refresh(
                request.conn,
                token_hash=_hash(refresh),
                family_id=family,
                client_id=client.client_id,
                account_id=request.user.id,
                api_key_id=key_id,
                created_at=now,
                expires_at=now + timedelta(days=REFRESH_DAYS),
            )


class _ConnServer(Server):
    def __init__(self, conn: Connection):
        super().__init__()
        self.conn = conn

    def query_client(self, client_id: str) -> Client | None:
        row = q.get_client(self.conn, client_id) if client_id else None
        return Client(row) if row is not None and row["revoked_at"] is None else None


def server(conn: Connection) -> _ConnServer:
    return _ConnServer(conn)


class JsonReq(Req):
    """A request whose body is a JSON object (dynamic client registration)."""

    def __init__(
        self, method: str, uri: str, headers: Mapping[str, str], body: dict[str, Any], conn: Connection
    ):
        super().__init__(method, uri, headers, [], conn)
        self.payload = _Payload(body, {})  # authlib reads the JSON values as they are


class Registration(ClientRegistrationEndpoint):
    """RFC 7591 dynamic registration, open to anyone (the MCP authorization spec expects it): a public
    client (PKCE, no secret) for the authorization code and refresh grants; redirect URIs as on the account
    page. The client belongs to no account; any signed-in account may then authorize it, after consent."""

    def __init__(self, server: _ConnServer, base: str):
        super().__init__(server)
        self.base = base

    def authenticate_token(self, request: JsonReq) -> dict[str, bool]:
        return {"anonymous": True}  # open registration; the per-IP limit of public routes applies

    def get_server_metadata(self) -> dict[str, Any]:
        return metadata(self.base)

    def create_endpoint_request(self, request: JsonReq) -> JsonReq:
        return request

    def extract_client_metadata(self, request: JsonReq) -> dict[str, Any]:
        data = request.payload.data
        method = data.get("token_endpoint_auth_method", "none")
        if method != "none":
            raise InvalidClientMetadataError(
                "Only public clients are registered: token_endpoint_auth_method "
                "must be `none` (PKCE S256 protects the code)"
            )
        uris = data.get("redirect_uris")
        if (
            not isinstance(uris, list)
            or not uris
            or len(uris) > 10
            or not all(isinstance(u, str) for u in uris)
        ):
            raise InvalidRedirectURIError("redirect_uris: 1 to 10 URIs are required")
        for uri in uris:
            try:
                _check_redirect(uri)
            except ValidationFailed as error:
                raise InvalidRedirectURIError(f"{uri[:200]!r}: {error}") from None
        checked: dict[str, Any] = super().extract_client_metadata(request)
        name = checked.get("client_name")
        if name is not None and (not isinstance(name, str) or len(name) > 100):
            raise InvalidClientMetadataError("client_name: a string of at most 100 characters")
        # What is registered (and answered): other metadata (logo_uri, jwks_uri, ...) is ignored, never
        # fetched.
        return {
            "redirect_uris": list(checked["redirect_uris"]),
            "client_name": (name or "").strip() or "MCP client",
            "token_endpoint_auth_method": "none",
            "grant_types": list(GRANTS),
            "response_types": ["code"],
            "scope": SCOPE,
        }

    def generate_client_info(self, request: JsonReq) -> dict[str, Any]:
        return {"client_id": "ric_" + secrets.token_urlsafe(18), "client_id_issued_at": int(time.time())}

    def save_client(
        self, client_info: dict[str, Any], client_metadata: dict[str, Any], request: JsonReq
    ) -> None:
        q.insert_client(
            request.conn,
            client_info["client_id"],
            None,
            client_metadata["client_name"],
            json.dumps(client_metadata["redirect_uris"]),
            datetime.now(UTC),
            registration="dynamic",
        )


def register(conn: Connection, base: str, body: Any, headers: Mapping[str, str]) -> Response:
    """RFC 7591: 201 with the client's metadata, or 400 `invalid_client_metadata` / `invalid_redirect_uri`."""
    srv = server(conn)
    if not isinstance(body, dict):
        return srv.handle_response(
            400,
            {"error": "invalid_client_metadata", "error_description": "The body must be a JSON object"},
            [],
        )
    srv.register_endpoint(Registration(srv, base))
    req = JsonReq("POST", f"{base}/oauth/register", headers, body, conn)
    answer: Response = srv.create_endpoint_response("client_registration", req)
    return answer


def revoke(conn: Connection, req: Req) -> Response:
    answer: Response = server(conn).create_endpoint_response("revocation", req)
    return answer


def validate(conn: Connection, req: Req, account: Mapping[str, Any] | None) -> Response | dict[str, Any]:
    """Check an authorization request: the consent details, or the error response (a redirect to the
    client for errors after the redirect URI is known, JSON before)."""
    srv = server(conn)
    try:
        grant = srv.get_consent_grant(req, end_user=Account(account) if account else None)
    except OAuth2Error as error:
        refused: Response = srv.handle_error_response(req, error)  # our `handle_response` builds it
        return refused
    client: Client = grant.client
    return {
        "client_id": client.client_id,
        "client_name": client.name,
        "scope": SCOPE,
        "redirect_uri": grant.redirect_uri,
        "registration": client.registration,
    }


def authorize(conn: Connection, req: Req, account: Mapping[str, Any], approve: bool) -> Response:
    """Issue a code (redirect to the client) or redirect with `access_denied`; a request that does not
    validate gets the same error answer as `validate`."""
    srv = server(conn)
    user = Account(account)
    try:
        grant = srv.get_consent_grant(req, end_user=user)
    except OAuth2Error as error:
        refused: Response = srv.handle_error_response(req, error)  # our `handle_response` builds it
        return refused
    answer: Response = srv.create_authorization_response(
        req, grant_user=user if approve else None, grant=grant
    )
    return answer


def token(conn: Connection, req: Req) -> Response:
    answer: Response = server(conn).create_token_response(req)  # our `handle_response` builds it
    return answer


def _check_redirect(uri: str) -> str:
    """https, or http on a loopback address (RFC 8252 native apps); no fragment."""
    parts = urlsplit(uri)
    loopback = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
    if not (parts.scheme == "https" or loopback) or not parts.hostname or parts.fragment:
        raise ValidationFailed(
            "A redirect URI must be https (or http on a loopback address) without fragment",
            details=[{"field": "redirect_uris", "in": "body", "reason": "redirect_uri", "value": uri[:200]}],
        )
    return uri


def create_client(conn: Connection, account_id: int, name: str, redirect_uris: list[str]) -> dict[str, Any]:
    uris = [_check_redirect(u) for u in redirect_uris]
    client_id = "ric_" + secrets.token_urlsafe(18)
    now = datetime.now(UTC)
    q.insert_client(conn, client_id, account_id, name, json.dumps(uris), now)
    return client_out(_stored_client(conn, client_id))  # inserted just above


def _stored_client(conn: Connection, client_id: str) -> Mapping[str, Any]:
    row = q.get_client(conn, client_id)
    assert row is not None, f"OAuth client {client_id} not stored"
    return row


def client_out(row: Mapping[str, Any]) -> dict[str, Any]:
    revoked = row["revoked_at"]
    return {
        "client_id": row["client_id"],
        "name": row["name"],
        "redirect_uris": json.loads(row["redirect_uris"]),
        "token_endpoint_auth_method": "none",
        "grant_types": list(GRANTS),
        "created_at": _aware(row["created_at"]),
        "revoked_at": _aware(revoked) if revoked else None,
    }


def revoke_client(conn: Connection, account_id: int, client_id: str) -> dict[str, Any]:
    row = q.get_client(conn, client_id)
    if row is None or row["account_id"] is None or row["account_id"] != account_id:
        raise NotFound(f"No OAuth client {client_id!r} on this account")
    q.revoke_client(conn, client_id, datetime.now(UTC))
    return client_out(_stored_client(conn, client_id))  # read just above


def metadata(base: str) -> dict[str, Any]:
    """RFC 8414 authorization server metadata."""
    return {
        "issuer": base,
        "authorization_endpoint": f"{base}/oauth/authorize",
        "token_endpoint": f"{base}/oauth/token",
        "registration_endpoint": f"{base}/oauth/register",
        "revocation_endpoint": f"{base}/oauth/revoke",
        "scopes_supported": [SCOPE],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": list(GRANTS),
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": ["S256"],
        "service_documentation": f"{base}/docs",
    }


def resource(base: str, path: str) -> dict[str, Any]:
    """RFC 9728 protected resource metadata."""
    return {
        "resource": f"{base}{path}",
        "authorization_servers": [base],
        "scopes_supported": [SCOPE],
        "bearer_methods_supported": ["header"],
        "resource_documentation": f"{base}/docs",
    }
