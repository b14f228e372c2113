"""Ownership and people routes of spec 4.4: relations, graph, network, ultimate owner, UK PSC
connections, offshore links, and the i2 and Maltego exports. Every route that can name a natural person
takes `purpose`: without one, a person's birth date, nationality and residence stay out."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from regintel.api.deps import ApiKey, AppSettings, DbConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.ownership import graph as graph_svc
from regintel.areas.ownership import relations as relations_svc
from regintel.areas.ownership import ultimate as ultimate_svc
from regintel.areas.ownership.entities import Ctx
from regintel.areas.ownership.schemas import Graph, Network, Relations, UltimateOwnerResult
from regintel.config import Settings
from regintel.domain.ownership import MAX_DEPTH, MAX_PATHS
from regintel.services import companies as companies_svc
from regintel.services import people as people_svc

router = APIRouter(prefix="/api/v1/companies", tags=["Ownership"], route_class=StrictRoute)

Ico = Annotated[str, Path(max_length=40, description="National identifier")]
Country = Annotated[str | None, Query(min_length=2, max_length=2,
                                     description="ISO 3166-1 alpha-2, any case (default: SK first)")]
Purpose = Annotated[str | None, Query(max_length=64, description="Declared processing purpose (one of the "
                                      "configured list, e.g. `kyc`): unlocks natural persons' birth date, "
                                      "nationality and residence")]
IncludeEnded = Annotated[bool, Query(description="Also roles and stakes that have ended")]
PERSONS = (" Natural persons' birth date, nationality and residence (`personal`) are filled only with a "
           "declared `purpose`.")


def context(conn: Any, settings: Settings, purpose: str | None) -> Ctx:
    return Ctx(conn, people_svc.check_purpose(purpose, settings.allowed_purposes))


def _meta(row: Any) -> dict[str, Any]:
    return {"country": row["country"], "national_id": row["national_id"]}


@router.get("/{ico}/relations", response_model=Envelope[Relations], summary="Relations",
            description="Directors and statutory bodies, shareholders (register shareholders and GLEIF "
            "accounting-consolidation parents), beneficial owners (UK PSC, registers) and the stakes this company "
            "holds, each with role, dates, share, published bands and natures of control, and source with "
            "licence. Current relations only unless `include_ended`." + PERSONS)
def relations(request: Request, ico: Ico, conn: DbConn, _key: ApiKey, settings: AppSettings,
              country: Country = None, purpose: Purpose = None, include_ended: IncludeEnded = False) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, relations_svc.relations(ctx, row, include_ended), **_meta(row))


@router.get("/{ico}/ultimate-owner", response_model=Envelope[UltimateOwnerResult], summary="Ultimate owner",
            description="Walks the ownership graph up from the company (register shareholders and beneficial "
            "owners, GLEIF direct consolidation parents) and reports where every path ends, with each path's "
            "multiplied share, at the 25% (AMLD beneficial owner) and 50% (control) thresholds. Control passes "
            "along chains of majority stakes; stakes held through controlled entities add up; each loop is "
            "reported once and never followed twice. When the owner is unknown, `unknownReasons` says why (GLEIF "
            "reporting exceptions such as NATURAL_PERSONS or NON_CONSOLIDATING, no owner on record, a foreign "
            "entity, undecidable shares). See docs/ownership.md for the rules." + PERSONS)
def ultimate_owner(request: Request, ico: Ico, conn: DbConn, _key: ApiKey, settings: AppSettings,
                   country: Country = None, purpose: Purpose = None,
                   max_depth: Annotated[int, Query(ge=1, le=MAX_DEPTH, description="Levels walked up")] = 10,
                   max_paths: Annotated[int, Query(ge=1, le=MAX_PATHS, description="Path budget")] = 500,
                   ) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, ultimate_svc.ultimate_owner(ctx, row, max_depth, max_paths), **_meta(row))


@router.get("/{ico}/graph", response_model=Envelope[Graph], summary="Network graph",
            description="People and companies around the company, breadth first: officers and owners, the "
            "companies they hold roles in, parents and subsidiaries, up to `depth` hops (at most 5) and `limit` "
            "nodes (`truncated` says when the limit cut it). Edges on ownership loops and their nodes are marked "
            "`inCycle`." + PERSONS)
def graph(request: Request, ico: Ico, conn: DbConn, _key: ApiKey, settings: AppSettings,
          country: Country = None, purpose: Purpose = None,
          depth: Annotated[int, Query(ge=1, le=5, description="Hops from the company")] = 2,
          limit: Annotated[int, Query(ge=1, le=2000, description="Most nodes returned")] = 200,
          include_ended: IncludeEnded = False) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    return ok(request, graph_svc.graph(ctx, row, depth, limit, include_ended), **_meta(row))


@router.get("/{ico}/network", response_model=Envelope[Network], summary="Links through shared people",
            description="Other companies in which the company's officers and owners who are natural persons "
            "hold roles, most shared people first, with the shared people and their roles on both sides. People "
            "are the same when their person record is (name, and birth date where the register gives one)."
            + PERSONS)
def network(request: Request, ico: Ico, conn: DbConn, _key: ApiKey, settings: AppSettings,
            country: Country = None, purpose: Purpose = None, include_ended: IncludeEnded = False,
            limit: Annotated[int, Query(ge=1, le=1000, description="Most companies returned")] = 100) -> Response:
    ctx = context(conn, settings, purpose)
    row = companies_svc.resolve_ico(conn, ico, country)
    data, total = graph_svc.network(ctx, row, include_ended, limit)
    return ok(request, data, total=total, **_meta(row))
