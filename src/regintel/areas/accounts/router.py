"""Spec 4.8: the account page's API (`/account/...`), authenticated by the session cookie of an e-mail
magic link, CSRF-checked on every POST (docs/accounts.md)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from authlib.oauth2.rfc6749.errors import InsecureTransportError
from cachetools import TTLCache
from fastapi import APIRouter, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import ValidationError as PydanticError
from sqlalchemy.engine import Connection

from regintel.api.deps import ApiKey, AppSettings, DbConn, DbWriteConn, PublicLimit, public_base
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.accounts import (
    billing,
    consent,
    link_pages,
    oauth,
    oidc,
    passkeys,
    public,
    schemas,
    service,
    sessions,
)
from regintel.areas.monitoring.watches import normalise_email
from regintel.errors import Unauthorized, ValidationFailed

router = APIRouter(prefix="/account", tags=["Account"], route_class=StrictRoute, dependencies=[PublicLimit])

ItemId = Annotated[int, Path(ge=1, le=2**62, description="Identifier")]
# The token of an e-mailed link (itsdangerous: URL-safe base64 and dots), read by the page's script.
LinkToken = Annotated[
    str | None, Query(max_length=2000, pattern=r"^[A-Za-z0-9_.-]*$", description="The e-mailed link's token")
]
_LINK_PAGE = (
    "The page the e-mailed link opens: a button that posts the link's `token` to this path (opening the "
    "page changes nothing, so mail scanners that open links spend no token)."
)
_CSRF = " Needs the session cookie and the CSRF token in `X-CSRF-Token` (403 without it)."


@router.post(
    "/welcome",
    response_model=Envelope[schemas.WelcomeOut],
    summary="Sign in by e-mail link",
    responses={202: {"model": Envelope[schemas.WelcomeOut], "description": "With `email`: link queued"}},
    description="With `email`: queues a single-use sign-in link (valid 15 minutes) to that address, "
    "always with the same answer (no account enumeration; at most 5 links per address an hour). With "
    "`token` (from the link): creates the account on first sign-in, starts a 30-day session and sets "
    "the `regintel_session` (HttpOnly, SameSite=Lax, Secure over https) and `regintel_csrf` cookies.",
)
def welcome(request: Request, body: schemas.WelcomeIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    if body.email is not None:
        sessions.send_link(conn, request, settings, normalise_email(body.email))
        conn.commit()
        return ok(
            request,
            {
                "status": "link_sent",
                "message": "If this address can receive e-mail, a sign-in link is on its way.",
            },
            status_code=202,
        )
    _, raw = sessions.redeem_link(conn, settings, body.token or "")
    csrf = sessions.session_csrf(conn, raw)
    conn.commit()
    response = ok(request, {"status": "signed_in", "message": "Signed in", "csrf_token": csrf})
    sessions.set_cookies(response, request, settings, raw, csrf)
    return response


@router.get("/welcome", response_class=HTMLResponse, summary="Sign-in link page", description=_LINK_PAGE)
def welcome_page(settings: AppSettings, token: LinkToken = None) -> Response:
    email = sessions.link_address(settings, token) if token else None
    detail = (
        f"This link signs this browser in as {email}." if email else "This link is not valid or has expired."
    )
    return link_pages.page("welcome", detail if token else None)


@router.post(
    "/sign-out",
    response_model=Envelope[schemas.SignOutOut],
    summary="Sign out",
    description="Ends this session: its server-side row is deleted (the cookie is refused from then on, "
    "also a copy of it) and the `regintel_session` and `regintel_csrf` cookies are cleared. Other "
    "sessions of the account stay. Beyond the spec, which lists no sign-out (docs/accounts.md)." + _CSRF,
)
def sign_out(request: Request, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    response = ok(request, {"status": "signed_out"})
    sessions.end_session(conn, response, session)
    conn.commit()
    return response


@router.get(
    "",
    response_model=Envelope[schemas.AccountOut],
    summary="The signed-in account",
    description="The account, its API keys (metadata only), its watches, the addendum state and `usage`: "
    "the account's monthly quota this month, which all its keys and OAuth tokens share.",
)
def account(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    providers = sorted(settings.oidc_providers)
    return ok(request, service.account_view(conn, session, providers, request.app.state.limiter))


@router.post(
    "/api-keys",
    response_model=Envelope[schemas.NewKeyOut],
    status_code=201,
    summary="Create an API key",
    description="A key of the account's plan, or with `pass_id` a key of "
    "a paid pass (its plan, budget and validity from now; 404 not this account's pass, 409 `CONFLICT` "
    "already used, 409 `PASS_EXPIRED` not used within 90 days of payment, 409 `PASS_REFUNDED`); "
    "the raw key is in this answer only." + _CSRF,
)
def create_key(
    request: Request, body: schemas.KeyCreateIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.create_account_key(conn, settings, session, body.name, body.pass_id)
    conn.commit()
    return ok(request, out, status_code=201)


@router.post(
    "/api-keys/{id}/rename",
    response_model=Envelope[schemas.KeyOut],
    summary="Rename a key",
    description="404 for a key this account does not own." + _CSRF,
)
def rename_key(
    request: Request, id: ItemId, body: schemas.KeyRenameIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.rename_key(conn, session, id, body.name)
    conn.commit()
    return ok(request, out)


@router.post(
    "/api-keys/{id}/renew",
    response_model=Envelope[schemas.KeyOut],
    summary="Renew a key",
    description="A pass key (plan with a duration) gets a new validity from now; a key of a plan "
    "without one stays without expiry. 409 for a revoked key." + _CSRF,
)
def renew_key(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.renew_key(conn, settings, session, id)
    conn.commit()
    return ok(request, out)


@router.post(
    "/api-keys/{id}/revoke",
    response_model=Envelope[schemas.KeyOut],
    summary="Revoke a key",
    description="Refused by every keyed route within 2 seconds (the key cache)." + _CSRF,
)
def revoke_key(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.revoke_key(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.post(
    "/watches",
    response_model=Envelope[schemas.WatchOut],
    status_code=201,
    summary="Watch a company",
    description="An e-mail watch for the account's own (already confirmed) address: confirmed at "
    "once. 404 unknown company, 409 ambiguous identifier." + _CSRF,
)
def add_watch(request: Request, body: schemas.WatchIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.add_watch(conn, session, body.ico, body.country)
    conn.commit()
    return ok(request, out, status_code=201)


@router.post(
    "/watches/{id}/unsubscribe",
    response_model=Envelope[schemas.WatchOut],
    summary="Stop a watch's e-mails",
    description="Kept, with status `unsubscribed`." + _CSRF,
)
def unsubscribe(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.unsubscribe_watch(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.post(
    "/watches/{id}/unwatch",
    response_model=Envelope[schemas.WatchOut],
    summary="Delete a watch",
    description="The watch is deleted; the answer is its last state with status `deleted`." + _CSRF,
)
def unwatch(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.unwatch(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.get(
    "/watches/state",
    response_model=Envelope[schemas.WatchStateOut],
    summary="The account's watches",
    description="Counts by status and every watch of the account's address.",
)
def watch_state(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    return ok(request, service.watch_state(conn, session))


@router.post(
    "/fo-addendum/accept",
    response_model=Envelope[schemas.AddendumOut],
    summary="Accept the natural-persons addendum",
    description=f"Recorded with the time, the text version (current: `{service.FO_ADDENDUM_VERSION}`) "
    "and the person accepting. While accepted, the account's keys see natural persons' personal fields "
    "without a declared `purpose`." + _CSRF,
)
def accept_addendum(
    request: Request, body: schemas.AddendumIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.accept_addendum(conn, session, body.text_version, body.person_name, body.accept)
    conn.commit()
    return ok(request, out)


@router.post(
    "/fo-addendum/revoke",
    response_model=Envelope[schemas.AddendumOut],
    summary="Revoke the natural-persons addendum",
    description="The acceptance is kept with its revocation time; the keys need a `purpose` again." + _CSRF,
)
def revoke_addendum(request: Request, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.revoke_addendum(conn, session)
    conn.commit()
    return ok(request, out)


Provider = Annotated[
    str, Path(max_length=40, pattern=r"^[A-Za-z0-9_.-]+$", description="A configured provider")
]
# What a provider returns (RFC 6749 section 4.1.2 and appendix A, RFC 9207, OpenID Connect session
# management) is printable ASCII (VSCHAR, %x20-7E). Saying so, with a length per parameter, keeps the longest
# valid callback, percent-encoded at 3 bytes a character, at 50,259 bytes: within the 65,535 of a request
# target uvicorn parses (api/http_protocol.py; issue 16). Eleven of 4,000 characters of any script did not.
VSCHAR = "^[ -~]*$"


def _cb(max_length: int) -> Any:
    return Query(max_length=max_length, pattern=VSCHAR)


@router.get(
    "/identities/{provider}/login",
    status_code=302,
    summary="Sign in with an identity provider",
    description="Redirects (302) to the OpenID Connect provider (authorization code + PKCE S256, `state`, "
    "`nonce`) and sets a signed 10-minute flow cookie; the provider returns to `…/callback`. 404 for a "
    "provider this deployment does not configure.",
)
def identity_login(request: Request, provider: Provider, settings: AppSettings) -> Response:
    url, flow = oidc.start(request, settings, provider, None)
    response = RedirectResponse(url, status_code=302, headers={"Cache-Control": "no-store"})
    oidc.set_flow_cookie(response, request, flow)
    return response


@router.post(
    "/identities/{provider}/link",
    response_model=Envelope[schemas.IdentityLinkOut],
    summary="Link an identity provider",
    description="Starts linking a provider identity to the "
    "signed-in account: answers the provider's `authorization_url` to open in this browser and sets the "
    "flow cookie; the callback links the identity (409 if it is linked to another account)." + _CSRF,
)
def identity_link(request: Request, provider: Provider, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    url, flow = oidc.start(request, settings, provider, int(session["account_id"]))
    response = ok(request, {"authorization_url": url}, headers={"Cache-Control": "no-store"})
    oidc.set_flow_cookie(response, request, flow)
    return response


@router.get(
    "/identities/{provider}/callback",
    status_code=302,
    summary="Identity provider callback",
    description="Where the provider returns. Checks `state` against the flow cookie of this browser, "
    "exchanges the code (with the PKCE verifier), verifies the ID token (signature by the provider's JWKS, "
    "`iss`, `aud`, `exp`, `nonce`) and then links the identity, or signs in: a known identity signs its "
    "account in; an unknown one with a verified e-mail creates an account, unless an account has that "
    "address (409: sign in by e-mail link and link it from the account page). Redirects (302) to "
    "`/account?identity=linked|signed_in` with the session cookies. 403 on any mismatch.",
)
def identity_callback(
    request: Request,
    provider: Provider,
    conn: DbWriteConn,
    settings: AppSettings,
    code: Annotated[str | None, _cb(4000)] = None,
    state: Annotated[str | None, _cb(1000)] = None,  # ours: 32 characters
    error: Annotated[str | None, _cb(200)] = None,
    error_description: Annotated[str | None, _cb(4000)] = None,
    error_uri: Annotated[str | None, _cb(2000)] = None,
    iss: Annotated[str | None, _cb(2000)] = None,
    session_state: Annotated[str | None, _cb(1000)] = None,
    scope: Annotated[str | None, _cb(2000)] = None,
    authuser: Annotated[str | None, _cb(100)] = None,
    prompt: Annotated[str | None, _cb(200)] = None,
    hd: Annotated[str | None, _cb(253)] = None,  # a domain name
) -> Response:
    signed_in = None
    if request.cookies.get(sessions.SESSION_COOKIE):
        try:
            signed_in = sessions.current(conn, request, settings, write=False)
        except Unauthorized:
            signed_in = None
    outcome, account_id = oidc.callback(
        conn,
        request,
        settings,
        provider,
        {"code": code, "state": state, "error": error, "iss": iss},
        signed_in,
    )
    response = RedirectResponse(
        f"{public_base(request)}/account?identity={outcome}",
        status_code=302,
        headers={"Cache-Control": "no-store"},
    )
    if outcome == "signed_in":
        raw = sessions.start_session(conn, account_id)
        sessions.set_cookies(response, request, settings, raw, sessions.session_csrf(conn, raw))
    conn.commit()
    oidc.clear_flow_cookie(response)
    return response


@router.post(
    "/identities/{provider}/unlink",
    response_model=Envelope[schemas.IdentityUnlinkOut],
    summary="Unlink an external identity",
    description="Removes the account's identity of that "
    "provider (404 when none is linked). Sign-in by e-mail link always remains." + _CSRF,
)
def unlink_identity(
    request: Request, provider: Provider, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = oidc.unlink(conn, int(session["account_id"]), provider)
    conn.commit()
    return ok(request, out)


@router.post(
    "/oauth-clients",
    response_model=Envelope[schemas.OAuthClientOut],
    status_code=201,
    summary="Register an OAuth client",
    description="A public client (no secret; PKCE S256 required) of this account, e.g. an MCP client. "
    "Redirect URIs are matched exactly." + _CSRF,
)
def create_oauth_client(
    request: Request, body: schemas.OAuthClientIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = oauth.create_client(conn, session["account_id"], body.name.strip() or "client", body.redirect_uris)
    conn.commit()
    return ok(request, out, status_code=201)


@router.post(
    "/oauth-clients/{clientId}/revoke",
    response_model=Envelope[schemas.OAuthClientOut],
    summary="Revoke an OAuth client",
    description="The client can no longer authorize, and every "
    "access token it obtained is revoked (refused within 2 seconds)." + _CSRF,
)
def revoke_oauth_client(
    request: Request,
    clientId: Annotated[str, Path(max_length=64)],  # noqa: N803
    conn: DbWriteConn,
    settings: AppSettings,
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = oauth.revoke_client(conn, session["account_id"], clientId)
    conn.commit()
    return ok(request, out)


@router.post(
    "/billing",
    response_model=Envelope[schemas.CheckoutOut],
    summary="Buy a plan",
    description='`{"plan", "kind"}`: a hosted checkout page of the payment provider (Stripe) for '
    "the signed-in account. Kind `subscription`: the provider's webhook then sets the plan of the account "
    "and its keys. Kind `pack` (a day or week pass, one-time payment): the paid checkout adds a pass to "
    '`passes` of `GET /account`, which `POST /account/api-keys {"pass_id"}` turns into a key. 409 '
    "`SUBSCRIPTION_ACTIVE` with a live subscription (use the portal), 422 unknown or unsold plan or a kind "
    "that does not fit it, 503 without a provider, 502 when it fails." + _CSRF,
)
def billing_checkout(
    request: Request, body: schemas.CheckoutIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = billing.checkout(conn, settings, public_base(request), session["account_id"], body.plan, body.kind)
    conn.commit()
    return ok(request, out)


@router.get(
    "/billing/portal",
    response_model=Envelope[schemas.PortalOut],
    summary="Billing portal link",
    description="A session of the provider's customer portal (invoices, payment method, plan change, "
    "cancellation) for the signed-in account, returning to `/account`. 409 when the account has never "
    "paid; 503 without a provider, 502 when it fails. Needs the session cookie.",
)
def billing_portal(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    return ok(
        request,
        billing.portal(conn, settings, public_base(request), session["account_id"]),
        headers={"Cache-Control": "no-store"},
    )


@router.get(
    "/billing/suggest",
    response_model=Envelope[schemas.SuggestOut],
    summary="Plan suggestion",
    description="The smallest plan with a monthly quota that holds this month's projected use of the "
    "account (its keys and OAuth tokens share its monthly quota) with 20 % headroom, from the counter the "
    "limiter keeps. Needs the session cookie.",
)
def billing_suggest(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    return ok(request, billing.suggest(conn, settings, request.app.state.limiter, session["account_id"]))


oauth_router = APIRouter(tags=["OAuth"], route_class=StrictRoute, dependencies=[PublicLimit])
# RFC 6749 appendix A, RFC 7636 and RFC 8707: printable ASCII, so eight of them fit a request target
# (48,000 bytes at most percent-encoded; any script, 12 bytes a character, did not).
_Q = Annotated[str | None, Query(max_length=2000, pattern=VSCHAR)]


@oauth_router.get(
    "/.well-known/oauth-authorization-server",
    summary="OAuth authorization server metadata",
    description="RFC 8414. Authorization code with PKCE S256 only, public clients.",
)
def as_metadata(request: Request) -> Response:
    return JSONResponse(oauth.metadata(public_base(request)))


@oauth_router.get(
    "/.well-known/oauth-protected-resource",
    summary="Protected resource metadata (REST API)",
    description="RFC 9728, for `/api/v1`.",
)
def pr_api(request: Request) -> Response:
    return JSONResponse(oauth.resource(public_base(request), "/api/v1"))


@oauth_router.get(
    "/.well-known/oauth-protected-resource/mcp",
    summary="Protected resource metadata (MCP)",
    description="RFC 9728, for `/mcp`.",
)
def pr_mcp(request: Request) -> Response:
    return JSONResponse(oauth.resource(public_base(request), "/mcp"))


@oauth_router.get(
    "/.well-known/oauth-protected-resource/mcp/v1",
    summary="Protected resource metadata (MCP v1)",
    description="RFC 9728, for `/mcp/v1`.",
)
def pr_mcp_v1(request: Request) -> Response:
    return JSONResponse(oauth.resource(public_base(request), "/mcp/v1"))


def _req(request: Request, conn: Connection, pairs: list[tuple[str, str]]) -> oauth.Req | Response:
    try:
        return oauth.Req(
            request.method, public_base(request) + request.url.path, request.headers, pairs, conn
        )
    except InsecureTransportError:
        return JSONResponse(
            {"error": "invalid_request", "error_description": "OAuth needs https (or a loopback address)"},
            status_code=400,
        )


def _authorize_pairs(request: Request) -> list[tuple[str, str]]:
    return list(request.query_params.multi_items())


@oauth_router.get(
    "/oauth/authorize",
    response_model=Envelope[schemas.ConsentOut],
    summary="Authorization request",
    description="Validates an authorization request (response_type=code, client_id, exact "
    "redirect_uri, code_challenge with code_challenge_method=S256) for the signed-in account and "
    'answers what to ask consent for; a client then POSTs the same URL with `{"approve"}`. '
    "A browser (`Accept` naming `text/html`) gets the consent page instead: the client's name "
    "(marked unverified for a self-registered client), the scope, where it returns, and an "
    "Allow / Deny form. 401 without a session; errors after the redirect URI is known redirect "
    "to the client.",
    responses={200: {"content": {"text/html": {"schema": {"type": "string"}}}}},
)
def authorize_page(
    request: Request,
    conn: DbConn,
    settings: AppSettings,
    response_type: _Q = None,
    client_id: _Q = None,
    redirect_uri: _Q = None,
    code_challenge: _Q = None,
    code_challenge_method: _Q = None,
    state: _Q = None,
    scope: _Q = None,
    resource: _Q = None,
) -> Response:
    html = consent.wants_html(request.headers.get("accept", ""))
    try:
        session = sessions.current(conn, request, settings, write=False)
    except Unauthorized:
        if not html:
            raise
        return consent.message("Sign in first", _SIGN_IN_FIRST, 401)
    req = _req(request, conn, _authorize_pairs(request))
    out = req if isinstance(req, Response) else oauth.validate(conn, req, session)
    if not isinstance(out, Response):
        if not html:
            return ok(request, out)
        action = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return consent.page(out, str(session["email"]), str(session["csrf_token"]), action)
    if html and out.status_code == 400:  # refused before a redirect URI could be trusted
        try:
            why = str(json.loads(bytes(out.body)).get("error_description") or "")
        except ValueError:
            why = ""
        return consent.message("This authorization request is not valid", why or "Invalid request", 400)
    return out


_SIGN_IN_FIRST = (
    "An application asked to use your regintel account, but this browser is not signed in to "
    "regintel. Sign in (with your e-mail link, passkey or identity provider), then open this page "
    "again from the application."
)
_APPROVE_BODY = {
    "required": True,
    "content": {
        "application/json": {"schema": schemas.ApproveIn.model_json_schema()},
        "application/x-www-form-urlencoded": {"schema": schemas.ApproveForm.model_json_schema()},
    },
}


@oauth_router.post(
    "/oauth/authorize",
    summary="Grant or deny an authorization request",
    description="With the session and CSRF token: `approve: true` redirects (302) to the client "
    "with a single-use code (10 minutes); `false` redirects with `error=access_denied`. JSON with the "
    "token in `X-CSRF-Token`, or the consent page's form (`decision=approve|deny` and the token in "
    "`csrf_token`).",
    status_code=302,
    openapi_extra={"requestBody": _APPROVE_BODY},
)
async def authorize_grant(
    request: Request,
    conn: DbWriteConn,
    settings: AppSettings,
    response_type: _Q = None,
    client_id: _Q = None,
    redirect_uri: _Q = None,
    code_challenge: _Q = None,
    code_challenge_method: _Q = None,
    state: _Q = None,
    scope: _Q = None,
    resource: _Q = None,
) -> Response:
    approve, form_csrf = await _decision(request)

    def work() -> Response:
        session = sessions.current(conn, request, settings, write=form_csrf is None)
        if form_csrf is not None:
            sessions.check_csrf(request, str(session["csrf_token"]), sent=form_csrf)
        req = _req(request, conn, _authorize_pairs(request))
        if isinstance(req, Response):
            return req
        response = oauth.authorize(conn, req, session, approve)
        conn.commit()
        return response

    return await run_in_threadpool(work)


async def _decision(request: Request) -> tuple[bool, str | None]:
    """(approve, the form's CSRF token or None for JSON): the consent page posts a form, API clients JSON."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if kind == "application/x-www-form-urlencoded":
            form = await request.form()
            fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
            if len(fields) != len(form.multi_items()):
                raise ValidationFailed("Send each field once")
            decided = schemas.ApproveForm.model_validate(fields)
            return decided.decision == "approve", decided.csrf_token
        body = schemas.ApproveIn.model_validate_json(await request.body())
        return body.approve, None
    except PydanticError as error:
        raise ValidationFailed(
            "The body is not a decision",
            details=[
                {"field": ".".join(map(str, e["loc"])) or "body", "in": "body", "reason": e["type"]}
                for e in error.errors()
            ],
        ) from None


@oauth_router.post(
    "/oauth/token",
    summary="Token endpoint",
    description="Form-encoded. `grant_type=authorization_code` with `code`, `redirect_uri`, "
    "`client_id` and `code_verifier`; or `grant_type=refresh_token` with `refresh_token` and "
    "`client_id`. Answers a bearer `rio_…` access token valid 1 hour, accepted by every keyed route "
    "like a key of the account's plan, and a single-use `rir_…` refresh token (30 days): each "
    "refresh answers a new pair, and a used refresh token presented again revokes every token of "
    "its family (`invalid_grant`). Other grant types: `unsupported_grant_type`.",
)
async def token(request: Request, conn: DbWriteConn) -> Response:
    form = await request.form()
    pairs = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]

    def work() -> Any:
        req = _req(request, conn, pairs)
        if isinstance(req, Response):
            return req
        response = oauth.token(conn, req)
        conn.commit()
        return response

    response: Response = await run_in_threadpool(work)
    response.headers["Cache-Control"] = "no-store"
    return response


