"""The area's routes: the agent brief (spec 4.1) and the MCP endpoint `/mcp` (spec 1, 5)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, AppSettings, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.mcp import brief as svc
from regintel.areas.mcp.http import PATH, McpEndpoint, lifespan
from regintel.areas.mcp.schemas import CompanyBrief
from regintel.areas.people.service import check_purpose

brief_router = APIRouter(prefix="/api/v1/agent", tags=["Agent"], route_class=StrictRoute)

# The MCP transport is a plain ASGI endpoint (the SDK's), not an operation of the OpenAPI document; the
# router's lifespan runs the SDK's session manager inside the app's.
mcp_router = APIRouter(lifespan=lifespan)
# `/mcp/v1` (spec 9: "the tool-protocol metadata also has a /mcp/v1 path") serves the same endpoint.
# POST only: GET (a server-to-client stream) and DELETE (end a session) get the app's 405 with the path's
# true `Allow`, as the transport specification provides for a server without streams or sessions; a route
# that registered them too made `OPTIONS` list methods that only ever answered 405 (issue 16).
for _path in (PATH, PATH + "/v1"):
    # mypy, ignored below: an ASGI app as the endpoint (see below), not a request handler
    mcp_router.add_route(
        _path,
        McpEndpoint(),  # type: ignore[arg-type]
        methods=["POST"],
        include_in_schema=False,
    )  # an ASGI app as the endpoint: Starlette runs it as is

ROUTERS = [brief_router, mcp_router]


@brief_router.get(
    "/company-brief",
    response_model=Envelope[CompanyBrief],
    summary="Company brief for an agent",
    description="A compact, LLM-friendly brief of one company: a one-line `headline`; identity "
    "(name, identifiers, legal form, address, NACE with its label); status and the insolvency "
    "flags; key figures over up to 5 years (major units with `currency`) and the revenue change; "
    "derived `flags` with a severity (`info`, `warning`, `critical`); the people and companies "
    "holding roles now (natural persons' birth date, nationality and residence only with a declared "
    "`purpose`); the latest insolvency events and changes; the sources with licences and "
    "`dataAsOf`; the credit grade, sanctions, NIS2 scope and ultimate owners, each `unknown` with its "
    "`reason` when it cannot be answered, and named then in `notCovered`. `country` defaults "
    "to `sk` (spec 2.2). 404 unknown company, 422 malformed identifier or unknown purpose.",
)
def company_brief(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    ico: Annotated[str, Query(min_length=1, max_length=40, description="National identifier")],
    country: Annotated[
        str, Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case; default `sk`")
    ] = "sk",
    purpose: Annotated[
        str | None,
        Query(
            max_length=64,
            description="Declared processing purpose (one "
            "of the configured list, e.g. `kyc`): unlocks natural "
            "persons' personal fields",
        ),
    ] = None,
) -> Response:
    personal = check_purpose(purpose, settings.allowed_purposes)
    row = companies_svc.get_company_row(conn, country, ico)
    data = svc.company_brief(conn, row, personal=personal)
    return ok(
        request, data, data_as_of=data["dataAsOf"], country=row["country"], national_id=row["national_id"]
    )
