"""The embeddable widget (spec 4.5): its token, script and data. Keyed: a widget token stands in for the
key (docs/pages.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Body, Depends, Path, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, ReadConn, public_base, public_limit, require_key
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.config import Settings

from . import html, service, widget
from .route_common import (
    HOUR,
    Ico,
    cached_body,
    country_code,
    pages_lifespan,
    view_counter,
)
from .schemas import (
    WidgetData,
    WidgetToken,
    WidgetTokenRequest,
)

# The pages' lifespan rides on this router (FastAPI merges the lifespans of included routers).
widget_router = APIRouter(prefix="/api/v1", tags=["Widget"], route_class=StrictRoute, lifespan=pages_lifespan)

# -- widget ------------------------------------------------------------------------------------------------

# spec 4.5: keyed (bearer or query)
KEY_SECURITY: dict[str, list[dict[str, list[str]]]] = {"security": [{"bearerAuth": []}, {"apiKeyQuery": []}]}


async def widget_credential(request: Request) -> dict[str, Any] | None:
    """The widget routes are keyed (spec 4.5), and a widget token stands in for the key: sent as
    `?api_key=<token>` (or `Authorization: Bearer <token>`) it authenticates the widget without putting the
    key into a page. Returns the token's claims, or None when a real API key was given (server-side use,
    no origin check). 401 without either."""
    header = request.headers.get("authorization", "")
    raw = (
        header[7:].strip()
        if header[:7].lower() == "bearer "
        else (request.scope["state"].get("api_key") or request.query_params.get("api_key"))
    )
    if raw and widget.is_token(raw.strip()):
        await public_limit(request)  # the shared per-IP limiter, as for keyless calls
        return widget.claims_of(request.app.state.settings.secret_key, raw.strip())
    await require_key(request)
    return None


WidgetAuth = Annotated[dict[str, Any] | None, Depends(widget_credential)]


@widget_router.post(
    "/widget-token",
    response_model=Envelope[WidgetToken],
    status_code=201,
    summary="Create a widget token",
    description="A signed token for the embeddable widget, bound to this key and to the origins "
    "given (`scheme://host[:port]`), valid `ttl_seconds` (default one day, at most seven). "
    "Nothing is stored; the token is checked by its signature.",
)
def widget_token(request: Request, caller: ApiKey, body: Annotated[WidgetTokenRequest, Body()]) -> Response:
    settings: Settings = request.app.state.settings
    origins = sorted({widget.normalise_origin(o) for o in body.origins})
    token = widget.issue(settings.secret_key, caller.key.id, origins, body.ttl_seconds)
    expires = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=body.ttl_seconds)
    return ok(
        request,
        {"token": token, "origins": origins, "expires_at": expires},
        status_code=201,
        headers={"Cache-Control": "no-store"},
    )


@widget_router.get(
    "/widget.js",
    response_class=Response,
    summary="Widget script",
    openapi_extra=KEY_SECURITY,
    responses={200: {"content": {"text/javascript": {}}}},
    description="The embeddable widget: no dependencies, no cookies, renders into a Shadow DOM. "
    "Load it with the widget token as the key (`widget.js?api_key=<token>`, see "
    '`/widget-token`) and mount with `<div data-regintel-widget data-country="sk" '
    'data-ico="…" data-token="<token>">`. Cached 1 h.',
)
def widget_js(request: Request, _auth: WidgetAuth) -> Response:
    loader = html.ENV.loader
    assert loader is not None, "html.ENV is built with a loader"
    script = loader.get_source(html.ENV, "widget.js")[0]
    body = script.replace("__BASE__", orjson.dumps(public_base(request)).decode()).encode()
    return cached_body(request, body, "text/javascript; charset=utf-8", HOUR)


@widget_router.get(
    "/widget/data/{type}/{country}/{ico}.json",
    response_model=Envelope[WidgetData],
    openapi_extra=KEY_SECURITY,
    summary="Widget data",
    description="What the widget shows (`type`: `check` or `badges`). With a widget token as the "
    "key (`?api_key=<token>`), only for a browser on an origin the token was issued for: 401 for "
    "a bad or expired token, 403 for another origin or none. With an API key: as is.",
)
def widget_data(
    request: Request,
    auth: WidgetAuth,
    type: Annotated[Literal["check", "badges"], Path()],  # noqa: A002
    country: Annotated[str, Path(max_length=8)],
    ico: Ico,
    conn: ReadConn,
) -> Response:
    origin = request.headers.get("origin")
    if auth is not None:
        widget.check_origin(auth, origin)
    row = companies_svc.resolve_ico(conn, ico, country_code(country))
    data = service.check(conn, row)
    view_counter(request).add(row["id"])
    out = {
        "type": type,
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "status": row["status"],
        "insolvency": data["insolvency"]["state"],
        "credit_grade": data["credit_grade"],
        "nis2": data["nis2"]["badge"],
        "sanctions_hits": data["sanctions"]["hits"],
        "url": f"/firma/{row['country'].lower()}/{row['national_id']}",
    }
    headers = {"Cache-Control": "private, max-age=300"}
    if auth is not None and origin:
        headers["Access-Control-Allow-Origin"] = widget.normalise_origin(origin)
    return ok(request, out, headers=headers)
