"""Exact lookups (spec 4.4): `/companies/lookup`, `/companies/by-identifier`, `/companies/by-lei`,
`POST /companies/bulk`. Literal paths: mounted before the catch-all `/companies/{ico}` router."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from regintel.api.deps import ApiKey, ReadConn, run_read
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import lookup as svc
from regintel.areas.companies import service as companies_svc
from regintel.areas.companies.schemas import BulkAnswer, Company, LeiRecord, MatchedCompany
from regintel.domain.identifiers import IdentifierType
from regintel.errors import ValidationFailed

router = APIRouter(prefix="/api/v1/companies", tags=["Companies"], route_class=StrictRoute)

Country = Annotated[
    str | None,
    Query(
        min_length=2,
        max_length=2,
        description="ISO 3166-1 alpha-2 country, any "
        "case. Without it the identifier is looked up in every country where it "
        "is well-formed (SK first); several matches answer 409 "
        "`AMBIGUOUS_IDENTIFIER` with the candidates.",
    ),
]
NationalId = Annotated[
    str | None,
    Query(
        max_length=40,
        description="National identifier (IČO, SIREN, company number, …), spaces and dots allowed",
    ),
]
MAX_BULK = 100

# The three single-identifier lookups run their one to four indexed reads inline on the event loop when
# the database is SQLite (in-process, well under a millisecond: cheaper than a trip through the thread
# pool) and in the thread pool on PostgreSQL, where each read waits for a round trip that must not hold
# up the loop. Both measured in docs/performance.md, "Lookup". Bulk validates up to 100 identifiers,
# so it stays a plain `def` (thread pool) on both.


# On PostgreSQL these reads also run without a transaction: BEGIN and ROLLBACK are two round trips of
# the six a full-record lookup made (p50 1.75 -> 1.03 ms at 1M). Each read still sees committed data;
# what they give up is one snapshot across the record's four reads, which only a concurrent import of
# the same company could tell apart.
# The connection is opened here, not declared as a `DbConn` dependency: FastAPI's resolution of that
# dependency cost 4% of a lookup's instructions. It is also opened only once the key and the inputs
# have passed.
@router.get(
    "/lookup",
    response_model=Envelope[Company],
    summary="Exact lookup by national identifier",
    description="The company with national identifier `id` (or its alias `ico`), optionally in "
    "`country`: the same record as `/companies/{ico}`. Check digits are verified first (422 "
    "`VALIDATION_ERROR` with the reason), an unknown identifier answers 404 `NOT_FOUND`, and an "
    "identifier held in several countries without `country` answers 409 `AMBIGUOUS_IDENTIFIER`. "
    "One indexed read: the path for high-volume exact matching.",
)
async def lookup(
    request: Request, _key: ApiKey, id: NationalId = None, ico: NationalId = None, country: Country = None
) -> Response:
    value = _one_id(id, ico)
    record = await run_read(request, _record, value, country)
    return ok(request, record, data_as_of=companies_svc.data_as_of(record))


def _record(conn: Connection, value: str, country: str | None) -> Company:
    return companies_svc.company_record(conn, companies_svc.resolve_ico(conn, value, country))


def _one_id(id_: str | None, ico: str | None) -> str:
    if id_ and ico and id_ != ico:
        raise ValidationFailed(
            "Give `id` or `ico`, not two different values",
            details=[{"field": "id", "in": "query", "message": "conflicts with ico"}],
        )
    value = (id_ or ico or "").strip()
    if not value:
        raise ValidationFailed(
            "Query `id` (or `ico`) is required",
            details=[{"field": "id", "in": "query", "message": "required"}],
        )
    return value


@router.get(
    "/by-identifier",
    response_model=Envelope[list[MatchedCompany]],
    summary="Universal lookup",
    description="All companies holding an identifier of `type`: `ico` (the national register number: IČO, "
    "SIREN, company number, …, in `country` or in every country where it is well-formed), `ic_dph` (Slovak "
    "VAT id), `vat` (any VAT id with its country prefix), `dic` (tax id), `lei`, `duns`, `bvdid`. The value "
    "is validated for its type first (check digits where the type has them: 422 with the reason). "
    "`country` narrows the answer. An empty list means nobody holds it. At most 100 matches.",
)
async def by_identifier(
    request: Request,
    _key: ApiKey,
    type: Annotated[IdentifierType, Query(description="Identifier type")],
    value: Annotated[str, Query(min_length=1, max_length=64, description="Identifier value")],
    country: Annotated[
        str | None, Query(min_length=2, max_length=2, description="Only companies of this country")
    ] = None,
) -> Response:
    items = await run_read(request, svc.by_identifier, type, value, country)
    return ok(request, items, total=len(items))


@router.get(
    "/by-lei",
    response_model=Envelope[LeiRecord],
    summary="Lookup by LEI",
    description="The LEI record of spec 2.4 for a 20-character ISO 17442 LEI (check digits verified): "
    "local national identifier, name, legal form, GLEIF registration status, the insolvency flags, the "
    "link to GLEIF's live record (`gleifUrl`) and the compliance fields. Fields without a data source "
    "say so: `taxReliability` `unknown`, `creditGrade`, `nis2InScope` and `flags.*` null "
    "(docs/compliance.md). One or two indexed reads: the high-volume LEI path (spec 8) for more than 10k "
    "LEIs a day.",
)
async def by_lei(
    request: Request,
    _key: ApiKey,
    lei: Annotated[str, Query(min_length=1, max_length=40, description="LEI, e.g. 097900BGCY0000006391")],
) -> Response:
    return ok(request, await run_read(request, svc.by_lei, lei))


class BulkIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    identifiers: list[Any] = Field(
        min_length=1,
        max_length=MAX_BULK,
        description='Up to 100 entries, each a national identifier (string) or `{"country": "cz", "id": '
        '"…"}`. A malformed or unknown entry is reported in its own answer, never by failing the call.',
        # Any JSON value per entry: a batch answers a malformed entry in its own answer (`invalid`, with
        # the reason), so the document must not call such a request invalid (issue 16: schemathesis saw
        # `[{"country": ""}]` answered 200 against an item schema that required `id`).
        json_schema_extra={
            "items": {
                "description": 'A national identifier (a string, or a number) or `{"country": "cz", "id": '
                '"…"}`; any other value is answered in its own entry with `status` `invalid`'
            }
        },
    )
    country: str | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="Country of the entries given as bare strings; without it each is "
        "looked up in every country where it is well-formed",
    )


@router.post(
    "/bulk",
    response_model=Envelope[list[BulkAnswer]],
    summary="Batch lookup",
    description="Look up to 100 national identifiers in one call; answers come in input order, each "
    "with `status` `found` (and `company`), `not_found`, `invalid` (with `reason`: format or check "
    "digit) or `ambiguous` (with `candidates`: give its `country`). More than 100 entries answer 422. "
    "`meta` counts each status.",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {
                    "example": {
                        "identifiers": ["31322832", {"country": "cz", "id": "00177041"}],
                        "country": None,
                    }
                }
            }
        }
    },
)
def bulk(request: Request, conn: ReadConn, _key: ApiKey, body: BulkIn) -> Response:
    answers = svc.bulk(conn, body.identifiers, body.country)
    found, not_found, invalid, ambiguous = (
        sum(1 for a in answers if a["status"] == s) for s in ("found", "not_found", "invalid", "ambiguous")
    )
    return ok(
        request,
        answers,
        total=len(answers),
        found=found,
        not_found=not_found,
        invalid=invalid,
        ambiguous=ambiguous,
    )
