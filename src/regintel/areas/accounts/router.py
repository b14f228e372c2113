"""Spec 4.8: the account page's API (`/account/...`), authenticated by the session cookie of an e-mail
magic link, CSRF-checked on every POST (docs/accounts.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from regintel.api.deps import AppSettings, DbConn, DbWriteConn, PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.accounts import schemas, service, sessions
from regintel.errors import NotImplementedYet
from regintel.services.watches import normalise_email

router = APIRouter(prefix="/account", tags=["Account"], route_class=StrictRoute, dependencies=[PublicLimit])

ItemId = Annotated[int, Path(ge=1, le=2**62, description="Identifier")]
_CSRF = " Needs the session cookie and the CSRF token in `X-CSRF-Token` (403 without it)."


@router.post("/welcome", response_model=Envelope[schemas.WelcomeOut], summary="Sign in by e-mail link",
             description="With `email`: queues a single-use sign-in link (valid 15 minutes) to that address, "
             "always with the same answer (no account enumeration; at most 5 links per address an hour). With "
             "`token` (from the link): creates the account on first sign-in, starts a 30-day session and sets "
             "the `regintel_session` (HttpOnly, SameSite=Lax, Secure over https) and `regintel_csrf` cookies.")
def welcome(request: Request, body: schemas.WelcomeIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    if body.email is not None:
        sessions.send_link(conn, request, settings, normalise_email(body.email))
        conn.commit()
        return ok(request, {"status": "link_sent", "message": "If this address can receive e-mail, a sign-in "
                                                              "link is on its way."}, status_code=202)
    _, raw = sessions.redeem_link(conn, settings, body.token or "")
    csrf = sessions.session_csrf(conn, raw)
    conn.commit()
    response = ok(request, {"status": "signed_in", "message": "Signed in", "csrf_token": csrf})
    sessions.set_cookies(response, request, settings, raw, csrf)
    return response


@router.get("", response_model=Envelope[schemas.AccountOut], summary="The signed-in account",
            description="The account, its API keys (metadata only), its watches and the addendum state.")
def account(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    return ok(request, service.account_view(conn, session))


@router.post("/api-keys", response_model=Envelope[schemas.NewKeyOut], status_code=201,
             summary="Create an API key", description="A key of the account's plan; the raw key is in this "
             "answer only." + _CSRF)
def create_key(request: Request, body: schemas.KeyCreateIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.create_account_key(conn, settings, session, body.name)
    conn.commit()
    return ok(request, out, status_code=201)


@router.post("/api-keys/{id}/rename", response_model=Envelope[schemas.KeyOut], summary="Rename a key",
             description="404 for a key this account does not own." + _CSRF)
def rename_key(request: Request, id: ItemId, body: schemas.KeyRenameIn, conn: DbWriteConn,
               settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.rename_key(conn, session, id, body.name)
    conn.commit()
    return ok(request, out)


@router.post("/api-keys/{id}/renew", response_model=Envelope[schemas.KeyOut], summary="Renew a key",
             description="A pass key (plan with a duration) gets a new validity from now; a key of a plan "
             "without one stays without expiry. 409 for a revoked key." + _CSRF)
def renew_key(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.renew_key(conn, settings, session, id)
    conn.commit()
    return ok(request, out)


@router.post("/api-keys/{id}/revoke", response_model=Envelope[schemas.KeyOut], summary="Revoke a key",
             description="Refused by every keyed route within 2 seconds (the key cache)." + _CSRF)
def revoke_key(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.revoke_key(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.post("/watches", response_model=Envelope[schemas.WatchOut], status_code=201, summary="Watch a company",
             description="An e-mail watch for the account's own (already confirmed) address: confirmed at "
             "once. 404 unknown company, 409 ambiguous identifier." + _CSRF)
def add_watch(request: Request, body: schemas.WatchIn, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.add_watch(conn, session, body.ico, body.country)
    conn.commit()
    return ok(request, out, status_code=201)


@router.post("/watches/{id}/unsubscribe", response_model=Envelope[schemas.WatchOut],
             summary="Stop a watch's e-mails", description="Kept, with status `unsubscribed`." + _CSRF)
def unsubscribe(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.unsubscribe_watch(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.post("/watches/{id}/unwatch", response_model=Envelope[schemas.WatchOut], summary="Delete a watch",
             description="The watch is deleted; the answer is its last state with status `deleted`." + _CSRF)
def unwatch(request: Request, id: ItemId, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.unwatch(conn, session, id)
    conn.commit()
    return ok(request, out)


@router.get("/watches/state", response_model=Envelope[schemas.WatchStateOut], summary="The account's watches",
            description="Counts by status and every watch of the account's address.")
def watch_state(request: Request, conn: DbConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=False)
    return ok(request, service.watch_state(conn, session))


@router.post("/fo-addendum/accept", response_model=Envelope[schemas.AddendumOut],
             summary="Accept the natural-persons addendum",
             description=f"Recorded with the time, the text version (current: `{service.FO_ADDENDUM_VERSION}`) "
             "and the person accepting. While accepted, the account's keys see natural persons' personal fields "
             "without a declared `purpose`." + _CSRF)
def accept_addendum(request: Request, body: schemas.AddendumIn, conn: DbWriteConn,
                    settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.accept_addendum(conn, session, body.text_version, body.person_name, body.accept)
    conn.commit()
    return ok(request, out)


@router.post("/fo-addendum/revoke", response_model=Envelope[schemas.AddendumOut],
             summary="Revoke the natural-persons addendum",
             description="The acceptance is kept with its revocation time; the keys need a `purpose` again." + _CSRF)
def revoke_addendum(request: Request, conn: DbWriteConn, settings: AppSettings) -> Response:
    session = sessions.current(conn, request, settings, write=True)
    out = service.revoke_addendum(conn, session)
    conn.commit()
    return ok(request, out)


@router.post("/identities/{provider}/unlink", summary="Unlink an external identity",
             description="501: no external identity provider (OpenID Connect) is configured or reachable, so "
             "no identity can be linked; sign-in is by e-mail link." + _CSRF)
def unlink_identity(request: Request, provider: Annotated[str, Path(max_length=40)], conn: DbConn,
                    settings: AppSettings) -> Response:
    sessions.current(conn, request, settings, write=True)
    raise NotImplementedYet(f"No external identity provider is configured, so no {provider!r} identity can be "
                            "linked or unlinked; sign-in is by e-mail link (POST /account/welcome)")
