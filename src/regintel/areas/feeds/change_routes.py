"""The change log across companies (spec 4.4): `/companies/changes` (JSON pages), `/changes/feed` (Atom)
and `/changes/stream` (Server-Sent Events). Literal paths: mounted before the catch-all company router.
docs/feeds.md."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from regintel.api.deps import ApiKey, AppSettings, ReadConn, public_base
from regintel.api.envelope import Envelope, dumps, ok
from regintel.api.formats import Offer, respond
from regintel.api.paths import IsoDateTime
from regintel.api.routing import StrictRoute
from regintel.areas.feeds import changes as svc
from regintel.db.changes import ChangeFilter
from regintel.errors import ValidationFailed

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

Country = Annotated[str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case")]
FieldQ = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Only changes of this field (`name`, `in_bankruptcy`, `financials.2023.revenue`, …)",
    ),
]
SourceQ = Annotated[str | None, Query(max_length=32, description="Only changes from this source id")]
Since = Annotated[
    IsoDateTime | None,
    Query(description="Start at changes detected at or after this time (ISO 8601; UTC when no offset)"),
]
STREAM_BATCH = 500


class ChangeOut(BaseModel):
    id: int = Field(description="Change id: increases in the order changes were written")
    country: str
    ico: str
    name: str
    field: str
    from_: str | None = Field(alias="from")
    to: str | None
    source: str
    detected_at: str
    company_url: str


@router.get(
    "/changes",
    response_model=Envelope[list[ChangeOut]],
    summary="Changes",
    description="Field-level changes of all companies, oldest first, so a client can follow the log: "
    "keep `meta.resume_cursor` and pass it as `cursor` next time to get only newer changes "
    "(`meta.next_cursor` is set while more pages are waiting). `since` starts at a detection time. "
    "Filters `country`, `field`, `source`.",
)
def changes(
    request: Request,
    conn: ReadConn,
    settings: AppSettings,
    _key: ApiKey,
    since: Since = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    country: Country = None,
    field: FieldQ = None,
    source: SourceQ = None,
) -> Response:
    flt = svc.make_filter(country, field, source)
    items, next_cursor, resume = svc.list_changes(
        conn, cursor=cursor, since=since, flt=flt, limit=limit, base_url=public_base(request)
    )
    return ok(request, items, next_cursor=next_cursor, resume_cursor=resume)


@router.get(
    "/changes/feed",
    summary="Changes feed",
    response_class=Response,
    responses={200: {"content": {"application/atom+xml": {}}, "description": "Atom 1.0 document"}},
    description="The latest changes of all companies as an Atom 1.0 feed, newest first (feed readers "
    "may pass the key as `?api_key=`). Filters `country`, `field`, `source`; `limit` 1-200.",
)
def changes_feed(
    request: Request,
    conn: ReadConn,
    settings: AppSettings,
    _key: ApiKey,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    country: Country = None,
    field: FieldQ = None,
    source: SourceQ = None,
) -> Response:
    flt = svc.make_filter(country, field, source)
    query = "&".join(f"{k}={v}" for k, v in request.query_params.items() if k != "api_key")
    self_url = f"{public_base(request)}{request.url.path}" + (f"?{query}" if query else "")
    feed = svc.feed(conn, flt=flt, limit=limit, base_url=public_base(request), self_url=self_url)
    return respond(request, "atom", Offer(feed.updated, feed=lambda: feed))


@router.get(
    "/changes/stream",
    summary="Changes stream",
    response_class=Response,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events"}},
    description="New changes of all companies as Server-Sent Events, as they are written: each event has "
    "`id:` (the change id), `event: change` and the change as JSON `data:`. Reconnect with the "
    "`Last-Event-ID` header (or `?last_event_id=`) to resume after the last event received; without it "
    "the stream starts at the end of the log, or at `since`. Idle streams carry `: heartbeat` comment "
    "lines. Filters `country`, `field`, `source`.",
)
async def changes_stream(
    request: Request,
    settings: AppSettings,
    _key: ApiKey,
    since: Since = None,
    last_event_id: Annotated[int | None, Query(ge=0, description="Resume after this id")] = None,
    country: Country = None,
    field: FieldQ = None,
    source: SourceQ = None,
    last_event_header: Annotated[str | None, Header(alias="Last-Event-ID")] = None,
) -> Response:
    flt = svc.make_filter(country, field, source)
    resume = last_event_id if last_event_id is not None else _header_id(last_event_header)
    engine = request.app.state.engine
    start = await run_in_threadpool(svc.stream_start, engine, last_event_id=resume, since=since)
    return EventSourceResponse(
        _events(request, engine, flt, start, public_base(request), settings.changes_stream_poll_seconds),
        ping=settings.changes_stream_heartbeat_seconds,
        ping_message_factory=lambda: ServerSentEvent(comment="heartbeat"),
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _header_id(value: str | None) -> int | None:
    if value is None or not value.strip():
        return None
    if not value.strip().isdigit():
        raise ValidationFailed(
            "Last-Event-ID must be a change id",
            details=[{"field": "Last-Event-ID", "in": "header", "message": "not a non-negative integer"}],
        )
    return int(value.strip())


async def _events(
    request: Request, engine: Any, flt: ChangeFilter, after: int, base_url: str, poll_seconds: float
) -> AsyncIterator[ServerSentEvent]:
    """Poll the log off the event loop (a worker thread per query) and send what is new; ends when the
    client goes away (sse-starlette also cancels it then)."""
    yield ServerSentEvent(comment=f"resuming after change {after}", retry=3_000)
    while not await request.is_disconnected():
        rows = await run_in_threadpool(svc.fetch_after, engine, after, flt, STREAM_BATCH, base_url)
        for row in rows:
            after = row["id"]
            yield ServerSentEvent(id=str(row["id"]), event="change", data=dumps(row).decode())
        if len(rows) < STREAM_BATCH:
            await anyio.sleep(poll_seconds)
