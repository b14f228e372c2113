"""Ownership and people routes of spec 4.4: relations, graph, network, ultimate owner, UK PSC
connections, offshore links, and the i2 and Maltego exports. Every route that can name a natural person
takes `purpose`: without one, a person's birth date, nationality and residence stay out."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response, StreamingResponse

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, AppSettings, DbConn
from regintel.api.envelope import Envelope, dumps, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.ownership import exports, standards
from regintel.areas.ownership import graph as graph_svc
from regintel.areas.ownership import links as links_svc
from regintel.areas.ownership import relations as relations_svc
from regintel.areas.ownership import ultimate as ultimate_svc
from regintel.areas.ownership.entities import Ctx
from regintel.areas.ownership.schemas import (
    Graph,
    Network,
    OffshoreLinks,
    Relations,
    UkConnections,
    UltimateOwnerResult,
)
from regintel.areas.people import service as people_svc
from regintel.config import Settings
from regintel.domain.ownership import MAX_DEPTH, MAX_PATHS

router = APIRouter(prefix="/api/v1/companies", tags=["Ownership"], route_class=StrictRoute)

Ico = Annotated[str, Path(max_length=40, description="National identifier")]
Country = Annotated[
    str | None,
    Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case (default: SK first)"),
]
Purpose = Annotated[
    str | None,
    Query(
        max_length=64,
        description="Declared processing purpose (one of the "
        "configured list, e.g. `kyc`): unlocks natural persons' birth date, "
        "nationality and residence",
    ),
]
IncludeEnded = Annotated[bool, Query(description="Also roles and stakes that have ended")]
PERSONS = (
    " Natural persons' birth date, nationality and residence (`personal`) are filled only with a "
    "declared `purpose`."
)


def context(conn: Any, settings: Settings, purpose: str | None) -> Ctx:
    return Ctx(conn, people_svc.check_purpose(purpose, settings.allowed_purposes))


def _meta(row: Any) -> dict[str, Any]:
    return {"country": row["country"], "national_id": row["national_id"]}


@router.get(
    "/{ico}/relations",
    response_model=Envelope[Relations],
    summary="Relations",
    description="Directors and statutory bodies, shareholders (register shareholders and GLEIF "
    "accounting-consolidation parents), beneficial owners (UK PSC, registers) and the stakes this company "
    "holds, each with role, dates, share, published bands and natures of control, and source with "
    "licence. Current relations only unless `include_ended`." + PERSONS,
)
def relations(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    include_ended: IncludeEnded = False,
) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, relations_svc.relations(ctx, row, include_ended), **_meta(row))


@router.get(
    "/{ico}/ultimate-owner",
    response_model=Envelope[UltimateOwnerResult],
    summary="Ultimate owner",
    description="Walks the ownership graph up from the company (register shareholders and beneficial "
    "owners, GLEIF direct consolidation parents) and reports where every path ends, with each path's "
    "multiplied share, at the 25% (AMLD beneficial owner) and 50% (control) thresholds. Control passes "
    "along chains of majority stakes; stakes held through controlled entities add up; each loop is "
    "reported once and never followed twice. When the owner is unknown, `unknownReasons` says why (GLEIF "
    "reporting exceptions such as NATURAL_PERSONS or NON_CONSOLIDATING, no owner on record, a foreign "
    "entity, undecidable shares). See docs/ownership.md for the rules." + PERSONS,
)
def ultimate_owner(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    max_depth: Annotated[int, Query(ge=1, le=MAX_DEPTH, description="Levels walked up")] = 10,
    max_paths: Annotated[int, Query(ge=1, le=MAX_PATHS, description="Path budget")] = 500,
) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, ultimate_svc.ultimate_owner(ctx, row, max_depth, max_paths), **_meta(row))


@router.get(
    "/{ico}/graph",
    response_model=Envelope[Graph],
    summary="Network graph",
    description="People and companies around the company, breadth first: officers and owners, the "
    "companies they hold roles in, parents and subsidiaries, up to `depth` hops (at most 5) and `limit` "
    "nodes (`truncated` says when the limit cut it). Edges on ownership loops and their nodes are marked "
    "`inCycle`." + PERSONS,
)
def graph(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    depth: Annotated[int, Query(ge=1, le=5, description="Hops from the company")] = 2,
    limit: Annotated[int, Query(ge=1, le=2000, description="Most nodes returned")] = 200,
    include_ended: IncludeEnded = False,
) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, graph_svc.graph(ctx, row, depth, limit, include_ended), **_meta(row))


@router.get(
    "/{ico}/network",
    response_model=Envelope[Network],
    summary="Links through shared people",
    description="Other companies in which the company's officers and owners who are natural persons "
    "hold roles, most shared people first, with the shared people and their roles on both sides. People "
    "are the same when their person record is (name, and birth date where the register gives one)." + PERSONS,
)
def network(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    include_ended: IncludeEnded = False,
    limit: Annotated[int, Query(ge=1, le=1000, description="Most companies returned")] = 100,
) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    data, total = graph_svc.network(ctx, row, include_ended, limit)
    return ok(request, data, total=total, **_meta(row))


@router.get(
    "/{ico}/uk-connections",
    response_model=Envelope[UkConnections],
    summary="UK PSC connections",
    description="Companies House 'persons with significant control' entries that name this company (as "
    "the PSC of a UK company, by its company key) or its people (the same person record, or a PSC person "
    "of the same normalised name whose birth month does not contradict: `match` says which; a name "
    "match is a lead to check, not a finding), and, for a UK company, its own PSCs. Ended entries "
    "included, with their dates." + PERSONS,
)
def uk_connections(
    request: Request,
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, links_svc.uk_connections(ctx, row), **_meta(row))


Groups = Annotated[
    str,
    Query(
        max_length=10,
        pattern=r"^[123](,[123])*$",
        description="FSF groups of the jurisdiction list to report, comma-separated",
    ),
]
OffshoreDepth = Annotated[int, Query(ge=1, le=5, description="Hops from the company")]
OFFSHORE_DESC = (
    "Entities around the company (officers, owners, parents, subsidiaries, companies sharing "
    "people, up to `depth` hops; GLEIF parents and children) that are registered in an offshore "
    "jurisdiction of the Financial Stability Forum's list of offshore financial centres (2000; groups "
    "I-III, the list and its source in docs/ownership.md), with the path that links them. A natural "
    "person's residence and nationality are personal data: they are checked only with a declared "
    "`purpose`." + PERSONS
)


def _offshore(
    request: Request, conn: Any, settings: Settings, row: Any, purpose: str | None, depth: int, groups: str
) -> Response:
    ctx = context(conn, settings, purpose)
    wanted = frozenset(int(g) for g in groups.split(","))
    return ok(request, links_svc.offshore_links(ctx, row, depth, wanted), **_meta(row))


@router.get(
    "/{ico}/offshore-links",
    response_model=Envelope[OffshoreLinks],
    summary="Offshore links",
    description=OFFSHORE_DESC,
)
def offshore_links(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    ctx_row: CompanyRow,
    settings: AppSettings,
    purpose: Purpose = None,
    depth: OffshoreDepth = 2,
    groups: Groups = "1,2,3",
) -> Response:
    return _offshore(request, conn, settings, ctx_row, purpose, depth, groups)


@router.get(
    "/{country}/{national_id}/offshore-links",
    response_model=Envelope[OffshoreLinks],
    summary="Offshore links (by country and national id)",
    description=OFFSHORE_DESC,
)
def offshore_links_by_key(
    request: Request,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Annotated[str, Path(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case")],
    national_id: Annotated[str, Path(max_length=40)],
    purpose: Purpose = None,
    depth: OffshoreDepth = 2,
    groups: Groups = "1,2,3",
) -> Response:
    row = companies_svc.get_company_row(conn, country, national_id)
    return _offshore(request, conn, settings, row, purpose, depth, groups)


def _csv(chunks: Any, row: Any, name: str) -> StreamingResponse:
    filename = f"{row['country']}-{row['national_id']}-{name}.csv"
    return StreamingResponse(
        chunks,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


CSV_RESPONSE: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}}, "description": "CSV"}}
ExportDepth = Annotated[int, Query(ge=1, le=5, description="Hops from the company")]
ExportLimit = Annotated[int, Query(ge=1, le=2000, description="Most entities")]


def export_graph(
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    depth: ExportDepth = 2,
    limit: ExportLimit = 500,
) -> tuple[Any, Graph]:
    """The parameters every neighbourhood export takes, and the company with its `/graph`."""
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return row, graph_svc.graph(ctx, row, depth, limit, include_ended=False)


def export_relations(
    ico: Ico,
    conn: DbConn,
    _key: ApiKey,
    settings: AppSettings,
    country: Country = None,
    purpose: Purpose = None,
    include_ended: IncludeEnded = False,
) -> Relations:
    """The parameters of the relation exports, and the company's `/relations`."""
    ctx = context(conn, settings, purpose)
    return relations_svc.relations(ctx, companies_svc.resolve_ico(conn, ico, country), include_ended)


