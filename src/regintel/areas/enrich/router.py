"""`/api/v1/enrich/jobs` (spec 4.4): create an enrichment job, follow it, read its result."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response, StreamingResponse

from regintel.api.deps import ApiKey, AppSettings, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, dumps, ok
from regintel.api.routing import StrictRoute
from regintel.areas.enrich import csv_sections, sections, upload
from regintel.areas.enrich import service as svc
from regintel.areas.enrich.body import read_job
from regintel.areas.enrich.schemas import JobOut, request_body
from regintel.render.tabular import iter_csv

router = APIRouter(prefix="/api/v1/enrich/jobs", tags=["Enrichment"], route_class=StrictRoute)
SECTION_NAMES = ", ".join(f"`{n}`" for n in sections.NAMES)
JobId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Job id")]


@router.post(
    "",
    status_code=202,
    response_model=Envelope[JobOut],
    summary="Create an enrichment job",
    openapi_extra={"requestBody": request_body()},
    description=f"Queue up to {svc.MAX_IDENTIFIERS:,} companies: a JSON list of national identifiers, or "
    "a CSV file uploaded as `multipart/form-data` (field `file`, at most "
    f"{upload.MAX_BYTES // 2**20} MiB; optional fields `country` and `encoding`) whose header names an "
    "identifier column (`id`, `ico`, `national_id`, `company_number`, …) and/or `name` (with `city`, "
    "`country`). Comma, semicolon, tab or pipe separated, UTF-8 with or without a byte-order mark unless "
    "`encoding` says otherwise. `regintel worker` answers each entry as `POST /companies/bulk` does "
    "(`found` with the company record, `not_found`, `invalid` with the reason, `ambiguous` with "
    "candidates); a name is resolved as `/companies/resolve` resolves it, with the `match` score and "
    "reasons. `sections` (a JSON list, or a form field of comma-separated names) adds to each company "
    f"found the results of {SECTION_NAMES}, each as its REST route answers it, `{{present, reason, "
    "data}` per section (absent with the reason when there is nothing to show or it failed for that "
    "company); `purpose` lets persons' personal fields into `ownership`. "
    "Answers 202 with the job and a `Location`; follow it with `GET /enrich/jobs/{id}`. 413 for "
    "a larger body, 415 for another media type, 422 for a malformed file (naming the line), 403 "
    "`FORBIDDEN` for more identifiers than the key's plan allows in one job (the plan's "
    "`enrich_max_identifiers`). Only the key that created a job sees it.",
)
async def create(request: Request, conn: DbWriteConn, caller: ApiKey, settings: AppSettings) -> Response:
    entries, country, source, options = await read_job(request, settings.allowed_purposes)
    svc.check_plan(len(entries), caller.key.plan, settings.plan(caller.key.plan))

    def work() -> dict[str, Any]:
        job = svc.create(conn, caller.key.id, entries, country, source, options)
        conn.commit()
        return job

    job = await run_in_threadpool(work)
    return ok(request, job, status_code=202, headers={"Location": f"/api/v1/enrich/jobs/{job['id']}"})


@router.get(
    "/{job_id}",
    response_model=Envelope[JobOut],
    summary="Job status",
    description="Status (`queued`, `running`, `done`, `failed`), progress, answers by status so far, "
    "attempts and the last error. Another key's job answers 404.",
)
def status(request: Request, job_id: JobId, conn: DbConn, caller: ApiKey) -> Response:
    return ok(request, svc.status(conn, caller.key.id, job_id))


@router.get(
    "/{job_id}/result",
    summary="Job result",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/x-ndjson": {}, "text/csv": {}},
            "description": "One answer per identifier, in input order",
        }
    },
    description="The answers of a finished job in input order, streamed: JSON lines (one answer per "
    "line: `index`, `input`, `status`, `reason`, `company`, `candidates`) or, with `format=csv`, CSV "
    "with a header row. 409 `CONFLICT` until the job is done; another key's job answers 404.",
)
def result(
    request: Request,
    job_id: JobId,
    conn: DbConn,
    caller: ApiKey,
    format: Annotated[Literal["jsonl", "csv"], Query(description="`jsonl` (default) or `csv`")] = "jsonl",
) -> StreamingResponse:
    names = svc.ready(conn, caller.key.id, job_id)
    answers = svc.iter_answers(request.app.state.engine, job_id)
    if format == "csv":
        rows = (svc.csv_row(a) | csv_sections.cells(a, names) for a in answers)
        return StreamingResponse(
            iter_csv(rows, svc.CSV_COLUMNS + csv_sections.columns(names)),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="enrich-{job_id}.csv"'},
        )
    return StreamingResponse((dumps(a) + b"\n" for a in answers), media_type="application/x-ndjson")
