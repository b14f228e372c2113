"""Operations endpoints outside the API's version prefix: `/livez` (the process answers), `/readyz`
(it can serve: database reachable, schema at the code's head) and `/metrics` (Prometheus). See
docs/deployment.md. They take no key and are not rate-limited: probes and scrapers call them often."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from regintel.api import metrics
from regintel.api.envelope import dumps
from regintel.api.routing import StrictRoute
from regintel.db.migrate import applied_revision, code_head

router = APIRouter(tags=["Operations"], route_class=StrictRoute)


class Liveness(BaseModel):
    model_config = ConfigDict(extra="forbid")
    live: Literal["ok"]


class Readiness(BaseModel):
    ready: bool
    checks: dict[str, str] = Field(
        description="`ok`, or what is wrong: `unreachable: <error>`, `behind: <applied> != <head>`"
    )


@router.get(
    "/livez",
    summary="Liveness",
    response_model=Liveness,
    description='`{"live": "ok"}` while the process answers requests; no database access.',
)
async def livez() -> Response:
    return Response(b'{"live":"ok"}', media_type="application/json")


@router.get(
    "/readyz",
    summary="Readiness",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Not ready: see `checks`"}},
    description="200 when this process can serve: the database answers and its schema is at the "
    "code's head; else 503 with the failed check. For load balancers and orchestrators.",
)
async def readyz(request: Request) -> Response:
    engine = request.app.state.engine

    def check() -> dict[str, str]:
        try:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))
                applied = applied_revision(conn)
        except SQLAlchemyError as exc:
            return {"database": f"unreachable: {type(exc).__name__}"}
        head = code_head()
        return {"database": "ok", "schema": "ok" if applied == head else f"behind: {applied} != {head}"}

    checks = await run_in_threadpool(check)
    ready = all(v == "ok" for v in checks.values())
    return Response(
        dumps({"ready": ready, "checks": checks}),
        status_code=200 if ready else 503,
        media_type="application/json",
    )


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text exposition"}},
    description="Request counts and latency by route and status, requests shed, connections lent "
    "and waited for, requests in flight (summed over the server's processes), jobs by "
    "status and the oldest due job's age, due webhook deliveries, the search index's "
    "documents and watermark. Documented in docs/deployment.md.",
)
async def prometheus(request: Request) -> Response:
    state = request.app.state
    body = await run_in_threadpool(metrics.render, state.engine, getattr(state, "search", None))
    return Response(body, media_type="text/plain; version=0.0.4; charset=utf-8")
