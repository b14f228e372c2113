"""Routes of the regulated area (spec 4.4): a company's financial supervision, energy regulation and
licensed professionals; and the public feed `financial-supervision-companies` (4.7). Thin: parse, call the
service, wrap."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from regintel.api import stats_feeds
from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, AppSettings, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.people import service as people_svc

from . import service
from .schemas import EnergyRegulation, FinancialSupervision, LicensedRole

router = APIRouter(prefix="/api/v1/companies", tags=["Regulated activities"], route_class=StrictRoute)

Page = Annotated[int, Query(ge=1, le=10_000, description="Page number, from 1")]
PerPage = Annotated[int, Query(ge=1, le=100, description="Results per page, 1-100")]
Purpose = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Declared processing purpose (one of the "
        "configured list, e.g. `kyc`): unlocks the professionals' published contact",
    ),
]


@router.get(
    "/{ico}/financial-supervision",
    response_model=Envelope[FinancialSupervision],
    summary="Financial supervision",
    description="The company's authorisations in the registers of Národná banka Slovenska (Register "
    "subjektov) and Česká národní banka (JERRS): type of entity or licence as published, normalised "
    "category, status and dates, and for each a DORA flag (Regulation (EU) 2022/2554 Art. 2(1) entity "
    "types, with the Art. 2(3) exemptions as `possible`) and the NIS2 Annex I sector (3 Banking, 4 "
    "Financial market infrastructure), noting where DORA applies instead of NIS2. `match` says how the "
    "register row was linked to the company. An empty list means no supervisory register names it.",
)
def financial_supervision(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(
        request,
        service.financial_supervision(conn, row),
        country=row["country"],
        national_id=row["national_id"],
    )


@router.get(
    "/{ico}/energy-regulation",
    response_model=Envelope[EnergyRegulation],
    summary="Energy regulation",
    description="The company's licences and permits from the Slovak network-industries regulator (ÚRSO: "
    "electricity, gas, heat, water) and the Czech energy regulator (ERÚ: electricity, gas, heat), with "
    "the activity, status, dates and the NIS2 Annex I sector (1 Energy (a) electricity, (b) district "
    "heating and cooling, (d) gas; 6 Drinking water; 7 Waste water).",
)
def energy_regulation(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(
        request, service.energy_regulation(conn, row), country=row["country"], national_id=row["national_id"]
    )


@router.get(
    "/{ico}/licensed-roles",
    response_model=Envelope[list[LicensedRole]],
    summary="Licensed roles",
    description="Licensed professionals who practise through the company, from the Slovak lists: "
    "lawyers (Slovak Bar Association), notaries (Chamber of Notaries), bailiffs (Chamber of Bailiffs), "
    "experts, interpreters and translators (Ministry of Justice), tax advisers (Chamber of Tax "
    "Advisers), with role, registration number, field or language, status and firm as published. They "
    "are natural persons: `contact` (address, phone, e-mail, web as published) is filled only with a "
    "declared `purpose` (or the account's natural-person addendum); `meta.personal` says which. "
    "Paginated: `meta.total`, `meta.page`, `meta.per_page`.",
)
def licensed_roles(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    row: CompanyRow,
    settings: AppSettings,
    purpose: Purpose = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> Response:
    personal = people_svc.check_purpose(purpose, settings.allowed_purposes)
    total, items = service.licensed_roles(conn, row, personal, page, per_page)
    return ok(
        request,
        items,
        total=total,
        page=page,
        per_page=per_page,
        personal=personal,
        country=row["country"],
        national_id=row["national_id"],
    )


stats_feeds.register(
    stats_feeds.StatsFeed(
        name="financial-supervision-companies",
        title="Companies under financial supervision",
        description="Companies holding a current authorisation of Národná banka Slovenska or Česká národní "
        "banka, by name: categories (credit_institution, insurance_undertaking, ...), registers and the "
        "DORA flag.",
        columns=("country", "national_id", "name", "categories", "registers", "dora"),
        rows=service.supervised_companies,
        # ASCII: the attribution also goes out in a response header (latin-1)
        attribution=(
            "regintel, from Narodna banka Slovenska (Register subjektov) and Ceska narodni banka (JERRS)"
        ),
    )
)
