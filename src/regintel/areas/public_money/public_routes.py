"""Public (keyless, per-IP limited) routes of the area: LEI and IBAN lookups, bank-code data (spec 4.7) and
EU VAT validation. Cache periods are spec 8's: 1 h for the lookups, 24 h for VAT validation."""

from __future__ import annotations

from typing import Annotated, Any

import httpx
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import DbConn, PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import lookup as lookup_svc
from regintel.areas.companies.schemas import LeiRecord
from regintel.config import Settings

from . import bank_accounts as accounts_svc
from . import bank_codes
from . import vat as vat_svc
from .schemas import BankCode, BankCodeSpecs, IbanLookup, VatValidation

public_router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)
vat_router = APIRouter(
    prefix="/api/v1/vat", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

HOUR = {"Cache-Control": "public, max-age=3600"}  # spec 8: LEI and IBAN public lookups, 1 h
DAY = {"Cache-Control": "public, max-age=86400"}  # spec 8: VAT validation, 24 h
NO_VERDICT = {"Cache-Control": "public, max-age=60"}  # VIES was down: worth asking again soon


@public_router.get(
    "/lei-lookup/{lei}.json",
    response_model=Envelope[LeiRecord],
    summary="LEI to company",
    description="The LEI record of spec 2.4 (the same as `/companies/by-lei`), without a key. For "
    "more than 10k LEIs a day use `/companies/by-lei`. Cached 1 h.",
)
def lei_lookup(
    request: Request,
    conn: DbConn,
    lei: Annotated[str, Path(min_length=1, max_length=40, description="20-character ISO 17442 LEI")],
) -> Response:
    return ok(request, lookup_svc.by_lei(conn, lei), headers=HOUR)


@public_router.get(
    "/iban-lookup/{iban}.json",
    response_model=Envelope[IbanLookup],
    summary="IBAN to company",
    description="Who publishes this IBAN in the financial administration's VAT payer register "
    "(the Czech Registr plátců DPH), as `/bank-accounts/lookup`, without a key. Cached 1 h.",
)
def iban_lookup(
    request: Request,
    conn: DbConn,
    iban: Annotated[str, Path(min_length=1, max_length=64, description="IBAN, no spaces")],
) -> Response:
    return ok(request, accounts_svc.lookup(conn, iban), headers=HOUR)


@public_router.get(
    "/bank-code-specs.json",
    response_model=Envelope[BankCodeSpecs],
    summary="Bank code data",
    description="The IBAN structure of every country (length, BBAN format, where the bank, branch "
    "and account codes sit, SEPA membership) and how many national bank codes are known, from "
    "schwifty's registries (the SWIFT IBAN registry and the central banks' lists). Cached 1 h.",
)
def bank_code_specs(request: Request) -> Response:
    return ok(request, bank_codes.specs(), headers=HOUR)


@public_router.get(
    "/bank-code/{country}/{code}.json",
    response_model=Envelope[BankCode],
    summary="Bank code",
    description="The bank(s) holding a national bank code, with BIC (e.g. `/bank-code/sk/0900.json`, "
    "`/bank-code/cz/0800.json`). 404 for an unknown code or a country without a bank list.",
)
def bank_code(
    request: Request,
    country: Annotated[str, Path(min_length=2, max_length=2, description="ISO 3166-1 alpha-2")],
    code: Annotated[str, Path(min_length=1, max_length=16, description="National bank code")],
) -> Response:
    return ok(request, bank_codes.bank(country, code), headers=HOUR)


@vat_router.get(
    "/validate",
    response_model=Envelope[VatValidation],
    summary="EU VAT validation",
    description="Validate an EU VAT number: first its format and check digits for the 27 member "
    "states (python-stdnum; `formatValid` false with the reason, without asking VIES), then whether it "
    "is registered, from the Commission's VIES service: `status` `valid` or `invalid` with the "
    "registered name and address where the member state shares them, or `unavailable` when VIES or "
    "the member state's system cannot answer now (never reported as invalid). Verdicts are cached "
    "24 h (`meta.cached`); `unavailable` is not cached. Greece is `EL`.",
)
async def validate(
    request: Request,
    vat: Annotated[
        str,
        Query(
            min_length=3,
            max_length=40,
            description="VAT number with its member-state prefix, e.g. `CZ45795908`, `EL094259216`",
        ),
    ],
) -> Response:
    ms, number = vat_svc.split(vat)
    reason = vat_svc.check_format(ms, number)
    head = vat_svc.base_answer(ms, number, reason)
    if reason is not None:
        return ok(
            request,
            head
            | {
                "status": "format_invalid",
                "viesResult": None,
                "name": None,
                "address": None,
                "requestDate": None,
                "checkedAt": None,
                "reason": reason,
            },
            headers=DAY,
        )
    cache = _cache(request)
    hit = cache.get((ms, number))
    if hit is not None:
        return ok(request, head | hit, cached=True, headers=DAY)
    settings: Settings = request.app.state.settings
    async with httpx.AsyncClient(timeout=settings.vies_timeout_seconds) as client:
        answer = await vat_svc.ask_vies(client, settings.vies_base_url, ms, number)
    if answer["status"] == "unavailable":
        return ok(request, head | answer, headers=NO_VERDICT)
    cache[(ms, number)] = answer
    return ok(request, head | answer, headers=DAY)


def _cache(request: Request) -> Any:
    state = request.app.state
    if getattr(state, "vies_cache", None) is None:
        state.vies_cache = vat_svc.new_cache()
    return state.vies_cache
