"""People (spec 4.4): the companies of one person and people search. Mounted by the core right after the
search routes (`api/routers/__init__.py`), under the same `Search` tag."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, AppSettings, ReadConn
from regintel.api.envelope import Envelope, ok
from regintel.api.query_params import Page, Q, not_blank, page_size
from regintel.api.routing import StrictRoute
from regintel.api.search_index import SearchIndex
from regintel.areas.people import service as svc
from regintel.areas.people.schemas import PersonCompanies, PersonHit

router = APIRouter(tags=["Search"], route_class=StrictRoute)

Purpose = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Declared processing purpose (one of the "
        "configured list, e.g. `kyc`): unlocks natural persons' birth date, "
        "nationality and residence",
    ),
]


@router.get(
    "/api/v1/companies/person/{key}",
    response_model=Envelope[PersonCompanies],
    summary="Companies of a person",
    description="Every role (director, shareholder, beneficial owner, …) the person holds or held, "
    "with its company. `key` is the person key from people search. Birth date, nationality and "
    "residence are included only with a declared `purpose`.",
)
def person_companies(
    request: Request,
    conn: ReadConn,
    _key: ApiKey,
    settings: AppSettings,
    key: Annotated[str, Path(max_length=80)],
    purpose: Purpose = None,
) -> Response:
    personal = svc.check_purpose(purpose, settings.allowed_purposes)
    return ok(request, svc.companies_of_person(conn, key, personal))


@router.get(
    "/api/v1/people/search",
    response_model=Envelope[list[PersonHit]],
    summary="People search",
    description="People (officers, owners) whose name matches `q` in any word order, typos forgiven, "
    "each with the companies they are linked to. Personal fields need a declared `purpose`.",
)
def people_search(
    request: Request,
    conn: ReadConn,
    _key: ApiKey,
    settings: AppSettings,
    index: SearchIndex,
    q: Q,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    page: Page = 1,
    purpose: Purpose = None,
    per_page: Annotated[int | None, Query(ge=1, le=100, description="Alias of `limit`")] = None,
) -> Response:
    limit = page_size(request, limit, per_page)
    personal = svc.check_purpose(purpose, settings.allowed_purposes)
    items, total = svc.search_people(conn, index, not_blank(q), limit, page, personal)
    return ok(request, items, total=total, page=page, per_page=limit)
