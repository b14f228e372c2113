"""Routes of the funds area: a company's EU projects, CORDIS projects, Czech subsidies and GBER awards
(spec 4.4) and the public EU-funds summary (spec 4.7). Thin: parse, call a service, wrap. Importing this
module registers the area's statistics feeds (`feeds`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, DbConn, PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.stats.service import cached
from regintel.errors import ValidationFailed
from regintel.result_cache import ResultCache

from . import feeds, service
from .schemas import CordisProject, CzSubsidy, EuFundsSummary, EuProject, GberAward

company_router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)
public_router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)
ROUTERS = [company_router, public_router]
STATS_FEEDS = (feeds.EU_FUNDS, feeds.CORDIS)  # registered when `feeds` is imported

Page = Annotated[int, Query(ge=1, le=10_000, description="Page number, from 1 (page × per_page ≤ 10,000)")]
PerPage = Annotated[int, Query(ge=1, le=100, description="Results per page, 1-100")]
MAX_WINDOW = 10_000
HOUR = 3_600  # spec 8 gives the public per-company lookups (check JSON, LEI, IBAN) 1 h
PAGINATED = (
    " Newest first, paginated (`meta.total`, `meta.page`, `meta.per_page`); `meta.sources` gives each "
    "source's licence and attribution. A company without any answers an empty list."
)


def _page(
    request: Request,
    conn: DbConn,
    row: Mapping[str, Any],
    page: int,
    per_page: int,
    read: Callable[..., service.Page],
) -> Response:
    if page * per_page > MAX_WINDOW:
        raise ValidationFailed(
            "page × per_page is at most 10,000",
            details=[{"field": "page", "in": "query", "message": "beyond the last page served"}],
        )
    total, items, sources = read(conn, row, page, per_page)
    return ok(
        request,
        items,
        total=total,
        page=page,
        per_page=per_page,
        country=row["country"],
        national_id=row["national_id"],
        sources=sources,
    )


@company_router.get(
    "/{ico}/eu-projects",
    response_model=Envelope[list[EuProject]],
    summary="EU funds (beneficiary)",
    description="EU funds the company received as a beneficiary: cohesion policy projects (ERDF, "
    "Cohesion Fund, ESF+, JTF, Interreg; Kohesio) and funds the Commission manages directly "
    "(grants and contracts; the Financial Transparency System). Project, programme, fund, amounts "
    "with their currency, period and the publisher's link; `match` says how the beneficiary was "
    "linked to this company." + PAGINATED,
)
def eu_projects(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, page: Page = 1, per_page: PerPage = 20
) -> Response:
    return _page(request, conn, row, page, per_page, service.eu_projects)


@company_router.get(
    "/{ico}/cordis-projects",
    response_model=Envelope[list[CordisProject]],
    summary="EU research projects (two framework programmes)",
    description="Horizon 2020 and Horizon Europe projects the company takes part in (CORDIS): the "
    "project, the company's role (coordinator, participant, …) and the EC contribution to it, "
    "in euro; linked by the VAT number the organisation gave CORDIS, else by name and country "
    "(`match`)." + PAGINATED,
)
def cordis_projects(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, page: Page = 1, per_page: PerPage = 20
) -> Response:
    return _page(request, conn, row, page, per_page, service.cordis_projects)


@company_router.get(
    "/{ico}/cz-subsidies",
    response_model=Envelope[list[CzSubsidy]],
    summary="Czech subsidies",
    description="Subsidies from the Czech state budget, state funds, regions and municipalities "
    "granted to the company (DotInfo, Ministry of Finance): title, purpose, programme, provider, "
    "approved amount in CZK and date. Linked by the recipient's IČO only." + PAGINATED,
)
def cz_subsidies(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, page: Page = 1, per_page: PerPage = 20
) -> Response:
    return _page(request, conn, row, page, per_page, service.cz_subsidies)


@company_router.get(
    "/{ico}/gber",
    response_model=Envelope[list[GberAward]],
    summary="GBER",
    description="State aid granted to the company under the General Block Exemption Regulation "
    "(Regulation (EU) No 651/2014), as the member states published it in the Commission's "
    "State Aid Transparency Award Module: aid measure (SA number, title), instrument, objective, "
    "nominal amount and aid element with their currency, date and granting authority." + PAGINATED,
)
def gber(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, page: Page = 1, per_page: PerPage = 20
) -> Response:
    return _page(request, conn, row, page, per_page, service.gber_awards)


@public_router.get(
    "/eu-funds/{ico}.json",
    response_model=Envelope[EuFundsSummary],
    summary="EU funds summary for a company (top 5 projects)",
    description="Without a key: how many EU-funded projects the company has (cohesion policy, direct "
    "management, research), their EU contributions added up in euro, and the five largest. "
    "`?country=` as on the company routes. Cached 1 h (`meta.cached`).",
)
def eu_funds(request: Request, conn: DbConn, row: CompanyRow) -> Response:
    summary, hit = cached(
        conn, _cache(request), ("eu-funds", int(row["id"])), lambda: service.eu_funds_summary(conn, row)
    )
    return ok(request, summary, cached=hit, headers={"Cache-Control": f"public, max-age={HOUR}"})


def _cache(request: Request) -> ResultCache:
    state = request.app.state
    if getattr(state, "funds_cache", None) is None:
        state.funds_cache = ResultCache(ttl=HOUR, maxsize=10_000)
    cache: ResultCache = state.funds_cache
    return cache
