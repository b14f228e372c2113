"""One resource, several formats, one handler (issue 14): `respond(request, fmt, offer)`.

A resource the spec offers as JSON and as Atom, RSS, CSV or HTML (`/x`, `/x.atom`, `/x.rss`, …) is one
handler registered on each path; the path's suffix names the format (`AskedFormat`), and the handler
returns an `Offer`: how to build each of its renderings, of which only the asked one is built. `respond`
holds what every rendering of that kind does alike: the JSON envelope, the feed writers, CSV with its
attribution line, the media types, `ETag`/`Last-Modified` and the 304 of a conditional request
(api/conditional.py). A format whose query parameters differ (a CSV that allows more rows) keeps a
handler of its own with those parameters, and returns the same `Offer`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath
from typing import Annotated, Any, Literal

from fastapi import Depends, Request
from fastapi.responses import Response

from regintel.api.conditional import feed_response, http_date, not_modified
from regintel.api.envelope import ok
from regintel.render.feeds import Feed, to_atom, to_feed_csv, to_rss

Format = Literal["json", "atom", "rss", "csv", "html"]
_BY_SUFFIX: dict[str, Format] = {".atom": "atom", ".rss": "rss", ".csv": "csv", ".html": "html"}
MEDIA: dict[Format, str] = {
    "atom": "application/atom+xml; charset=utf-8",
    "rss": "application/rss+xml; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
}


def asked_format(request: Request) -> Format:
    """The format the matched route's path names by its suffix: `/x.atom` is Atom, `/x` JSON."""
    path = getattr(request.scope.get("route"), "path", request.url.path)
    return _BY_SUFFIX.get(PurePosixPath(path).suffix, "json")


AskedFormat = Annotated[Format, Depends(asked_format)]


@dataclass(frozen=True)
class Table:
    rows: Sequence[Mapping[str, Any]]
    columns: Sequence[str]
    attribution: str  # the first line of the file (spec 4.7: "with an attribution header")
    filename: str


@dataclass(frozen=True)
class Offer:
    """A resource's renderings, each built only when asked. `updated` is its newest change: the
    `Last-Modified` of every rendering; `headers` go on every answer (caching, attribution)."""

    updated: datetime | None
    headers: dict[str, str] = field(default_factory=dict)
    json: Callable[[], tuple[Any, dict[str, Any]]] | None = None  # (data, meta)
    feed: Callable[[], Feed] | None = None  # Atom and RSS
    table: Callable[[], Table] | None = None  # CSV
    html: Callable[[], str] | None = None
    # The JSON envelope carries a request id, so it has no stable ETag; with this, `If-Modified-Since`
    # still gets its 304.
    json_conditional: bool = False


def respond(request: Request, fmt: Format, offer: Offer) -> Response:
    if fmt == "json":
        assert offer.json is not None, "a route offered JSON that its resource does not give"
        headers = dict(offer.headers)
        if offer.updated is not None and offer.json_conditional:
            headers["Last-Modified"] = http_date(offer.updated)
            if not_modified(request, offer.updated):
                return Response(status_code=304, headers=headers)
        data, meta = offer.json()
        return ok(request, data, headers=headers, **meta)
    if fmt in ("atom", "rss"):
        assert offer.feed is not None, f"a route offered {fmt} that its resource does not give"
        body = (to_atom if fmt == "atom" else to_rss)(offer.feed())
        return feed_response(request, body, MEDIA[fmt], offer.updated, offer.headers)
    if fmt == "csv":
        assert offer.table is not None, "a route offered CSV that its resource does not give"
        t = offer.table()
        headers = offer.headers | {"Content-Disposition": f'inline; filename="{t.filename}"'}
        body = to_feed_csv(t.rows, t.columns, t.attribution).encode()
        return feed_response(request, body, MEDIA["csv"], offer.updated, headers)
    assert offer.html is not None, "a route offered HTML that its resource does not give"
    return feed_response(request, offer.html().encode(), MEDIA["html"], offer.updated, offer.headers)
