"""Routes of the public-money area: TED search and notices (spec 4.5), a company's contracts and bank
accounts (4.4), IBAN lookup and verification (4.1), and the public lookups (4.7). Thin: parse, call a
service, wrap."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.paths import IsoDate
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc

from . import contracts as contracts_svc
from . import ted as ted_svc
from .account_routes import accounts_router, iban_router
from .public_routes import public_router, vat_router
from .schemas import Contract, Notice, NoticeSummary

ted_router = APIRouter(prefix="/api/v1/ted", tags=["Public money"], route_class=StrictRoute)
company_router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

Page = Annotated[int, Query(ge=1, le=10_000, description="Page number, from 1 (page × per_page ≤ 10,000)")]
PerPage = Annotated[int, Query(ge=1, le=100, description="Results per page, 1-100")]
Country = Annotated[
    str | None,
    Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case (default: SK first)"),
]
Ico = Annotated[str, Path(max_length=40, description="National identifier")]
MAX_WINDOW = 10_000


def _window(page: int, per_page: int) -> None:
    from regintel.errors import ValidationFailed

    if page * per_page > MAX_WINDOW:
        raise ValidationFailed(
            "page × per_page is at most 10,000; narrow the filters",
            details=[{"field": "page", "in": "query", "message": "beyond the last page served"}],
        )


@ted_router.get(
    "/search",
    response_model=Envelope[list[NoticeSummary]],
    summary="EU tender search",
    description="TED eForms notices (contract notices, prior information, contract awards, VEAT), "
    "newest first. Filters combine: `country` (the buyer's), `cpv` (a CPV 2008 code matches every "
    "code below it: `45000000` finds all construction work, `45210000-2` its class), `date_from`/"
    "`date_to` (issue date), `value_min`/`value_max` (the awarded total, else the estimate, in the "
    "notice's own `currency`: add `currency` to compare like with like), `buyer` and `winner` (a "
    "part of the name, diacritics and case ignored). Paginated: `meta.total`, `meta.page`, "
    "`meta.per_page`.",
)
def ted_search(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    country: Annotated[
        str | None, Query(min_length=2, max_length=2, description="Buyer's country, ISO 3166-1 alpha-2")
    ] = None,
    cpv: Annotated[str | None, Query(max_length=12, description="CPV code, 2-8 digits")] = None,
    date_from: Annotated[IsoDate | None, Query(description="Issued on or after")] = None,
    date_to: Annotated[IsoDate | None, Query(description="Issued on or before")] = None,
    value_min: Annotated[Decimal | None, Query(ge=0, le=10**15)] = None,
    value_max: Annotated[Decimal | None, Query(ge=0, le=10**15)] = None,
    currency: Annotated[str | None, Query(pattern=r"^[A-Za-z]{3}$", description="ISO 4217")] = None,
    buyer: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    winner: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    page: Page = 1,
    per_page: PerPage = 20,
) -> Response:
    _window(page, per_page)
    f = ted_svc.filters(
        conn,
        country=country,
        cpv_code=cpv,
        date_from=date_from,
        date_to=date_to,
        value_min=value_min,
        value_max=value_max,
        currency=currency,
        buyer=buyer,
        winner=winner,
    )
    total, items = ted_svc.search(conn, f, page, per_page)
    return ok(request, items, total=total, page=page, per_page=per_page)


@ted_router.get(
    "/notice/{pub}",
    response_model=Envelope[Notice],
    summary="Tender notice detail",
    description="One TED notice by its publication number (`00123456-2024`) or, for a notice not yet "
    "published, its notice id (a UUID): procurement, CPV codes with labels, lots, buyers and winners "
    "(each with the company it is linked to, how, and the score), values with their currency.",
)
def ted_notice(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    pub: Annotated[str, Path(max_length=64, description="Publication number or notice id")],
) -> Response:
    return ok(request, ted_svc.notice(conn, pub))


@company_router.get(
    "/{ico}/contracts",
    response_model=Envelope[list[Contract]],
    summary="Public contracts",
    description="Public contracts where the company is the supplier: TED contract awards (the "
    "company won a lot) and the Czech register of contracts (the company is named as the "
    "recipient of the payment, `role` `supplier`, or as the counterparty of a public body, "
    "`role` `counterparty`, when the register does not say which side supplies). Buyer, title, "
    "value with its currency and basis, dates and the link to the publisher's record; `match` "
    "says how the party was linked to this company. Newest first, paginated.",
)
def company_contracts(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    country: Country = None,
    page: Page = 1,
    per_page: PerPage = 20,
) -> Response:
    _window(page, per_page)
    row = companies_svc.resolve_ico(conn, ico, country)
    total, items = contracts_svc.company_contracts(conn, row, page, per_page)
    return ok(
        request,
        items,
        total=total,
        page=page,
        per_page=per_page,
        country=row["country"],
        national_id=row["national_id"],
    )


ROUTERS = [ted_router, company_router, accounts_router, iban_router, public_router, vat_router]
