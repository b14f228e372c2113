"""`GET /api/v1/public/status`: is the service healthy, and how fresh is its data."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from regintel.api.deps import PublicLimit
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.db.migrate import applied_revision, code_head
from regintel.db.schema import import_runs, worker_heartbeats

router = APIRouter(
    prefix="/api/v1/public", tags=["Public"], dependencies=[PublicLimit], route_class=StrictRoute
)

WORKER_STALE_AFTER = timedelta(minutes=2)


class Status(BaseModel):
    status: str
    database: dict[str, object]
    imports: list[dict[str, object]]
    worker: dict[str, object]


@router.get(
    "/status",
    response_model=Envelope[Status],
    summary="Service status",
    description="Database reachability and backend, schema version against the code's head, the "
    "last import of each source, and the newest worker heartbeat. `status` is `ok` or `degraded`.",
)
def status(request: Request) -> Response:
    engine = request.app.state.engine
    database: dict[str, object] = {"backend": engine.dialect.name}
    imports: list[dict[str, object]] = []
    worker: dict[str, object] = {"alive": False, "last_heartbeat": None}
    try:
        with engine.connect() as conn:
            last = (
                select(import_runs.c.source, func.max(import_runs.c.id).label("id"))
                .group_by(import_runs.c.source)
                .subquery()
            )
            rows = conn.execute(
                select(import_runs).join(last, last.c.id == import_runs.c.id).order_by(import_runs.c.source)
            ).mappings()
            imports = [
                {
                    "source": r["source"],
                    "status": r["status"],
                    "started_at": r["started_at"],
                    "finished_at": r["finished_at"],
                    "stats": r["stats"],
                }
                for r in rows
            ]
            beat = conn.execute(select(func.max(worker_heartbeats.c.beat_at))).scalar()
            database["schema_version"] = applied_revision(conn)
        database["reachable"] = True
    except SQLAlchemyError as exc:
        database.update(reachable=False, error=type(exc).__name__)
        beat = None
    database["schema_head"] = code_head()
    if beat is not None:
        beat = beat.replace(tzinfo=UTC) if beat.tzinfo is None else beat
        worker = {"alive": datetime.now(UTC) - beat < WORKER_STALE_AFTER, "last_heartbeat": beat}
    healthy = database.get("reachable") and database.get("schema_version") == database["schema_head"]
    return ok(
        request,
        {
            "status": "ok" if healthy else "degraded",
            "database": database,
            "imports": imports,
            "worker": worker,
        },
    )
