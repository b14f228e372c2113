"""OpenID Connect identities from operator-configured providers (REGINTEL_OIDC_PROVIDERS): sign in with a
provider, link a provider identity to the signed-in account, unlink it (docs/accounts.md, "OpenID Connect").

The authorization request is built by authlib's OAuth 2 client (authorization code + PKCE S256, `state`,
`nonce`); the code is exchanged with the same client; the ID token is verified with joserfc against the
provider's published keys (JWKS) and its claims (`iss`, `aud`, `exp`, `nonce`, `sub`) with joserfc's
claims registry. The per-flow secrets (state, nonce, PKCE verifier, what the flow is for) travel in a
signed, HttpOnly, 10-minute cookie scoped to `/account/identities`, so a callback only completes in the
browser that started it (login CSRF and forced linking fail). The provider URLs come from the operator's
configuration, never from a request.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import httpx
from authlib.integrations.httpx_client import OAuth2Client
from authlib.oauth2 import OAuth2Error
from cachetools import TTLCache
from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet
from sqlalchemy.engine import Connection

from regintel.api.deps import public_base
from regintel.areas.accounts import queries as q
from regintel.config import OidcProvider, Settings
from regintel.errors import Conflict, Forbidden, NotFound, UpstreamUnavailable, ValidationFailed

FLOW_COOKIE, FLOW_SALT, FLOW_SECONDS = "regintel_oidc", "account-oidc", 600
COOKIE_PATH = "/account/identities"
TIMEOUT = 10.0
ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"]
_discovery: TTLCache[str, dict[str, Any]] = TTLCache(maxsize=32, ttl=600)
_jwks: TTLCache[str, dict[str, Any]] = TTLCache(maxsize=32, ttl=600)


class ProviderFailed(UpstreamUnavailable):
    status = 502


def provider(settings: Settings, name: str) -> OidcProvider:
    found = settings.oidc_providers.get(name)
    if found is None:
        raise NotFound(
            f"No identity provider {name!r} is configured"
            + (
                f" (configured: {', '.join(sorted(settings.oidc_providers))})"
                if settings.oidc_providers
                else "; this deployment has none (REGINTEL_OIDC_PROVIDERS)"
            )
        )
    return found


def _get_json(url: str) -> dict[str, Any]:
    try:
        resp = httpx.get(url, timeout=TIMEOUT, follow_redirects=False)
        resp.raise_for_status()
        data = resp.json()
    except (httpx.HTTPError, ValueError):
        raise ProviderFailed(f"The identity provider did not answer {url} with JSON") from None
    if not isinstance(data, dict):
        raise ProviderFailed(f"The identity provider's {url} is not a JSON object")
    return data


def discover(conf: OidcProvider) -> dict[str, Any]:
    issuer = conf.issuer.rstrip("/")
    meta = _discovery.get(issuer)
    if meta is None:
        meta = _get_json(f"{issuer}/.well-known/openid-configuration")
        if str(meta.get("issuer", "")).rstrip("/") != issuer or not all(
            isinstance(meta.get(k), str) for k in ("authorization_endpoint", "token_endpoint", "jwks_uri")
        ):
            raise ProviderFailed("The identity provider's discovery document does not match its issuer")
        _discovery[issuer] = meta
    return meta


def _client(request: Request, conf: OidcProvider, name: str) -> OAuth2Client:
    return OAuth2Client(
        client_id=conf.client_id,
        client_secret=conf.client_secret,
        scope=conf.scope,
        redirect_uri=f"{public_base(request)}{COOKIE_PATH}/{name}/callback",
        code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_basic" if conf.client_secret else "none",
        timeout=TIMEOUT,
    )


def start(request: Request, settings: Settings, name: str, account_id: int | None) -> tuple[str, str]:
    """(the provider's authorization URL, the signed flow cookie). `account_id`: link to that account;
    None: sign in."""
    conf = provider(settings, name)
    meta = discover(conf)
    state, nonce, verifier = secrets.token_urlsafe(24), secrets.token_urlsafe(24), secrets.token_urlsafe(48)
    with _client(request, conf, name) as client:
        url, _ = client.create_authorization_url(
            meta["authorization_endpoint"], state=state, nonce=nonce, code_verifier=verifier
        )
    flow = {"p": name, "s": state, "n": nonce, "v": verifier, "a": account_id}
    return str(url), URLSafeTimedSerializer(settings.secret_key, salt=FLOW_SALT).dumps(flow)


def set_flow_cookie(response: Response, request: Request, value: str) -> None:
    response.set_cookie(
        FLOW_COOKIE,
        value,
        max_age=FLOW_SECONDS,
        httponly=True,
        secure=public_base(request).startswith("https://"),
        samesite="lax",
        path=COOKIE_PATH,
    )


def clear_flow_cookie(response: Response) -> None:
    response.delete_cookie(FLOW_COOKIE, path=COOKIE_PATH)


def _flow(request: Request, settings: Settings, name: str, state: str | None) -> dict[str, Any]:
    raw = request.cookies.get(FLOW_COOKIE)
    if not raw:
        raise Forbidden("No sign-in with a provider was started in this browser (or it took over 10 minutes)")
    try:
        flow = URLSafeTimedSerializer(settings.secret_key, salt=FLOW_SALT).loads(raw, max_age=FLOW_SECONDS)
    except BadSignature:
        raise Forbidden("The provider sign-in expired or its cookie is not valid; start again") from None
    if not isinstance(flow, dict) or flow.get("p") != name:
        raise Forbidden("This callback is not for the provider the sign-in was started with")
    if not state or not hmac.compare_digest(str(flow.get("s")).encode(), state.encode()):
        raise Forbidden("The `state` does not match the sign-in started in this browser")
    return flow


def _id_claims(conf: OidcProvider, meta: Mapping[str, Any], id_token: str, nonce: str) -> dict[str, Any]:
    uri = str(meta["jwks_uri"])
    jwks = _jwks.get(uri)
    if jwks is None:
        jwks = _jwks[uri] = _get_json(uri)
    try:
        keys = KeySet.import_key_set({"keys": jwks["keys"]})  # a JWKS document: its `keys` is what is read
        token = jwt.decode(id_token, keys, algorithms=ALGORITHMS)
        jwt.JWTClaimsRegistry(
            leeway=60,
            iss={"essential": True, "value": str(meta["issuer"])},
            aud={"essential": True, "value": conf.client_id},
            sub={"essential": True},
            exp={"essential": True},
            nonce={"essential": True, "value": nonce},
        ).validate(token.claims)
    except (JoseError, ValueError, KeyError, TypeError) as error:
        _jwks.pop(uri, None)  # the provider may have rotated its keys: read them again next time
        raise Forbidden(f"The provider's ID token does not verify ({type(error).__name__})") from None
    claims: dict[str, Any] = dict(token.claims)
    azp = claims.get("azp")
    if azp is not None and azp != conf.client_id:
        raise Forbidden("The provider's ID token was issued to another client (azp)")
    return claims


def callback(
    conn: Connection,
    request: Request,
    settings: Settings,
    name: str,
    params: Mapping[str, str | None],
    signed_in: Mapping[str, Any] | None,
) -> tuple[str, int]:
    """Complete a flow: ('linked' | 'signed_in', account id)."""
    conf = provider(settings, name)
    flow = _flow(request, settings, name, params.get("state"))
    if params.get("error"):
        raise Forbidden(f"The provider refused: {params['error']}"[:200])
    meta = discover(conf)
    if params.get("iss") is not None and params["iss"] != meta["issuer"]:  # RFC 9207 mix-up defence
        raise Forbidden("The `iss` of the callback is not this provider's issuer")
    code = params.get("code")
    if not code:
        raise ValidationFailed("The callback has no `code`", details=[{"field": "code", "in": "query"}])
    try:
        with _client(request, conf, name) as client:
            token = client.fetch_token(
                meta["token_endpoint"], grant_type="authorization_code", code=code, code_verifier=flow["v"]
            )
    except OAuth2Error as error:
        raise Forbidden(f"The provider refused the code: {error.error}") from None
    except httpx.HTTPError:
        raise ProviderFailed("The identity provider's token endpoint did not answer") from None
    id_token = token.get("id_token")
    if not isinstance(id_token, str):
        raise ProviderFailed("The provider answered no ID token (is `openid` in the scope?)")
    claims = _id_claims(conf, meta, id_token, str(flow["n"]))
    subject = str(claims["sub"])[:255]
    email = claims.get("email") if claims.get("email_verified") is True else None
    email = email.strip().lower()[:320] if isinstance(email, str) and "@" in email else None
    now = datetime.now(UTC)
    existing = q.find_identity(conn, name, subject)
    if flow.get("a") is not None:  # linking
        if signed_in is None or int(signed_in["account_id"]) != int(flow["a"]):
            raise Forbidden("Linking was started by another session; sign in and start again")
        account_id = int(flow["a"])
        if existing is not None and int(existing["account_id"]) != account_id:
            raise Conflict("This provider identity is linked to another account")
        if existing is None:
            q.insert_identity(conn, account_id, name, subject, email, now)
        return "linked", account_id
    if existing is not None:
        q.touch_identity(conn, int(existing["id"]), now)
        return "signed_in", int(existing["account_id"])
    if email is None:
        raise Forbidden(
            "The provider did not vouch for an e-mail address (email_verified), so no account can be "
            "made; sign in by e-mail link and link the identity on the account page"
        )
    if q.find_account(conn, email) is not None:
        raise Conflict(
            "An account with this address exists: sign in by e-mail link or passkey, then link the "
            "identity on the account page (never linked silently)"
        )
    account_id = q.insert_account(conn, email, settings.default_plan, now)
    q.insert_identity(conn, account_id, name, subject, email, now)
    return "signed_in", account_id


def identity_out(row: Mapping[str, Any]) -> dict[str, Any]:
    def aware(value: datetime | None) -> datetime | None:
        return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value

    return {
        "id": row["id"],
        "provider": row["provider"],
        "email": row["email"],
        "created_at": aware(row["created_at"]),
        "last_login_at": aware(row["last_login_at"]),
    }


def unlink(conn: Connection, account_id: int, name: str) -> dict[str, Any]:
    rows = q.account_identities_of(conn, account_id, name)
    if not rows:
        raise NotFound(f"No {name!r} identity is linked to this account")
    q.delete_identities(conn, account_id, name)
    return {"provider": name, "unlinked": len(rows)}
