"""`GET /api/v1/companies/{ico}/timeline` (spec 2.3, 4.4): one company's unified events.

Mounted before the catch-all company router, whose `/{country}/{national_id}` would not match
`{ico}/timeline` anyway (a country is two letters), but whose order rule every company router follows.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from regintel.api.deps import ApiKey, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.companies import timeline as svc
from regintel.domain.timeline import EVENT_TYPES

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)


class TimelineEvent(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str = Field(description="`notice:<id>`, `change:<id>`, `founded`, `dissolved`, `lei:<LEI>`")
    event_type: str = Field(description="One of: " + ", ".join(f"`{t}`" for t in EVENT_TYPES))
    phase: str | None = Field(description="`start` or `end` for bankruptcy, restructuring and liquidation")
    date: str
    date_kind: str = Field(
        description="`effective` (the day it took effect) or `detected` (the day an import saw the change)"
    )
    source: str
    title: str
    link: str | None
    court: str | None
    case_number: str | None
    changes: list[dict[str, Any]] | None = Field(
        description="Changed fields with `from` and `to` (change-log events)"
    )


class Timeline(BaseModel):
    events: list[TimelineEvent]


@router.get(
    "/{ico}/timeline",
    response_model=Envelope[Timeline],
    summary="Timeline",
    description="The company's events from every source, newest first: gazette notices (bankruptcy, "
    "restructuring, liquidation, with court, file number and a link to the notice), register and "
    "financial-administration changes from the change log (name, address, status, legal form, NACE, VAT "
    "and tax registration, officers, owners, financial statements, insolvency flags of registers), the "
    "founding and dissolution dates, the LEI registration and the public contracts the company supplies "
    "(`contract`: TED awards and the Czech register of contracts). Keyset-paginated: pass "
    "`meta.next_cursor` as `cursor`. Filter `event_type` (comma-separated).",
)
def timeline(
    request: Request,
    ico: Annotated[str, Path(max_length=40, description="National identifier")],
    conn: ReadConn,
    _key: ApiKey,
    country: Annotated[
        str | None,
        Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case (default: SK first)"),
    ] = None,
    event_type: Annotated[
        str | None, Query(max_length=500, description="Only these types, comma-separated")
    ] = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    types = svc.parse_types(event_type)
    row = companies_svc.resolve_ico(conn, ico, country)
    events, next_cursor = svc.timeline(conn, row, cursor=cursor, limit=limit, types=types)
    return ok(
        request,
        {"events": events},
        next_cursor=next_cursor,
        country=row["country"],
        national_id=row["national_id"],
    )
