"""`/companies/advanced-search` and `.csv` (spec 4.4): 41 filters, sort, pagination, CSV export.
The filters are documented field by field in `areas.search.company_filters` and docs/advanced-search.md."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from regintel.api.deps import ApiKey, AppSettings, ReadConn, public_base
from regintel.api.envelope import Meta, ok
from regintel.api.result_cache import Results
from regintel.api.routing import StrictRoute
from regintel.areas.search import advanced_search as svc
from regintel.areas.search import export
from regintel.areas.search.company_filters import CompanyFilters
from regintel.areas.search.schemas import AdvancedSearchHit
from regintel.render.tabular import iter_csv

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)


Sort = Literal["name", "founded_on", "revenue", "updated_at"]


class SearchQuery(CompanyFilters):
    sort: Sort = Field(
        default="name",
        description="Order: `name` (normalised), `founded_on`, `revenue` (latest statement), "
        "`updated_at`; empty values come last; ties by internal id",
    )
    direction: Literal["asc", "desc"] | None = Field(
        default=None, description="`asc` or `desc`; default `asc` for `name`, `desc` for the others"
    )
    page: int = Field(default=1, ge=1, description="Page number, from 1 (page × per_page ≤ 10,000)")
    per_page: int = Field(default=20, ge=1, le=100, description="Results per page, 1-100")


class ExportQuery(CompanyFilters):
    limit: int = Field(
        default=export.ROW_CAP,
        ge=1,
        le=export.ROW_CAP,
        description=f"Most rows to export (1-{export.ROW_CAP:,}); rows come in internal id order",
    )


class AdvancedSearchMeta(Meta):
    model_config = ConfigDict(extra="forbid")

    total: int = Field(description="Matches, counted exactly up to 10,000")
    total_exact: bool = Field(description="false when there are more than 10,000 matches")
    page: int
    per_page: int
    sort: Sort
    direction: Literal["asc", "desc"]


class AdvancedSearchPage(BaseModel):
    """A page of `/companies/advanced-search` (the envelope with the page's own `meta`)."""

    model_config = ConfigDict(extra="forbid")

    data: list[AdvancedSearchHit]
    meta: AdvancedSearchMeta


_DESC = (
    "Companies matching every given filter (41 filters; a list filter takes repeated or comma-separated "
    "values and matches any of them; see docs/advanced-search.md). `sanctioned` reads the sanctions hits "
    "precomputed after each list import (docs/screening.md); `nis2_scope` reads the NIS2 scoping "
    "stored by sweeps and the job `nis2.refresh` (docs/nis2.md). "
)


@router.get(
    "/advanced-search",
    response_model=AdvancedSearchPage,
    summary="Advanced search",
    description=_DESC + "Sorted by `sort`/`direction`, paginated by `page`/`per_page` (≤ 100) up to "
    "10,000 rows deep. `meta.total` counts matches exactly up to 10,000; beyond, it says 10,000 and "
    "`meta.total_exact` is false. Example: `?country=sk&in_bankruptcy=1&nace=J`.",
)
def advanced_search(
    request: Request, conn: ReadConn, _key: ApiKey, cache: Results, query: Annotated[SearchQuery, Query()]
) -> Response:
    ref = svc.reference(conn, cache)
    direction = query.direction or ("asc" if query.sort == "name" else "desc")
    items, total, exact = svc.search(
        conn, query, ref, sort=query.sort, direction=direction, page=query.page, per_page=query.per_page
    )
    return ok(
        request,
        items,
        total=total,
        total_exact=exact,
        page=query.page,
        per_page=query.per_page,
        sort=query.sort,
        direction=direction,
    )


@router.get(
    "/advanced-search.csv",
    summary="Advanced search as CSV",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/csv": {}},
            "description": "CSV with a header row and the 47 columns of docs/advanced-search.md",
        }
    },
    description=_DESC + f"Streamed as CSV with 47 columns (header first), at most {export.ROW_CAP:,} rows "
    "(`limit`), in internal id order. Cells that a spreadsheet would run as a formula are prefixed "
    "with `'`. The data keeps its sources' licences: see `/public/data-sources`.",
)
def advanced_search_csv(
    request: Request,
    conn: ReadConn,
    _key: ApiKey,
    cache: Results,
    settings: AppSettings,
    query: Annotated[ExportQuery, Query()],
) -> StreamingResponse:
    ref = svc.reference(conn, cache)
    # Errors (422, 501) come before the first byte is sent.
    cond, total = svc.export_plan(conn, query, ref, export.ROW_CAP, export.PAGE)
    rows = (
        export.iter_rows(request.app.state.engine, cond, ref, public_base(request), query.limit)
        if total
        else iter(())
    )
    headers = {
        "Content-Disposition": 'attachment; filename="companies.csv"',
        "X-Total-Count": str(min(total, export.ROW_CAP)) + ("" if total <= export.ROW_CAP else "+"),
    }
    return StreamingResponse(
        iter_csv(rows, export.COLUMNS), media_type="text/csv; charset=utf-8", headers=headers
    )