Neighbourhood = Annotated[tuple[Any, Graph], Depends(export_graph)]
CompanyRelations = Annotated[Relations, Depends(export_relations)]
I2_DESC = (
    "IBM i2 Analyst's Notebook import CSV of the company's neighbourhood (the `/graph` of the same "
    "`depth` and `limit`). Entities and links share the `Identity` column, so one import specification "
    "serves every company and repeated imports merge. Cells that a spreadsheet would run as a formula are "
    "defused." + PERSONS
)


@router.get(
    "/{ico}/i2/entities.csv",
    summary="i2 entities CSV",
    response_class=StreamingResponse,
    responses=CSV_RESPONSE,
    description=I2_DESC,
)
def i2_entities(neighbourhood: Neighbourhood) -> StreamingResponse:
    row, graph = neighbourhood
    return _csv(exports.i2_entities(graph), row, "i2-entities")


@router.get(
    "/{ico}/i2/links.csv",
    summary="i2 links CSV",
    response_class=StreamingResponse,
    responses=CSV_RESPONSE,
    description=I2_DESC,
)
def i2_links(neighbourhood: Neighbourhood) -> StreamingResponse:
    row, graph = neighbourhood
    return _csv(exports.i2_links(graph), row, "i2-links")


XML_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/xml": {}}, "description": "MaltegoMessage XML"}
}
MALTEGO = (
    "Maltego transform response (`MaltegoMessage` / `MaltegoTransformResponseMessage` XML) with "
    "standard `maltego.Company` and `maltego.Person` entities; every entity carries `regintel.id` and "
    "its role, share, dates and source as additional fields." + PERSONS
)