@oauth_router.post(
    "/oauth/revoke",
    summary="Token revocation (RFC 7009)",
    description="Form-encoded `token` (+ `token_type_hint`) and `client_id` of the public client "
    "that obtained it. A refresh token revokes its family (and the access tokens issued with it), "
    "an access token itself. 200 also for unknown tokens (RFC 7009).",
)
async def revoke_token(request: Request, conn: DbWriteConn) -> Response:
    form = await request.form()
    pairs = [(k, v) for k, v in form.multi_items() if isinstance(v, str)]

    def work() -> Any:
        req = _req(request, conn, pairs)
        if isinstance(req, Response):
            return req
        response = oauth.revoke(conn, req)
        conn.commit()
        return response

    response: Response = await run_in_threadpool(work)
    response.headers["Cache-Control"] = "no-store"
    return response


@oauth_router.post(
    "/oauth/register",
    status_code=201,
    summary="Dynamic client registration (RFC 7591)",
    description="A JSON object of client metadata: `redirect_uris` (1-10; https, or http on a "
    "loopback address, no fragment, matched exactly), optional `client_name`, `grant_types` "
    "(`authorization_code`, `refresh_token`), `response_types` (`code`), "
    "`token_endpoint_auth_method` (`none` only: public clients with PKCE S256). Open to anyone, as "
    "MCP clients expect; limited per IP. Answers 201 with `client_id` and the registered metadata, "
    "or 400 `invalid_redirect_uri` / `invalid_client_metadata`. The client belongs to no account; "
    "each account that signs in still has to consent.",
)
async def register_client(request: Request, conn: DbWriteConn) -> Response:
    raw = await request.body()
    if len(raw) > 16 * 1024:
        return JSONResponse(
            {"error": "invalid_client_metadata", "error_description": "Larger than 16 KiB"}, status_code=400
        )
    try:
        body = json.loads(raw or b"null")
    except ValueError:
        body = None
    base = public_base(request)

    def work() -> Any:
        response = oauth.register(conn, base, body, request.headers)
        conn.commit()
        return response

    response: Response = await run_in_threadpool(work)
    response.headers["Cache-Control"] = "no-store"
    return response


