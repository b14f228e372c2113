"""Public routes of the regulatory area (spec 4.7, 8): `/public/regulatory-feed` as JSON, Atom, RSS, CSV
and HTML, `/digest.md`, `/sources.json`, `/stats`; and `/public/stats/uk-psc` (+ `.csv`). No key, the
per-IP limit; the regulatory feed is cached 30 minutes, the statistics 15 (spec 8)."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from jinja2 import Environment, PackageLoader

from regintel.api.conditional import feed_response
from regintel.api.deps import PublicLimit, ReadConn, public_base
from regintel.api.envelope import Envelope, ok
from regintel.api.formats import AskedFormat, Offer, Table, respond
from regintel.api.routing import StrictRoute
from regintel.render.feeds import to_feed_csv

from . import service as svc
from . import uk_psc
from .schemas import RegFeed, RegSources, RegStats, UkPscFeed
from .tags import TAGS

router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

FEED_CACHE = "public, max-age=1800"  # spec 8: regulatory feed 30 min
STATS_CACHE = "public, max-age=900"  # spec 8: stats/* 15 min
Source = Annotated[str | None, Query(max_length=32, description="Source id: " + ", ".join(svc.SOURCES))]
Tag = Annotated[
    str | None, Query(max_length=32, description="A tag of the rule set (any case): " + ", ".join(TAGS))
]
Since = Annotated[
    str | None,
    Query(
        max_length=40,
        # The extended format only: Python also reads `2774041123` (basic format), which reads as a number.
        pattern=r"^\d{4}-\d{2}-\d{2}",
        description="Published at or after: ISO 8601 date or date-time (UTC when no zone is given)",
    ),
]
Text = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=200,
        description="Words in the title or summary (case and diacritics ignored)",
    ),
]
Limit = Annotated[int, Query(ge=1, le=200, description="Most entries, 1-200")]
CsvLimit = Annotated[int, Query(ge=1, le=500, description="Most rows, 1-500 (spec 8)")]
_ABOUT = (
    "Publications of five regulators (Národná banka Slovenska, Česká národní banka, ENISA, the EBA, ESMA) "
    "imported from their feeds, newest first, each tagged by a documented rule set (NIS2, DORA, AML, "
    "sanctions, …). Filters `source`, `tag`, `since`, `q`. Cached 30 minutes; the XML, CSV and HTML "
    "renderings answer conditional requests (ETag, Last-Modified) with 304."
)
_XML: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/atom+xml": {}}, "description": "Atom 1.0"}
}
_RSS: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/rss+xml": {}}, "description": "RSS 2.0"}
}
_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {}}, "description": "CSV: an attribution line, then a header row"}
}
_HTML: dict[int | str, dict[str, Any]] = {200: {"content": {"text/html": {}}, "description": "HTML page"}}
_MD: dict[int | str, dict[str, Any]] = {200: {"content": {"text/markdown": {}}, "description": "Markdown"}}
_templates = Environment(
    loader=PackageLoader("regintel.areas.regulatory", "templates"),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _page(
    conn: Any, source: str | None, tag: str | None, since: str | None, q: str | None, limit: int
) -> svc.Page:
    return svc.entries(conn, svc.parse_filters(source, tag, since, q), limit)


def _self(request: Request) -> str:
    query = f"?{request.url.query}" if request.url.query else ""
    return f"{public_base(request)}{request.url.path}{query}"


def _alt(request: Request, suffix: str) -> str:
    query = f"?{request.url.query}" if request.url.query else ""
    return f"{public_base(request)}/api/v1/public/regulatory-feed{suffix}{query}"


# HTTP header values are Latin-1: the attribution without its diacritics ("Česká" → "Ceska").
_HEADER_ATTRIBUTION = unicodedata.normalize("NFKD", svc.ATTRIBUTION).encode("ascii", "ignore").decode()


def _headers() -> dict[str, str]:
    return {"Cache-Control": FEED_CACHE, "X-Attribution": _HEADER_ATTRIBUTION}


def _offer(
    request: Request,
    conn: Any,
    source: str | None,
    tag: str | None,
    since: str | None,
    q: str | None,
    limit: int,
) -> Offer:
    page = _page(conn, source, tag, since, q, limit)

    def html() -> str:
        return _templates.get_template("feed.html").render(
            page=page,
            sources=svc.SOURCES,
            tags=TAGS,
            form={"source": source, "tag": tag, "since": since, "q": q},
            atom=_alt(request, ".atom"),
            rss=_alt(request, ".rss"),
            csv=_alt(request, ".csv"),
            json=_alt(request, ""),
            attribution=svc.ATTRIBUTION,
        )

    data = {"title": "Regulatory feed", "attribution": svc.ATTRIBUTION, "filters": page.filters}
    return Offer(
        page.updated,
        _headers(),
        json=lambda: (data | {"items": page.items}, {"total": page.total}),
        feed=lambda: svc.feed_view(
            page, base_url=public_base(request), self_url=_self(request), home_url=_alt(request, ".html")
        ),
        table=lambda: Table(svc.csv_rows(page), svc.COLUMNS, svc.ATTRIBUTION, "regulatory-feed.csv"),
        html=html,
    )


# One handler, four formats (api/formats.py); the CSV, which allows more rows, has its own below. Stacked
# routes register from the one nearest the function upwards: JSON first, as the document lists them.
# `name` keeps each operation's id as it was.
@router.get(
    "/regulatory-feed.html",
    name="feed_html",
    summary="Regulatory feed (HTML)",
    response_class=Response,
    responses=_HTML,
    description=_ABOUT + " As an HTML page with a filter form, up to 200 entries.",
)
@router.get(
    "/regulatory-feed.rss",
    name="feed_rss",
    summary="Regulatory feed (RSS 2.0)",
    response_class=Response,
    responses=_RSS,
    description=_ABOUT + " As RSS 2.0, up to 200 items.",
)
@router.get(
    "/regulatory-feed.atom",
    name="feed_atom",
    summary="Regulatory feed (Atom 1.0)",
    response_class=Response,
    responses=_XML,
    description=_ABOUT + " As Atom 1.0, up to 200 entries.",
)
@router.get(
    "/regulatory-feed",
    name="feed_json",
    response_model=Envelope[RegFeed],
    summary="Regulatory feed",
    description=_ABOUT + " Up to 200 entries; `meta.total` counts every match.",
)
def regulatory_feed(
    request: Request,
    conn: ReadConn,
    fmt: AskedFormat,
    source: Source = None,
    tag: Tag = None,
    since: Since = None,
    q: Text = None,
    limit: Limit = 50,
) -> Response:
    return respond(request, fmt, _offer(request, conn, source, tag, since, q, limit))


@router.get(
    "/regulatory-feed.csv",
    summary="Regulatory feed (CSV)",
    response_class=Response,
    responses=_CSV,
    description=_ABOUT + " As CSV: `limit` 1-500, default 200; the first line is the attribution.",
)
def feed_csv(
    request: Request,
    conn: ReadConn,
    source: Source = None,
    tag: Tag = None,
    since: Since = None,
    q: Text = None,
    limit: CsvLimit = 200,
) -> Response:
    return respond(request, "csv", _offer(request, conn, source, tag, since, q, limit))


@router.get(
    "/regulatory-feed/digest.md",
    summary="Regulatory digest (Markdown)",
    response_class=Response,
    responses=_MD,
    description="The last `hours` hours' publications (1-168, default 24) per regulator, "
    "newest first, with links and tags, as Markdown (at most 500 entries). Cached 30 minutes.",
)
def digest(
    request: Request,
    conn: ReadConn,
    hours: Annotated[int, Query(ge=1, le=168, description="Hours back from now, 1-168 (spec 8)")] = 24,
) -> Response:
    body, updated = svc.digest(conn, hours, datetime.now(UTC))
    return feed_response(request, body.encode(), "text/markdown; charset=utf-8", updated, _headers())


@router.get(
    "/regulatory-feed/sources.json",
    response_model=Envelope[RegSources],
    summary="Regulatory feed sources",
    description="The five regulators whose feeds are imported: feed URL, licence, attribution, entry "
    "count and newest publication. Cached 30 minutes.",
)
def sources(request: Request, conn: ReadConn) -> Response:
    data = svc.sources(conn)
    return ok(request, {"sources": data}, total=len(data), headers=_headers())


@router.get(
    "/regulatory-feed/stats",
    response_model=Envelope[RegStats],
    summary="Regulatory feed statistics",
    description="Entries in all and per source (with first and last publication), the 25 most used tags, "
    "the date range of what is stored. Cached 30 minutes.",
)
def stats(request: Request, conn: ReadConn) -> Response:
    return ok(request, svc.stats(conn), headers=_headers())


ActiveOnly = Annotated[bool, Query(alias="activeOnly", description="Only entries not ceased (default: all)")]
_PSC = (
    "Companies House persons with significant control of UK companies, newest notification first: the "
    "PSC's kind, natures of control, the lower bounds of the published share and voting bands, notified "
    "and ceased dates. Natural persons are not named in this public feed (corporate PSCs are). Open "
    "Government Licence v3.0. Cached 15 minutes."
)


def _psc_headers() -> dict[str, str]:
    return {
        "Cache-Control": STATS_CACHE,
        "X-Attribution": uk_psc.FEED.attribution,
        "X-Data-License": uk_psc.FEED.licence,
    }


@router.get(
    "/stats/uk-psc",
    response_model=Envelope[UkPscFeed],
    summary="UK persons with significant control",
    description=_PSC + " At most 100 rows; `total` counts every match.",
)
def uk_psc_json(
    request: Request,
    conn: ReadConn,
    active_only: ActiveOnly = False,
    limit: Annotated[int, Query(ge=1, le=100, description="Most rows, 1-100 (spec 4.7)")] = 100,
) -> Response:
    data = uk_psc.feed(conn, active_only, limit)
    return ok(request, data, total=data["total"], headers=_psc_headers())


@router.get(
    "/stats/uk-psc.csv",
    summary="UK persons with significant control (CSV)",
    response_class=Response,
    responses=_CSV,
    description=_PSC + " As CSV, up to 500 rows; the first line is the attribution.",
)
def uk_psc_csv(
    conn: ReadConn,
    active_only: ActiveOnly = False,
    limit: Annotated[int, Query(ge=1, le=500, description="Most rows, 1-500 (spec 4.7)")] = 500,
) -> Response:
    data = uk_psc.feed(conn, active_only, limit)
    body = to_feed_csv(uk_psc.csv_rows(data), uk_psc.COLUMNS, uk_psc.FEED.attribution)
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers=_psc_headers() | {"Content-Disposition": 'inline; filename="stats-uk-psc.csv"'},
    )
