"""What the pages' route modules share (router.py, check_routes.py, widget_routes.py): the parameters,
the cache lifetimes, the language choice, the view counter, ETag answers and the pages' lifespan."""

from __future__ import annotations

import gc
import hashlib
import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Annotated, Any

import anyio
from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import Response
from sqlalchemy import Connection

from regintel.api.deps import public_base
from regintel.errors import ValidationFailed

from . import aggregates, html, i18n, regions, service
from .i18n import N_


@asynccontextmanager
async def pages_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At start-up the templates are compiled, the region maps prepared and one company's check is built, so
    that no first request pays for them. Views still pending when the
    process stops are written then, not dropped: and no timer of a stopped app writes into a database that
    has moved on (tests share one PostgreSQL database)."""
    if app.state.settings.warm_start:
        html.compile_templates()
        regions.prepared()  # the maps' GeoJSON text and SVG paths (about 10 ms)
        aggregates.nuts_names()
        await anyio.to_thread.run_sync(service.warm_queries, app.state.engine)
        # The process's first full garbage collection, now rather than in an early request: start-up leaves
        # about 360,000 tracked objects that no full collection has counted yet, so the first request that
        # keeps a few thousand objects ran one over all of them (150-200 ms of CPU measured in a first heat
        # map, docs/pages.md). After it the next one waits until the long-lived objects grow by a quarter.
        gc.collect()
    yield
    counter: service.ViewCounter | None = getattr(app.state, "page_view_counter", None)
    if counter is not None:
        await anyio.to_thread.run_sync(counter.flush)


HOUR = "public, max-age=3600"  # spec 8: check JSON and images, 1 h
QUARTER = "public, max-age=900"  # spec 8: rankings JSON (and stats), 15 min
MINUTE = "public, max-age=60"
SVG = "image/svg+xml; charset=utf-8"
Ico = Annotated[str, Path(min_length=1, max_length=40, description="National identifier")]
Country = Annotated[
    str | None,
    Query(
        min_length=2,
        max_length=2,
        pattern="^[A-Za-z]{2}$",
        description="ISO 3166-1 alpha-2, any case (default: SK first)",
    ),
]
Lang = Annotated[
    i18n.Lang | None,
    Query(description="Page language, `sk` or `en`; without it the browser's Accept-Language decides"),
]
BADGES = {
    "badge": N_("Register status"),
    "credit-badge": N_("Credit grade"),
    "nis2-badge": N_("NIS2 scope"),
    "security-badge": N_("Security posture"),
}

RankingKey = Annotated[
    str, Path(max_length=40, description="`largest`, `public-contracts`, `shell-addresses`, `most-viewed`")
]

Currency = Annotated[
    str,
    Query(
        pattern="^[A-Za-z]{3}$",
        description="`largest`, `public-contracts`: rank "
        "values in this currency (ISO 4217; default EUR; nothing is converted)",
    ),
]


def lang_args(request: Request, asked: str | None, default: i18n.Lang) -> dict[str, Any]:
    """The language arguments of `html.page` for a page whose path does not fix its language."""
    lang, by_header = i18n.choose(request, asked, default)
    return {"lang": lang, "by_header": by_header, "alternate": i18n.alternates(request, public_base(request))}


def view_counter(request: Request) -> service.ViewCounter:
    state = request.app.state
    counter = getattr(state, "page_view_counter", None)
    if counter is None:
        counter = state.page_view_counter = service.ViewCounter(state.engine)
    return counter


def pages_cache(request: Request) -> dict[str, Any]:
    state = request.app.state
    if not hasattr(state, "pages_cache"):
        state.pages_cache = {}
    cache: dict[str, Any] = state.pages_cache  # app.state is untyped: the dict set just above
    return cache


def cached_body(request: Request, body: bytes, media_type: str, cache: str) -> Response:
    """A body with a strong ETag; 304 when the client already holds it."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"Cache-Control": cache, "ETag": etag}
    if etag in [t.strip() for t in request.headers.get("if-none-match", "").split(",")]:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def badge_svg(conn: Connection, row: Mapping[str, Any], kind: str) -> str:
    if kind == "badge":
        return service.status_badge(row)
    if kind == "credit-badge":
        return service.credit_badge(conn, row)
    if kind == "nis2-badge":
        return service.nis2_badge(conn, row)
    return service.security_badge(conn, row)


def upper_country(value: str | None) -> str | None:
    return value.upper() if value else None


def country_code(cc: str) -> str:
    if not re.fullmatch("[A-Za-z]{2}", cc):
        raise ValidationFailed("A country is two letters (ISO 3166-1 alpha-2)", details={"country": cc})
    return cc.upper()