def _xml(body: bytes) -> Response:
    return Response(body, media_type="application/xml; charset=utf-8")


@router.get(
    "/{ico}/maltego/companies",
    summary="Maltego: related companies",
    response_class=Response,
    responses=XML_RESPONSE,
    description="Companies linked to this one (parents, subsidiaries, "
    "companies sharing people, up to `depth` hops). " + MALTEGO,
)
def maltego_companies(neighbourhood: Neighbourhood) -> Response:
    return _xml(exports.maltego(exports.companies(neighbourhood[1])))


@router.get(
    "/{ico}/maltego/officers",
    summary="Maltego: officers",
    response_class=Response,
    responses=XML_RESPONSE,
    description="Directors, statutory bodies and other officers. " + MALTEGO,
)
def maltego_officers(found: CompanyRelations) -> Response:
    return _xml(exports.maltego(exports.officers(found)))


@router.get(
    "/{ico}/maltego/owners",
    summary="Maltego: owners",
    response_class=Response,
    responses=XML_RESPONSE,
    description="Shareholders and beneficial owners. " + MALTEGO,
)
def maltego_owners(found: CompanyRelations) -> Response:
    return _xml(exports.maltego(exports.owners(found)))


@router.get(
    "/{ico}/ftm",
    summary="Neighbourhood as FollowTheMoney entities",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}, "description": "One FtM entity per line"}},
    description="The `/graph` neighbourhood (`depth`, `limit`) as FollowTheMoney entities, one JSON "
    "object per line: `Company`, `Person`, `LegalEntity`, and `Ownership` / `Directorship` entities "
    "linking them, ids `regintel-<entity id>`. Built with the `followthemoney` model, so every value "
    "is cleaned by its property type; loads into Aleph, yente or nomenklatura as it is." + PERSONS,
)
def ftm(neighbourhood: Neighbourhood) -> StreamingResponse:
    row, graph = neighbourhood
    return StreamingResponse(
        standards.ndjson(standards.ftm(graph)),
        media_type="application/x-ndjson",
        headers={
            "Content-Disposition": f'attachment; filename="{row["country"]}-{row["national_id"]}-ftm.ndjson"'
        },
    )


@router.get(
    "/{ico}/bods",
    summary="Neighbourhood as a BODS 0.4 package",
    response_class=Response,
    responses={
        200: {"content": {"application/json": {}}, "description": "A JSON array of BODS 0.4 statements"}
    },
    description="The `/graph` neighbourhood (`depth`, `limit`) as a Beneficial Ownership Data Standard "
    "0.4 package: entity, person and relationship statements with the company as declaration subject. "
    "Record ids are the API's entity ids; statement ids are content hashes, so an unchanged record keeps "
    "its statement id. The body is the bare statement array (no envelope), as BODS tools expect." + PERSONS,
)
def bods(neighbourhood: Neighbourhood) -> Response:
    return Response(dumps(standards.bods(neighbourhood[1], date.today())), media_type="application/json")
