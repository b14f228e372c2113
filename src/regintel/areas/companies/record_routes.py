"""Company records by key (spec 4.4): `/companies/{country}/{national_id}`, `/companies/{ico}`, history.

Named `*_routes`, not `router.py`: `api/routers` mounts this area's routers at fixed places (the key
router first, the catch-all last), so `areas.routers()` must not find them.

Mounted LAST among the company routers: `{ico}` would otherwise swallow `/companies/lookup` and
friends, which are literal paths declared by other routers.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

import regintel.api.paths  # noqa: F401  (registers the `cc` path convertor)
from regintel.api.deps import ApiKey, ReadConn, run_read
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as svc
from regintel.areas.companies.schemas import Change, Company

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

CountryQuery = Annotated[
    str | None,
    Query(
        description="ISO 3166-1 alpha-2 country, any case. Without it the "
        "identifier is looked up in every country (SK, the default, first); "
        "several matches answer 409 `AMBIGUOUS_IDENTIFIER`.",
        min_length=2,
        max_length=2,
    ),
]
IcoPath = Annotated[str, Path(description="National identifier (IČO in SK and CZ)", max_length=40)]


def _by_key(conn: Any, country: str, national_id: str) -> Company:
    return svc.company_record(conn, svc.get_company_row(conn, country, national_id))


def _by_ico(conn: Any, ico: str, country: str | None) -> Company:
    return svc.company_record(conn, svc.resolve_ico(conn, ico, country))


@router.get(
    "/{ico}/history",
    response_model=Envelope[list[Change]],
    summary="History",
    description="The company's change log, newest first: every field a source changed, with old and "
    "new value, source and detection time. Keyset-paginated: pass `meta.next_cursor` as `cursor`.",
)
def history(
    request: Request,
    ico: IcoPath,
    conn: ReadConn,
    _key: ApiKey,
    country: CountryQuery = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    field: Annotated[str | None, Query(max_length=64, description="Only changes of this field")] = None,
) -> Response:
    row = svc.resolve_ico(conn, ico, country)
    items, next_cursor = svc.history(conn, row, cursor=cursor, limit=limit, field=field)
    return ok(request, items, next_cursor=next_cursor, country=row["country"], national_id=row["national_id"])


# The high-volume record by key (spec 8) is matched among the first routes: `{country:cc}` only takes
# two letters, so no literal company path of another router has its shape. At the end of about 200
# routes, matching alone cost 14% of the request.
key_router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)


@key_router.get(
    "/{country:cc}/{national_id}",
    response_model=Envelope[Company],
    summary="Company by country and national identifier",
    description="The core record of one company: name, legal form, status, dates, address, NACE, size, "
    "VAT and tax ids, LEI, the insolvency flags `inBankruptcy`, `inRestructuring`, "
    "`inLiquidation`, its identifiers and the sources it came from (with licences). "
    "404 `NOT_FOUND` when unknown, 422 for an identifier that fails its format or check digit.",
)
async def by_country(
    request: Request,
    country: Annotated[str, Path(description="ISO 3166-1 alpha-2, any case")],
    national_id: IcoPath,
    _key: ApiKey,
) -> Response:
    record = await run_read(request, _by_key, country, national_id)
    return ok(request, record, data_as_of=svc.data_as_of(record))


@router.get(
    "/{ico}",
    response_model=Envelope[Company],
    summary="Company by national identifier",
    description="Full company detail by national identifier, `?country=` optional (default `sk`). Answers "
    "the `inBankruptcy`, `inRestructuring` and `inLiquidation` flags. An identifier found in "
    "several countries without `country` answers 409 `AMBIGUOUS_IDENTIFIER` with candidates.",
)
async def by_ico(request: Request, ico: IcoPath, _key: ApiKey, country: CountryQuery = None) -> Response:
    record = await run_read(request, _by_ico, ico, country)
    return ok(request, record, data_as_of=svc.data_as_of(record))
