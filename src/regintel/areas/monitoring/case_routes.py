"""Monitoring events (spec 6.2) and cases (spec 4.6): what changed at the companies a key watches."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from regintel.api.deps import ApiKey, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.monitoring import events as svc
from regintel.areas.monitoring.schemas import Strict

router = APIRouter(prefix="/api/v1/monitoring", tags=["Monitoring"], route_class=StrictRoute)

EventId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Event id")]
CaseId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Case id")]


class Event(BaseModel):
    id: int
    type: str = Field(description="`company.insolvency.changed`, `company.changed` or `company.created`")
    ico: str
    country: str
    company_name: str
    field: str
    from_: Any = Field(alias="from", description="Value before (booleans for the insolvency flags)")
    to: Any = Field(description="Value after")
    severity: str = Field(
        description="`critical` (bankruptcy, restructuring), `warning` (liquidation, "
        "dissolution, status), `info` (other fields)"
    )
    source: str
    detected_at: datetime
    case_id: int | None


class Case(BaseModel):
    id: int
    title: str
    status: str
    note: str | None
    event_count: int
    created_at: datetime
    updated_at: datetime


class CaseWithEvents(Case):
    events: list[Event]


class EventInCase(Event):
    case: Case | None


class AttachCase(Strict):
    case_id: int | None = Field(
        default=None, ge=1, le=2**63 - 1, description="A case of this key; `null` detaches the event"
    )
    title: str | None = Field(
        default=None, max_length=200, description="Create a case with this title instead"
    )
    note: str | None = Field(default=None, max_length=2000, description="Note of the new case")


@router.get(
    "/events",
    response_model=Envelope[list[Event]],
    summary="Diff events",
    description="Changes of the companies this key monitors, oldest first, recorded in the same "
    "transaction as the data change. Filters: `ico` (with optional `country`), `since` (ISO 8601 "
    "date or date-time, UTC when no zone), `severity` (`info`, `warning`, `critical`). Keyset-paginated: "
    "pass `meta.next_cursor` as `cursor`.",
)
def events(
    request: Request,
    conn: DbConn,
    caller: ApiKey,
    ico: Annotated[str | None, Query(max_length=40, description="National identifier")] = None,
    country: Annotated[str | None, Query(min_length=2, max_length=2)] = None,
    since: Annotated[str | None, Query(max_length=40)] = None,
    severity: Annotated[str | None, Query(max_length=16)] = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    items, next_cursor = svc.list_events(
        conn,
        caller.key.id,
        ico=ico,
        country=country,
        since=since,
        severity=severity,
        cursor=cursor,
        limit=limit,
    )
    return ok(request, items, next_cursor=next_cursor)


@router.patch(
    "/events/{event_id:int}/case",
    response_model=Envelope[EventInCase],
    summary="Attach an event to a case",
    description='Body `{"case_id": 7}` attaches the event to this key\'s case 7, `{"title": "…", '
    '"note": "…"}` creates a case and attaches it, `{"case_id": null}` detaches it.',
)
def attach(
    request: Request, event_id: EventId, body: AttachCase, conn: DbWriteConn, caller: ApiKey
) -> Response:
    data = svc.attach(
        conn, caller.key.id, event_id, body.model_fields_set, body.case_id, body.title, body.note
    )
    conn.commit()
    return ok(request, data)


@router.get(
    "/cases",
    response_model=Envelope[list[Case]],
    summary="List cases",
    description="This key's cases, most recently touched first, with their event counts "
    "(`page`, `per_page`, `meta.total`).",
)
def list_cases(
    request: Request,
    conn: DbConn,
    caller: ApiKey,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Response:
    items, total = svc.list_cases(conn, caller.key.id, page, per_page)
    return ok(request, items, total=total, page=page, per_page=per_page)


@router.get(
    "/cases/{case_id:int}",
    response_model=Envelope[CaseWithEvents],
    summary="One case",
    description="A case of this key with its events, newest first (at most 500).",
)
def get_case(request: Request, case_id: CaseId, conn: DbConn, caller: ApiKey) -> Response:
    return ok(request, svc.get_case(conn, caller.key.id, case_id))
