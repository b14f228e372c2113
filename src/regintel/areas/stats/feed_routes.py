"""`/public/stats.json` (the index) and `/public/stats/{feed}` + `.csv`: the feeds areas register in
`api.stats_feeds`. No key, per-IP limit, cached 15 minutes (spec 8). Mounted after the areas, so the
feeds with their own routes (`/public/stats/bankrupt`, `/sanctions`) match first."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from sqlalchemy import Connection

from regintel.api.deps import PublicLimit, ReadConn, public_base
from regintel.api.envelope import Envelope, ok
from regintel.api.formats import Offer, Table, respond
from regintel.api.result_cache import Results
from regintel.api.routing import StrictRoute
from regintel.api.stats_feeds import FEEDS, StatsFeed
from regintel.errors import NotFound
from regintel.result_cache import ResultCache

router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

CACHE = "public, max-age=900"  # spec 8: stats/* 15 min
FeedName = Annotated[
    str, Path(pattern=r"^[a-z0-9][a-z0-9-]{0,63}$", description="Feed name, see `/public/stats.json`")
]
JsonLimit = Annotated[int, Query(ge=1, le=100, description="Most rows, 1-100 (spec 4.7)")]
CsvLimit = Annotated[int, Query(ge=1, le=500, description="Most rows, 1-500 (spec 4.7)")]
_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {}}, "description": "CSV: an attribution line, then a header row"}
}


class FeedEntry(BaseModel):
    name: str
    title: str
    description: str
    licence: str
    json_url: str = Field(description="The feed as JSON (at most 100 rows)")
    csv_url: str = Field(description="The feed as CSV (at most 500 rows)")
    columns: list[str]


class FeedIndex(BaseModel):
    feeds: list[FeedEntry]


class FeedRows(BaseModel):
    feed: str
    title: str
    attribution: str
    licence: str
    columns: list[str]
    count: int
    rows: list[dict[str, Any]]


def _feed(name: str) -> StatsFeed:
    feed = FEEDS.get(name)
    if feed is None or feed.rows is None:
        served = sorted(FEEDS)
        raise NotFound(
            f"No stats feed {name!r}; the feeds are: {', '.join(served)}", details={"feeds": served}
        )
    return feed


def _headers(feed: StatsFeed) -> dict[str, str]:
    return {"Cache-Control": CACHE, "X-Attribution": feed.attribution, "X-Data-License": feed.licence}


@router.get(
    "/stats.json",
    response_model=Envelope[FeedIndex],
    summary="Index of the public statistics feeds",
    description="Every `/public/stats/*` feed with its title, licence, columns and JSON and CSV links.",
)
def index(request: Request) -> Response:
    base = public_base(request)
    feeds = []
    for feed in sorted(FEEDS.values(), key=lambda f: f.name):
        path = feed.path or f"/api/v1/public/stats/{feed.name}"
        feeds.append(
            {
                "name": feed.name,
                "title": feed.title,
                "description": feed.description,
                "licence": feed.licence,
                "json_url": base + path,
                "csv_url": base + path + ".csv",
                "columns": list(feed.columns),
            }
        )
    return ok(request, {"feeds": feeds}, headers={"Cache-Control": CACHE})


def _offer(feed: str, conn: Connection, cache: ResultCache, limit: int) -> Offer:
    """The feed's first `limit` rows, as JSON or CSV: one reading, cached for both."""
    spec = _feed(feed)
    assert spec.rows is not None
    reader = spec.rows
    rows, hit = cache.get(("stats-feed", feed, limit), lambda: list(reader(conn, limit)))

    def json() -> tuple[dict[str, Any], dict[str, Any]]:
        data = {
            "feed": feed,
            "title": spec.title,
            "attribution": spec.attribution,
            "licence": spec.licence,
            "columns": list(spec.columns),
            "count": len(rows),
            "rows": rows,
        }
        return data, {"cached": hit}

    return Offer(
        updated=None,
        headers=_headers(spec),
        json=json,
        table=lambda: Table(rows, spec.columns, spec.attribution, f"stats-{feed}.csv"),
    )


@router.get(
    "/stats/{feed}.csv",
    summary="A public statistics feed (CSV)",
    response_class=Response,
    responses=_CSV,
    description="The feed's rows as CSV, up to 500: an attribution line, then a header row. The feeds are "
    "listed in `/public/stats.json`; 404 `NOT_FOUND` names them for an unknown feed. Cached 15 minutes.",
)
def feed_csv(
    request: Request, feed: FeedName, conn: ReadConn, cache: Results, limit: CsvLimit = 500
) -> Response:
    return respond(request, "csv", _offer(feed, conn, cache, limit))


@router.get(
    "/stats/{feed}",
    response_model=Envelope[FeedRows],
    summary="A public statistics feed",
    description="The feed's first rows (at most 100) with its columns, attribution and licence. The feeds "
    "are listed in `/public/stats.json`; 404 `NOT_FOUND` names them for an unknown feed. Cached 15 minutes.",
)
def feed_json(
    request: Request, feed: FeedName, conn: ReadConn, cache: Results, limit: JsonLimit = 100
) -> Response:
    return respond(request, "json", _offer(feed, conn, cache, limit))
