"""`GET /api/v1/public/data-sources` (+ `.json`, `.csv`): publishers, licences and attribution."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel

from regintel.api.deps import PublicLimit, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.catalogue.data_sources import COLUMNS, list_data_sources
from regintel.domain.identifiers import parse_country
from regintel.render.tabular import to_csv

router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

CACHE = {"Cache-Control": "public, max-age=1800"}  # spec 8: data-sources 30 min
CountryFilter = Annotated[str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2")]
CategoryFilter = Annotated[
    str | None,
    Query(
        max_length=32,
        pattern=r"^[A-Za-z_-]+$",
        description="register, lei, financials, insolvency, sanctions, …",
    ),
]


class DataSource(BaseModel):
    id: str
    name: str
    publisher: str
    country: str | None
    category: str
    formats: str
    licence: str
    licence_url: str | None
    attribution: str
    url: str | None
    cadence: str
    last_import_at: Any
    row_count: int


def _rows(conn: Any, country: str | None, category: str | None) -> list[dict[str, Any]]:
    return list_data_sources(conn, parse_country(country) if country else None, category)


_DESC = (
    "The catalogue of the sources regintel's data comes from: publisher, licence, attribution text to "
    "show, URL, update cadence, last import and row count. Filters `country` and `category`."
)


@router.get(
    "/data-sources", response_model=Envelope[list[DataSource]], summary="Data sources", description=_DESC
)
def data_sources(
    request: Request, conn: ReadConn, country: CountryFilter = None, category: CategoryFilter = None
) -> Response:
    rows = _rows(conn, country, category)
    return ok(request, rows, total=len(rows), headers=CACHE)


@router.get(
    "/data-sources.json",
    response_model=Envelope[list[DataSource]],
    summary="Data sources (JSON)",
    description=_DESC,
)
def data_sources_json(
    request: Request, conn: ReadConn, country: CountryFilter = None, category: CategoryFilter = None
) -> Response:
    return data_sources(request, conn, country, category)


@router.get(
    "/data-sources.csv",
    summary="Data sources (CSV)",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}, "description": "CSV with a header row"}},
    description=_DESC + " As CSV with one row per source.",
)
def data_sources_csv(
    conn: ReadConn, country: CountryFilter = None, category: CategoryFilter = None
) -> Response:
    body = to_csv(_rows(conn, country, category), COLUMNS)
    return Response(
        body,
        media_type="text/csv; charset=utf-8",
        headers=CACHE | {"Content-Disposition": 'inline; filename="data-sources.csv"'},
    )
