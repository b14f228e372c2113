"""NIS2 routes (spec 4.4, 4.5): `/companies/{ico}/nis2`, `/nis2-obligations`, `/nis2-priority` and
`/compliance/nis2-sweep` (+ its job status)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.nis2 import service, sweep
from regintel.areas.nis2.schemas import (
    Nis2Obligations,
    Nis2Priority,
    Nis2Scope,
    SweepQueued,
    SweepRequest,
    SweepResult,
    SweepStatus,
)
from regintel.errors import ValidationFailed

companies_router = APIRouter(prefix="/api/v1/companies", tags=["NIS2"], route_class=StrictRoute)
compliance_router = APIRouter(prefix="/api/v1/compliance", tags=["NIS2"], route_class=StrictRoute)
ROUTERS = [companies_router, compliance_router]


@companies_router.get(
    "/{ico}/nis2",
    response_model=Envelope[Nis2Scope],
    summary="NIS2 scoping",
    description="Essential, important or out of scope under Directive (EU) 2022/2555, with the "
    "reasons: the sector and subsector (Annex I or II) and the NACE code that led there, the size "
    "class (Recommendation 2003/361/EC) and its inputs, partner and linked enterprises from the "
    "ownership data, the size-independent designations, the national transposition and the "
    "rule-set version. Unknown inputs give `certainty` `likely` or `possible` and list what is "
    "`missing`. See docs/nis2.md.",
)
def nis2_scope(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, service.scope(conn, row), country=row["country"], national_id=row["national_id"])


@companies_router.get(
    "/{ico}/nis2-obligations",
    response_model=Envelope[Nis2Obligations],
    summary="NIS2 obligations",
    description="The 18 obligations NIS2 puts on essential and important entities (Art. 20, 21(2)"
    "(a)-(j), 23, 3(4)/27, 32-34), each with its legal reference, deadline and whether it applies "
    "to this entity's category, with the national act and its known deviations (SK, CZ).",
)
def nis2_obligations(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(request, service.obligations(conn, row), country=row["country"], national_id=row["national_id"])


@companies_router.get(
    "/{ico}/nis2-priority",
    response_model=Envelope[Nis2Priority],
    summary="NIS2 priority",
    description="0-100 with tier `hot` (>= 70), `warm` (>= 45), `cool` (>= 20) or `cold`, and the "
    "factors: scope and its certainty, size, sector criticality, recent register changes; "
    "security posture findings are not assessed (0 points, said so).",
)
def nis2_priority(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return ok(
        request, service.priority_view(conn, row), country=row["country"], national_id=row["national_id"]
    )


@compliance_router.post(
    "/nis2-sweep",
    response_model=Envelope[SweepResult | SweepQueued],
    summary="NIS2 sweep",
    responses={202: {"model": Envelope[SweepQueued], "description": "Queued as a job"}},
    description="Scope a portfolio: `identifiers` (up to 10,000 country + national id pairs) or "
    "`filter` (advanced-search filters), exactly one. Up to 1,000 identifiers answer at once "
    "(200) with counts per category, per certainty and per country, and the in-scope entities; "
    "more, or a filter, queue the job `nis2.sweep` (202) whose `status_url` "
    "(`GET /api/v1/compliance/nis2-sweep/{job_id}`) gives its state and, when done, the same "
    "result. Invalid identifiers are listed, not fatal.",
)
def nis2_sweep(request: Request, body: SweepRequest, conn: DbWriteConn, key: ApiKey) -> Response:
    if (body.identifiers is None) == (body.filter is None):
        raise ValidationFailed(
            "Give exactly one of `identifiers` and `filter`",
            details=[{"field": "body", "in": "body", "message": "identifiers xor filter"}],
        )
    if body.identifiers is not None and len(body.identifiers) <= sweep.SYNC_LIMIT:
        items = [i.model_dump() for i in body.identifiers]
        result = sweep.sweep_identifiers(conn, items)
        conn.commit()  # the assessments it stored for the `nis2_scope` filter
        return ok(request, result)
    if body.filter is not None:
        sweep.validate_filter(conn, body.filter)
        payload = {"filter": body.filter.model_dump(mode="json", exclude_none=True), "owner": key.key.id}
    else:
        payload = {"identifiers": [i.model_dump() for i in body.identifiers or []], "owner": key.key.id}
    job_id = sweep.enqueue(conn, payload, key.key.id)
    conn.commit()
    url = sweep.STATUS_PATH.format(job_id=job_id)
    data = {"job_id": job_id, "status": "queued", "status_url": url}
    return ok(request, data, status_code=202, headers={"Location": url})


@compliance_router.get(
    "/nis2-sweep/{job_id}",
    response_model=Envelope[SweepStatus],
    summary="NIS2 sweep status",
    description="A queued sweep's state (`queued`, `running`, `done`, `failed`), how many "
    "companies it has assessed and, when done, its result. Only the key that queued it sees it.",
)
def nis2_sweep_status(
    request: Request, job_id: Annotated[int, Path(ge=1, le=2**62)], conn: DbConn, key: ApiKey
) -> Response:
    return ok(request, sweep.status(conn, job_id, key.key.id))