public_router = APIRouter(
    prefix="/api/v1", tags=["Public"], route_class=StrictRoute, dependencies=[PublicLimit]
)
_stats_cache: TTLCache[str, dict[str, Any]] = TTLCache(maxsize=64, ttl=600)
_STATS_CACHE_CONTROL = {"Cache-Control": "public, max-age=600"}  # spec 8: signup-stats 10 min
_BOT = "If the honeypot field `website` is filled, the answer is the same and nothing is recorded."


def _bot(website: str | None) -> bool:
    return bool(website)


@public_router.post(
    "/public/signup",
    response_model=Envelope[schemas.FormOut],
    status_code=202,
    summary="Lead capture",
    description="`email` (validated), optional `use_case` and `source`: "
    'recorded as pending and a confirmation link is mailed (double opt-in); `{"token"}` from '
    "that mail confirms it. Same answer whether or not the address is known. " + _BOT,
)
def signup(request: Request, body: schemas.LeadIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    if body.token is not None:
        out = public.confirm_lead(conn, settings, "lead", body.token)
        conn.commit()
        return ok(request, out)
    email = normalise_email(body.email or "")
    out = (
        public.request_lead(conn, request, settings, "lead", email, body.use_case, body.source)
        if not _bot(body.website)
        else public.PENDING
    )
    conn.commit()
    return ok(request, out, status_code=202)


@public_router.get(
    "/public/signup", response_class=HTMLResponse, summary="Lead confirmation page", description=_LINK_PAGE
)
def signup_page(token: LinkToken = None) -> Response:
    return link_pages.page("lead")


@public_router.get(
    "/public/newsletter-intent",
    response_class=HTMLResponse,
    summary="Newsletter confirmation page",
    description=_LINK_PAGE,
)
def newsletter_page(token: LinkToken = None) -> Response:
    return link_pages.page("newsletter")


@public_router.post(
    "/public/newsletter-intent",
    response_model=Envelope[schemas.FormOut],
    status_code=202,
    summary="Newsletter intent",
    description="Double opt-in as `/public/signup`. " + _BOT,
)
def newsletter(
    request: Request, body: schemas.NewsletterIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    if body.token is not None:
        out = public.confirm_lead(conn, settings, "newsletter", body.token)
        conn.commit()
        return ok(request, out)
    email = normalise_email(body.email or "")
    out = (
        public.request_lead(conn, request, settings, "newsletter", email, None, None)
        if not _bot(body.website)
        else public.PENDING
    )
    conn.commit()
    return ok(request, out, status_code=202)


@public_router.get(
    "/public/signup-stats",
    response_model=Envelope[schemas.StatsOut],
    summary="Signup counts",
    description="Confirmed leads: `total` and `last30d`. No e-mails. Cached 10 minutes (here and, by "
    "`Cache-Control: public, max-age=600`, by browsers and proxies).",
)
def signup_stats(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    hit = _stats_cache.get(settings.database_url)
    if hit is not None:
        return ok(request, hit, cached=True, headers=_STATS_CACHE_CONTROL)
    out = _stats_cache[settings.database_url] = public.signup_stats(conn)
    return ok(request, out, headers=_STATS_CACHE_CONTROL)


_SIGNUP_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>regintel API signup</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>
<h1>Get a free regintel API key</h1>
<p>Enter your e-mail address. We send a sign-in link; opening it creates your account and a Free key.</p>
<form id="f"><label>E-mail <input type="email" name="email" required maxlength="320"></label>
<input type="text" name="website" tabindex="-1" autocomplete="off" hidden>
<button>Send the link</button></form><p id="out" role="status"></p>
<script>
const q = new URLSearchParams(location.search), out = document.getElementById("out");
async function post(body) {
  const r = await fetch(location.pathname, {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify(body)});
  const j = await r.json();
  out.textContent = j.data
    ? (j.data.api_key ? "Your key (shown once): " + j.data.api_key.key : j.data.message)
    : j.error.message;
}
if (q.get("token")) {  // the mailed link: act on a press only (mail scanners open links and run scripts)
  const b = document.createElement("button");
  b.textContent = "Create my account and key";
  b.onclick = () => { b.disabled = true; post({token: q.get("token")}); };
  document.getElementById("f").replaceWith(b);
}
document.getElementById("f").onsubmit = e => { e.preventDefault();
  const d = new FormData(e.target); const b = {email: d.get("email")};
  if (d.get("website")) b.website = d.get("website"); post(b); };
</script></main></body></html>"""


@public_router.get(
    "/public/api-signup",
    response_class=HTMLResponse,
    summary="Signup page",
    description="An HTML form that posts to `POST /public/api-signup`; with the mailed link's `token`, a "
    "button that posts it (opening the link changes nothing).",
)
def api_signup_page(request: Request, token: LinkToken = None) -> Response:
    return HTMLResponse(_SIGNUP_PAGE, headers={"Cache-Control": "public, max-age=3600"})


@public_router.post(
    "/public/api-signup",
    response_model=Envelope[schemas.ApiSignupOut],
    responses={
        202: {"model": Envelope[schemas.ApiSignupOut], "description": "With `email`: link queued"},
        201: {
            "model": Envelope[schemas.ApiSignupOut],
            "description": "With `token`: account and Free key created",
        },
    },
    summary="API signup",
    description='`{"email"}`: mails a single-use sign-in link (15 min; '
    '202, same answer for every address). `{"token"}`: creates the account (default plan) on '
    "first use, starts a session (cookies as `/account/welcome`) and creates a Free key, shown "
    "once. " + _BOT,
)
def api_signup(
    request: Request, body: schemas.ApiSignupIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    if body.email is not None:
        if not _bot(body.website):
            sessions.send_link(conn, request, settings, normalise_email(body.email), purpose="signup")
        conn.commit()
        return ok(
            request,
            {
                "status": "link_sent",
                "message": "If this address can receive e-mail, a link is on "
                "its way; opening it creates your account and a Free key.",
            },
            status_code=202,
        )
    account_id, raw = sessions.redeem_link(conn, settings, body.token or "")
    csrf = sessions.session_csrf(conn, raw)
    session = {
        "account_id": account_id,
        "plan": "free" if "free" in settings.plans else settings.default_plan,
    }
    key = service.create_account_key(conn, settings, session, "signup")
    conn.commit()
    response = ok(
        request,
        {
            "status": "signed_up",
            "message": "Account ready; the key is shown once.",
            "csrf_token": csrf,
            "api_key": key,
        },
        status_code=201,
    )
    sessions.set_cookies(response, request, settings, raw, csrf)
    return response


def _privacy(kind: str) -> Any:
    def handler(
        request: Request, body: schemas.PrivacyIn, conn: DbWriteConn, settings: AppSettings
    ) -> Response:
        if body.token is not None:
            out = public.verify_privacy(conn, settings, kind, body.token)
            conn.commit()
            return ok(request, out)
        out = public.request_privacy(
            conn,
            request,
            settings,
            kind,
            normalise_email(body.email or ""),
            body.details,
            body.person_name,
            body.person_keys,
        )
        conn.commit()
        return ok(request, out, status_code=202)

    return handler


def _privacy_page(token: LinkToken = None) -> Response:
    return link_pages.page("privacy")


_PRIVACY = {
    "access": "Verified by the e-mailed link: the answer to `{token}` is a machine-readable export of what "
    "the service holds about the address (account, keys' metadata, watches, form entries, requests).",
    "erase": "Verified by the e-mailed link: the address is suppressed (no more mail), its leads are "
    "deleted, its watches ended and pending mail dropped. With `person_name` / `person_keys` the operator "
    "matches the register's natural-person records to the requester within one month and withholds them from "
    "every endpoint, export and feed. The request is kept.",
    "object": "Verified by the e-mailed link: the address is suppressed, leads marked suppressed, watches "
    "ended; register records named as for `erase` are withheld once the operator matched them. The "
    "request is kept.",
    "rectify": "Recorded and verified by the e-mailed link; the operator answers within one month "
    "(`due_at`).",
}
for _kind, _text in _PRIVACY.items():
    public_router.add_api_route(
        f"/privacy/{_kind}",
        _privacy(_kind),
        methods=["POST"],
        status_code=202,
        response_model=Envelope[schemas.PrivacyOut],
        summary=f"Privacy request: {_kind}",
        description='`{"email", "details"?}` records the request and mails a '
        'verification link (same answer for every address); `{"token"}` confirms it. ' + _text,
        name=f"privacy_{_kind}",
    )
    public_router.add_api_route(
        f"/privacy/{_kind}",
        _privacy_page,
        methods=["GET"],
        response_class=HTMLResponse,
        summary=f"Privacy request verification page: {_kind}",
        description=_LINK_PAGE,
        name=f"privacy_{_kind}_page",
    )


billing_router = APIRouter(prefix="/api/v1/billing", tags=["Billing"], route_class=StrictRoute)


@billing_router.post(
    "/checkout-session",
    response_model=Envelope[schemas.CheckoutOut],
    summary="Hosted checkout link",
    description='`{"plan", "kind"}`: a hosted checkout page of the payment provider '
    "(Stripe) for a subscription to `plan` (kind `subscription`) or a one-time day or week pass "
    "(kind `pack`, fulfilled as a pass on the account page), for the account that owns the key. "
    "422 unknown plan, "
    "kind that does not fit the plan, or a plan not for sale; 409 `CONFLICT` when the key belongs "
    "to no account, 409 `SUBSCRIPTION_ACTIVE` when the account has a live subscription (change "
    "it on the account page); 503 when no provider is "
    "configured, 502 when the provider fails.",
)
def checkout_session(
    request: Request, body: schemas.CheckoutIn, conn: DbWriteConn, settings: AppSettings, caller: ApiKey
) -> Response:
    out = billing.checkout_for_key(conn, settings, public_base(request), caller.key.id, body.plan, body.kind)
    conn.commit()
    return ok(request, out)


@billing_router.post(
    "/portal-session",
    summary="Billing portal",
    description="Always 409 `BILLING_MANAGED_IN_ACCOUNT` with an API key (spec 4.2).",
)
def portal_session(_key: ApiKey) -> Response:
    billing.portal_session()
    raise AssertionError("unreachable")  # pragma: no cover


@billing_router.post(
    "/webhook",
    response_model=Envelope[schemas.WebhookOut],
    summary="Payment-provider callback",
    description="Stripe events, verified with the `stripe` library (`Stripe-Signature`, 5-minute "
    "tolerance): 400 INVALID_SIGNATURE when forged, altered or stale; idempotent by event id. "
    "`customer.subscription.*` with `metadata.account_id` and `metadata.plan` sets the account's "
    "plan and, at once, the plan of its live keys (default plan when not active); a paid "
    "`checkout.session.completed` or `checkout.session.async_payment_succeeded` of a one-time pass "
    "adds the pass to the account (once per checkout); `charge.refunded` in full of a pass's payment "
    "marks it refunded and revokes its key (a partial refund is recorded only). 503 when no "
    "webhook secret is configured.",
    dependencies=[PublicLimit],
)
async def billing_webhook(request: Request, conn: DbWriteConn, settings: AppSettings) -> Response:
    payload = await request.body()
    if len(payload) > 512 * 1024:
        raise ValidationFailed("The event body is larger than 512 KiB")
    signature = request.headers.get("stripe-signature")

    def work() -> dict[str, Any]:
        out = billing.webhook(conn, settings, payload, signature)
        conn.commit()
        return out

    return ok(request, await run_in_threadpool(work))


ROUTERS = [router, oauth_router, public_router, billing_router]


@router.post(
    "/passkeys/options",
    response_model=Envelope[schemas.PasskeyOptionsOut],
    summary="Passkey ceremony options",
    description="WebAuthn options and a signed challenge token. "
    "`registration`: for the signed-in account (session + CSRF). `authentication`: no session needed.",
)
def passkey_options(
    request: Request, body: schemas.PasskeyOptionsIn, conn: DbConn, settings: AppSettings
) -> Response:
    session = sessions.current(conn, request, settings, write=True) if body.kind == "registration" else None
    return ok(request, passkeys.options(conn, request, settings, body.kind, session))


@router.post(
    "/passkeys/verify",
    response_model=Envelope[schemas.PasskeyVerifyOut],
    summary="Verify a passkey ceremony",
    description="`registration` (session + CSRF): stores the "
    "passkey (201). `authentication`: verifies the assertion (signature, challenge, origin, RP id, sign "
    "counter) and starts a session as `/account/welcome` does (cookies, `csrf_token`); 401 when it fails.",
)
def passkey_verify(
    request: Request, body: schemas.PasskeyVerifyIn, conn: DbWriteConn, settings: AppSettings
) -> Response:
    if body.kind == "registration":
        session = sessions.current(conn, request, settings, write=True)
        out = passkeys.register(conn, request, settings, session, body.challenge_token, body.credential)
        conn.commit()
        return ok(request, {"status": "registered", **out}, status_code=201)
    account_id = passkeys.authenticate(conn, request, settings, body.challenge_token, body.credential)
    raw = sessions.start_session(conn, account_id)
    csrf = sessions.session_csrf(conn, raw)
    conn.commit()
    response = ok(request, {"status": "signed_in", "csrf_token": csrf})
    sessions.set_cookies(response, request, settings, raw, csrf)
    return response


@router.post(
    "/passkeys/{id}/delete",
    response_model=Envelope[schemas.PasskeyVerifyOut],
    summary="Delete a passkey",
    description="404 for a passkey of another account." + _CSRF,
)
def passkey_delete(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = passkeys.delete(conn, session, id)
    conn.commit()
    return ok(request, {"status": "deleted", **out})
