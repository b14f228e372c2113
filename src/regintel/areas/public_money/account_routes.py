"""Bank-account routes: a company's published accounts (spec 4.4), IBAN lookup and verification (4.1)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc

from . import bank_accounts as svc
from .schemas import CompanyBankAccounts, IbanLookup, IbanVerification, IbanVerifyIn

accounts_router = APIRouter(prefix="/api/v1", tags=["Public money"], route_class=StrictRoute)
iban_router = APIRouter(prefix="/api/v1/iban", tags=["Public money"], route_class=StrictRoute)

_REGISTER = (
    "the financial administrations' VAT payer registers: the Czech Registr plátců DPH (the accounts a "
    "payer publishes under § 96 of the VAT Act, and its reliability) and, where imported, the Polish "
    "white list (Wykaz podatników VAT) and the Slovak list of VAT payers' business accounts (Zoznam "
    "platiteľov DPH s číslami bankových účtov, § 52 ods. 16 of the Tax Procedure Act)"
)


@accounts_router.get(
    "/companies/{ico}/bank-accounts",
    response_model=Envelope[CompanyBankAccounts],
    summary="Financial-administration IBAN list",
    description=f"The bank accounts the company publishes in {_REGISTER}, each as an IBAN with "
    "its bank, the days it was published from and until, and the payer's reliability status. "
    "`covered` false means no such register is imported for the company's country.",
)
def company_bank_accounts(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    ico: Annotated[str, Path(max_length=40, description="National identifier")],
    country: Annotated[
        str | None, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2")
    ] = None,
) -> Response:
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(
        request, svc.company_accounts(conn, row), country=row["country"], national_id=row["national_id"]
    )


@accounts_router.get(
    "/bank-accounts/lookup",
    response_model=Envelope[IbanLookup],
    summary="IBAN to company",
    description=f"Who publishes this IBAN in {_REGISTER}. The IBAN is validated first (check "
    "digits, the country's format and bank code: 422 with the reason). It searches the Czech "
    "register (and the Polish white list), not the Slovak list: a Slovak IBAN is verified for a named "
    "company with `POST /iban/verify`. `covered` says whether the IBAN's country has a searched "
    "register here. Each match names its register.",
)
def iban_lookup(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    iban: Annotated[str, Query(min_length=1, max_length=64, description="IBAN in any format")],
) -> Response:
    return ok(request, svc.lookup(conn, iban))


@iban_router.post(
    "/verify",
    response_model=Envelope[IbanVerification],
    summary="Verify an IBAN for a company",
    description="Does this IBAN belong to this company? `yes`: the company publishes it now in "
    f"{_REGISTER}; `no`: another payer publishes it, the company stopped publishing it, or it is not "
    "among the accounts the company publishes; `unknown`: no imported register covers the company, or "
    "the company is not in its country's list (a Slovak company that reported no account, or is not a "
    "VAT payer). Each answer names its source and the day of the register's answer or list.",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {
                    "example": {"ico": "45795908", "country": "cz", "iban": "CZ72 2600 0000 0020 0363 0103"}
                }
            }
        }
    },
)
def iban_verify(request: Request, conn: DbConn, _key: ApiKey, body: IbanVerifyIn) -> Response:
    row = companies_svc.resolve_ico(conn, body.ico, body.country)
    return ok(request, svc.verify(conn, row, body.iban))
