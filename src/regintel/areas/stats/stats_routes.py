"""Statistics (spec 4.4, 4.7): `/companies/stats`, `/stats/breakdown`, `/stats/freshness`,
`/stats/shell-addresses` (keyed), `/public/shell-addresses` and `/public/stats` (no key, cached 15 min)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import Field

from regintel.api.deps import ApiKey, PublicLimit, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.result_cache import Results
from regintel.api.routing import StrictRoute
from regintel.areas.search import advanced_search as search_svc
from regintel.areas.search.company_filters import CompanyFilters
from regintel.areas.stats import service as svc
from regintel.areas.stats import snapshots
from regintel.areas.stats.breakdown import DIMENSIONS
from regintel.areas.stats.schemas import (
    BreakdownGroup,
    Freshness,
    Overview,
    PublicShellAddress,
    PublicStats,
    ShellAddress,
)
from regintel.db.company_filters import conditions
from regintel.domain.identifiers import parse_country

router = APIRouter(tags=["Statistics"], route_class=StrictRoute)
PUBLIC_CACHE = {"Cache-Control": "public, max-age=900"}  # spec 8: stats/* 15 min
Dimension = Literal[tuple(DIMENSIONS)]  # type: ignore[valid-type]
_BY = "; ".join(f"`{name}`: {dim.description}" for name, dim in DIMENSIONS.items())
SNAPSHOT = (
    "Without filters and with the default parameters the answer comes from a snapshot precomputed for "
    "the current data version; otherwise it is computed and kept per data version up to 15 minutes "
    "(`meta.cached`)."
)


class BreakdownQuery(CompanyFilters):
    by: Dimension = Field(description=f"Dimension to group by. {_BY}")  # type: ignore[valid-type]
    limit: int = Field(
        default=snapshots.BREAKDOWN_LIMIT, ge=1, le=1000, description="Most groups to return (1-1000)"
    )


class ShellQuery(CompanyFilters):
    min_companies: int = Field(
        default=snapshots.SHELL_MIN_COMPANIES,
        ge=2,
        le=100_000,
        description="Only addresses with at least this many companies",
    )
    limit: int = Field(
        default=snapshots.SHELL_LIMIT, ge=1, le=500, description="Most addresses to return (1-500)"
    )


def _reply(
    request: Request, value: Any, cached: bool, headers: dict[str, str] | None = None, **meta: Any
) -> Response:
    return ok(request, value, cached=cached, headers=headers, **meta)


@router.get(
    "/api/v1/companies/stats",
    response_model=Envelope[Overview],
    summary="Database overview",
    description="What the database holds: entities in total, by status and by country, with the "
    "insolvency counts (bankruptcy, restructuring, liquidation) and how many have an LEI, a VAT id and "
    "financial statements; the data sources with their last import, and the last 20 import runs. "
    "Precomputed for the current data version (`meta.cached`).",
)
def stats(request: Request, conn: ReadConn, _key: ApiKey, cache: Results) -> Response:
    value, hit = snapshots.answer(conn, cache, "overview", lambda: svc.overview(conn))
    return _reply(request, value, hit)


@router.get(
    "/api/v1/companies/stats/breakdown",
    response_model=Envelope[list[BreakdownGroup]],
    summary="Aggregates by dimension",
    description="Companies grouped by `by`, biggest groups first (fixed order for `size`, `entity_type`, "
    "`shell_density`), each with `count`, `share`, and how many are active, in bankruptcy, in "
    "restructuring and in liquidation; `label` names codes the code lists know. Takes every filter of "
    "advanced search (e.g. `country=sk`). `licensed_type` groups companies by the role of the licensed "
    "professionals practising through them (docs/regulated.md). " + SNAPSHOT,
)
def breakdown(
    request: Request, conn: ReadConn, _key: ApiKey, cache: Results, query: Annotated[BreakdownQuery, Query()]
) -> Response:
    def compute() -> list[BreakdownGroup]:
        ref = search_svc.reference(conn, cache)
        return svc.breakdown(conn, query.by, conditions(query, ref), ref, query.limit)

    if snapshots.unfiltered(query) and query.limit == snapshots.BREAKDOWN_LIMIT:
        items, hit = snapshots.answer(conn, cache, snapshots.breakdown_key(query.by), compute)
    else:
        items, hit = svc.cached(conn, cache, ("breakdown", query.model_dump_json()), compute)
    return _reply(request, items, hit, by=query.by, groups=len(items), total=sum(i["count"] for i in items))


@router.get(
    "/api/v1/companies/stats/freshness",
    response_model=Envelope[Freshness],
    summary="Freshness and enrichment coverage",
    description="Per data source: last import and its run, companies it describes, and the oldest and "
    "newest time one of them was last seen in it. Coverage: how many companies (and what share) carry "
    "an LEI, financial statements, a NACE code, an address and a VAT id; `lastUpdate` is the newest "
    "change to any company. Precomputed for the current data version (`meta.cached`).",
)
def freshness(request: Request, conn: ReadConn, _key: ApiKey, cache: Results) -> Response:
    value, hit = snapshots.answer(conn, cache, "freshness", lambda: svc.freshness(conn))
    return _reply(request, value, hit)


@router.get(
    "/api/v1/companies/stats/shell-addresses",
    response_model=Envelope[list[ShellAddress]],
    summary="Top shell addresses",
    description="Registered addresses (compared in normalised form) by the number of companies at them, "
    "densest first, with how many of those are active, dissolved, insolvent and in liquidation (and the "
    "shares), and the first 5 companies there. Takes every filter of advanced search (e.g. `country`). "
    + SNAPSHOT,
)
def shell_addresses(
    request: Request, conn: ReadConn, _key: ApiKey, cache: Results, query: Annotated[ShellQuery, Query()]
) -> Response:
    def compute() -> list[ShellAddress]:
        cond = conditions(query, search_svc.reference(conn, cache))
        return svc.shell_addresses(conn, cond, query.min_companies, query.limit)

    if snapshots.unfiltered(query) and (query.min_companies, query.limit) == (
        snapshots.SHELL_MIN_COMPANIES,
        snapshots.SHELL_LIMIT,
    ):
        items, hit = snapshots.answer(conn, cache, snapshots.SHELL_KEY, compute)
    else:
        items, hit = svc.cached(conn, cache, ("shell", query.model_dump_json()), compute)
    return _reply(request, items, hit, total=len(items))


@router.get(
    "/api/v1/public/shell-addresses",
    response_model=Envelope[list[PublicShellAddress]],
    dependencies=[PublicLimit],
    summary="Top shell addresses (public)",
    description="The addresses with the most registered companies (at most 200), each with its company "
    "count and up to 5 companies by name and national identifier. Cached 15 minutes; without "
    "parameters precomputed for the current data version.",
)
def public_shell_addresses(
    request: Request,
    conn: ReadConn,
    cache: Results,
    country: Annotated[
        str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=200, description="1-200")] = snapshots.SHELL_LIMIT,
    min_companies: Annotated[int, Query(ge=2, le=100_000)] = snapshots.SHELL_MIN_COMPANIES,
) -> Response:
    filters = CompanyFilters(country=[parse_country(country)] if country else None)

    def compute() -> list[PublicShellAddress]:
        cond = conditions(filters, search_svc.reference(conn, cache))
        return svc.public_shell_addresses(conn, cond, min_companies, limit)

    if country is None and (min_companies, limit) == (snapshots.SHELL_MIN_COMPANIES, snapshots.SHELL_LIMIT):
        items, hit = snapshots.answer(conn, cache, snapshots.PUBLIC_SHELL_KEY, compute)
    else:
        items, hit = svc.cached(conn, cache, ("public-shell", country, limit, min_companies), compute)
    return _reply(request, items, hit, PUBLIC_CACHE, total=len(items))


@router.get(
    "/api/v1/public/stats",
    response_model=Envelope[PublicStats],
    dependencies=[PublicLimit],
    summary="Platform statistics",
    description="Live entity count, in total and per country (with the active ones), the data sources "
    "with their last import and row count, and the time of the last update. Cached 15 minutes; "
    "precomputed for the current data version.",
)
def public_stats(request: Request, conn: ReadConn, cache: Results) -> Response:
    value, hit = snapshots.answer(conn, cache, "public-stats", lambda: svc.public_stats(conn))
    return _reply(request, value, hit, PUBLIC_CACHE)
