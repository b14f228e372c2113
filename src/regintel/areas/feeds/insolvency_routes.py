"""Public insolvency feeds (spec 4.7, 6.3): `/public/recent-bankruptcies.{json,rss,atom,csv}` and
`/public/stats/bankrupt` (+ `.csv`). No key, per-IP limit, cached 15 minutes (spec 8), CC BY 4.0 with
the attribution inside the feed and in the `X-Attribution` header. docs/feeds.md."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, cast

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from regintel.api import stats_feeds
from regintel.api.deps import AppSettings, PublicLimit, ReadConn, public_base
from regintel.api.envelope import Envelope
from regintel.api.formats import AskedFormat, Offer, Table, respond
from regintel.api.result_cache import Results
from regintel.api.routing import StrictRoute
from regintel.areas.feeds import insolvency_feeds as svc
from regintel.areas.feeds.schemas import BankruptStats
from regintel.areas.stats.service import cached
from regintel.domain.identifiers import parse_country

router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

CACHE = "public, max-age=900"  # spec 8: insolvency feeds and stats/* 15 min
Scope = Annotated[
    svc.Scope,
    Query(
        description="`bankruptcy`, `restructuring` or `any` (both; liquidation is not insolvency, spec 2.2)"
    ),
]
Phase = Annotated[
    svc.Phase,
    Query(description="`start` (declared / permitted, the default), `end`, or `any`"),
]
Country = Annotated[str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case")]
FeedLimit = Annotated[int, Query(ge=1, le=200, description="Most items, 1-200 (spec 8)")]
CsvLimit = Annotated[int, Query(ge=1, le=500, description="Most rows, 1-500 (spec 8)")]
StatsLimit = Annotated[int, Query(ge=1, le=100, description="Most rows per list, 1-100 (spec 8)")]
Months = Annotated[int, Query(ge=1, le=120, description="Months of monthly counts, 1-120")]
_RSS: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/rss+xml": {}}, "description": "RSS 2.0 document"}
}
_ATOM: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/atom+xml": {}}, "description": "Atom 1.0 document"}
}
_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {}}, "description": "CSV: an attribution line, then a header row"}
}
_ABOUT = (
    "Gazette notices (the Slovak Obchodný vestník: bankruptcy declared or ended, restructuring permitted "
    "or ended) and the insolvency flags register sources report (the Czech side, derived from the "
    "register), newest first. Filters `scope`, `phase`, `country`. Licensed CC BY 4.0: the attribution "
    "is in the feed and in the `X-Attribution` header (`X-Data-License: CC-BY-4.0`). Cached 15 minutes."
)


class FeedItem(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str = Field(description="Stable id: `notice:<source>:<notice id>` or `change:<change id>`")
    kind: str = Field(description="`notice` (gazette) or `register` (a register source's flag)")
    event_type: str
    phase: str
    date: str = Field(description="Day the notice takes effect, or the flag was detected")
    country: str
    ico: str
    name: str
    title: str
    link: str | None = Field(description="The notice on the gazette's site")
    source: str


class FeedOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    title: str
    licence: dict[str, str]
    attribution: str
    items: list[FeedItem]


def _country(value: str | None) -> str | None:
    return parse_country(value) if value else None


def _headers(feed: svc.InsolvencyFeed) -> dict[str, str]:
    return {
        "Cache-Control": CACHE,
        "X-Data-License": svc.LICENCE["id"],
        "X-Attribution": feed.header_attribution(),
        "Link": f'<{svc.LICENCE["url"]}>; rel="license"',
    }


def _feed(
    conn: Any, cache: Any, base: str, scope: svc.Scope, phase: svc.Phase, country: str | None, limit: int
) -> tuple[svc.InsolvencyFeed, bool]:
    """The feed's data, computed once per data version and public address, and kept up to 15 minutes
    (spec 8)."""
    cc = _country(country)
    return cached(
        conn,
        cache,
        ("insolvency-feed", base, scope, phase, cc, limit),
        lambda: svc.recent(conn, scope=scope, phase=phase, country=cc, limit=limit, base_url=base),
    )


def _stats(
    conn: Any, cache: Any, base: str, scope: svc.Scope, country: str | None, months: int, limit: int
) -> tuple[BankruptStats, bool]:
    cc, today = _country(country), datetime.now(UTC).date()
    return cached(
        conn,
        cache,
        ("stats-bankrupt", base, scope, cc, months, limit, today),
        lambda: svc.bankrupt_stats(
            conn, scope=scope, country=cc, months=months, limit=limit, base_url=base, today=today
        ),
    )


def _self(request: Request, settings: Any) -> str:
    query = f"?{request.url.query}" if request.url.query else ""
    return f"{public_base(request)}{request.url.path}{query}"


def _xml(request: Request, settings: Any, feed: svc.InsolvencyFeed) -> Any:
    home = _self(request, settings).replace(request.url.path, request.url.path.rsplit(".", 1)[0] + ".json")
    return svc.feed_view(
        feed, base_url=public_base(request), self_url=_self(request, settings), home_url=home
    )


def _offer(
    request: Request,
    conn: Any,
    cache: Any,
    settings: Any,
    scope: svc.Scope,
    phase: svc.Phase,
    country: str | None,
    limit: int,
) -> Offer:
    feed, hit = _feed(conn, cache, public_base(request), scope, phase, country, limit)

    def json() -> tuple[dict[str, Any], dict[str, Any]]:
        data = {
            "title": _xml(request, settings, feed).title,
            "scope": scope,
            "phase": phase,
            "country": feed.country,
            "licence": svc.LICENCE,
            "attribution": feed.attribution,
            "items": feed.items,
        }
        return data, {"cached": hit, "total": len(feed.items)}

    return Offer(
        feed.updated,
        _headers(feed),
        json=json,
        feed=lambda: _xml(request, settings, feed),
        table=lambda: Table(feed.items, svc.COLUMNS, feed.attribution, "recent-bankruptcies.csv"),
        json_conditional=True,
    )


# One handler, three formats (api/formats.py); the CSV, which allows more rows, has its own below. Stacked
# routes register from the one nearest the function upwards; `name` keeps each operation's id as it was.
@router.get(
    "/recent-bankruptcies.atom",
    name="feed_atom",
    summary="Recent bankruptcies (Atom 1.0)",
    response_class=Response,
    responses=_ATOM,
    description=_ABOUT + " As Atom 1.0, up to 200 entries.",
)
@router.get(
    "/recent-bankruptcies.rss",
    name="feed_rss",
    summary="Recent bankruptcies (RSS 2.0)",
    response_class=Response,
    responses=_RSS,
    description=_ABOUT + " As RSS 2.0, up to 200 items.",
)
@router.get(
    "/recent-bankruptcies.json",
    name="feed_json",
    response_model=Envelope[FeedOut],
    summary="Recent bankruptcies (JSON)",
    description=_ABOUT + " Up to 200 items.",
)
def recent_bankruptcies(
    request: Request,
    conn: ReadConn,
    cache: Results,
    settings: AppSettings,
    fmt: AskedFormat,
    scope: Scope = "bankruptcy",
    phase: Phase = "start",
    country: Country = None,
    limit: FeedLimit = 50,
) -> Response:
    return respond(request, fmt, _offer(request, conn, cache, settings, scope, phase, country, limit))


@router.get(
    "/recent-bankruptcies.csv",
    summary="Recent bankruptcies (CSV)",
    response_class=Response,
    responses=_CSV,
    description=_ABOUT + " As CSV, up to 500 rows; the first line is the attribution.",
)
def feed_csv(
    request: Request,
    conn: ReadConn,
    cache: Results,
    settings: AppSettings,
    scope: Scope = "bankruptcy",
    phase: Phase = "start",
    country: Country = None,
    limit: CsvLimit = 500,
) -> Response:
    return respond(request, "csv", _offer(request, conn, cache, settings, scope, phase, country, limit))


_STATS = (
    "Insolvency statistics: companies now flagged per country (`current`), proceedings started and "
    "ended per country and month (`by_month`, newest first) and the latest notices and register flags "
    "(`latest`). Filters `scope` and `country`. CC BY 4.0 (attribution in the body and the "
    "`X-Attribution` header). Cached 15 minutes."
)


stats_feeds.register(
    stats_feeds.StatsFeed(
        name="bankrupt",
        title="Bankruptcy statistics",
        description="Companies flagged insolvent per country, proceedings started and ended per month, the "
        "latest notices; filters `scope` and `country`.",
        columns=svc.month_columns("any"),
        rows=None,
        path="/api/v1/public/stats/bankrupt",
    )
)


def _stats_offer(
    request: Request, conn: Any, cache: Any, scope: svc.Scope, country: str | None, months: int, limit: int
) -> Offer:
    data, hit = _stats(conn, cache, public_base(request), scope, country, months, limit)
    # the feed (for its headers) holds the items as the feed's dicts, which they are (schemas.InsolvencyItem)
    items = cast(list[dict[str, Any]], data["latest"])
    feed = svc.InsolvencyFeed(scope, "any", data["country"], items, data["attribution"], datetime.now(UTC))
    return Offer(
        None,  # aggregates have no newest entry: no `Last-Modified`; the CSV's ETag still gets a 304
        _headers(feed),
        json=lambda: (data, {"cached": hit}),
        table=lambda: Table(
            data["by_month"], svc.month_columns(scope), data["attribution"], "stats-bankrupt.csv"
        ),
    )


# One resource, two formats (api/formats.py); the CSV allows more rows, so it keeps its own handler.
@router.get(
    "/stats/bankrupt",
    response_model=Envelope[BankruptStats],
    summary="Bankruptcy statistics",
    description=_STATS + " At most 100 rows per list.",
)
def stats(
    request: Request,
    conn: ReadConn,
    cache: Results,
    settings: AppSettings,
    scope: Scope = "any",
    country: Country = None,
    months: Months = 24,
    limit: StatsLimit = 100,
) -> Response:
    return respond(request, "json", _stats_offer(request, conn, cache, scope, country, months, limit))


@router.get(
    "/stats/bankrupt.csv",
    summary="Bankruptcy statistics (CSV)",
    response_class=Response,
    responses=_CSV,
    description=_STATS + " As CSV: the monthly counts, up to 500 rows.",
)
def stats_csv(
    request: Request,
    conn: ReadConn,
    cache: Results,
    settings: AppSettings,
    scope: Scope = "any",
    country: Country = None,
    months: Months = 24,
    limit: CsvLimit = 500,
) -> Response:
    return respond(request, "csv", _stats_offer(request, conn, cache, scope, country, months, limit))
