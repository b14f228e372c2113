"""Reports (spec 4.4, 4.5): `GET /companies/{ico}/report.pdf`, stored reports
(`POST /companies/{cc}/{national_id}/report`, `GET /reports/{report_id}`) and the due-diligence report
(`POST /companies/{ico}/report/ai-dd` and its `/preview`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import Response

from regintel.api.company_path import CompanyRow
from regintel.api.deps import ApiKey, AppSettings, DbConn, DbWriteConn
from regintel.api.envelope import Envelope, ok
from regintel.api.routing import StrictRoute
from regintel.areas.companies import service as companies_svc
from regintel.areas.reports import service as svc
from regintel.areas.reports.schemas import DueDiligence, DueDiligenceIn, ReportIn, ReportOut

companies = APIRouter(prefix="/api/v1/companies", tags=["Reports"], route_class=StrictRoute)
reports = APIRouter(prefix="/api/v1/reports", tags=["Reports"], route_class=StrictRoute)
ROUTERS = [companies, reports]

Ico = Annotated[str, Path(max_length=40, description="National identifier")]
Country = Annotated[
    str | None,
    Query(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case (default: SK first)"),
]
ReportId = Annotated[int, Path(ge=1, le=2**63 - 1, description="Report id")]
PDF_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/pdf": {}}, "description": "The PDF document"}
}
PRIVATE = "private, max-age=300"


def _pdf(body: bytes, filename: str) -> Response:
    return Response(
        body,
        media_type=svc.PDF,
        headers={"Cache-Control": PRIVATE, "Content-Disposition": f'inline; filename="{filename}"'},
    )


@companies.get(
    "/{ico}/report.pdf",
    response_class=Response,
    responses=PDF_RESPONSE,
    summary="PDF report",
    description="A PDF company report rendered now: cover with the credit grade, identity and status, "
    "financial history (table and revenue chart), credit grade with its factors, risk drivers, "
    "owners, beneficial owners, officers and holdings, sanctions screening, NIS2 scope, recent "
    "events, and the sources with their licences on the last page. Fonts cover every market's "
    "alphabet (Latin with diacritics, Greek, Cyrillic). Natural persons appear by name only.",
)
def report_pdf(request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow) -> Response:
    return _pdf(svc.company_pdf(conn, row), f"report-{row['country']}-{row['national_id']}.pdf")


@companies.post(
    "/{cc}/{national_id}/report",
    status_code=202,
    response_model=Envelope[ReportOut],
    summary="Create a stored report",
    description="Queue a PDF company report (the sections of `GET /companies/{ico}/report.pdf`, or the "
    "chosen `sections`), rendered by `regintel worker` from the data as it is then. Answers 202 with "
    "the report id, its status URL and a `Location`; only the key that asked sees it.",
)
def create_report(
    request: Request,
    cc: Annotated[str, Path(pattern="^[A-Za-z]{2}$", description="Country (ISO 3166-1 alpha-2)")],
    national_id: Annotated[str, Path(max_length=40, description="National identifier")],
    conn: DbWriteConn,
    caller: ApiKey,
    body: ReportIn | None = None,
) -> Response:
    body = body or ReportIn()
    row = companies_svc.get_company_row(conn, cc, national_id)
    out = svc.queue(conn, caller.key.id, row, svc.COMPANY, body.format, {"sections": body.sections})
    conn.commit()
    return ok(request, out, status_code=202, headers={"Location": out["statusUrl"]})


@companies.post(
    "/{ico}/report/ai-dd",
    status_code=202,
    response_model=Envelope[ReportOut],
    summary="AI due-diligence report",
    description="Queue the full due-diligence report: numbered findings per section (identity, "
    "financials, credit, risk, ownership, sanctions, NIS2, recent events), each with its evidence and "
    "source, and a conclusion (`standard`, `review`, `escalate`). The findings are written by "
    "deterministic rules; when the operator configures an OpenAI-compatible model "
    "(`REGINTEL_LLM_BASE_URL`, `REGINTEL_LLM_MODEL`), it adds a prose summary citing the findings, and "
    "`writer` says which was used. Follow the status URL; `format=pdf` renders a document.",
)
def create_dd(
    request: Request,
    ico: Ico,
    conn: DbWriteConn,
    caller: ApiKey,
    country: Country = None,
    body: DueDiligenceIn | None = None,
) -> Response:
    body = body or DueDiligenceIn()
    row = companies_svc.resolve_ico(conn, ico, country)
    out = svc.queue(conn, caller.key.id, row, svc.AI_DD, body.format, {})
    conn.commit()
    return ok(request, out, status_code=202, headers={"Location": out["statusUrl"]})


@companies.post(
    "/{ico}/report/ai-dd/preview",
    response_model=Envelope[DueDiligence],
    summary="Preview of the due-diligence report",
    description="The first sections of the due-diligence report (identity, financials, credit), "
    "answered at once by the rule-based writer (no model call).",
)
def preview_dd(
    request: Request, conn: DbConn, _key: ApiKey, row: CompanyRow, settings: AppSettings
) -> Response:
    return ok(request, svc.preview(conn, settings, row))


@reports.get(
    "/{report_id}",
    response_model=Envelope[ReportOut],
    summary="Report by identifier",
    responses={200: {"content": {"application/pdf": {}}}},
    description="The report's status and metadata (the findings of a finished due-diligence report "
    "included). With `Accept: application/pdf` (or `download=true`), the finished document itself; 409 "
    "`CONFLICT` until it is done. Another key's report answers 404.",
)
def get_report(
    request: Request,
    report_id: ReportId,
    conn: DbConn,
    caller: ApiKey,
    download: Annotated[bool, Query(description="Answer the document, not the metadata")] = False,
    accept: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Response:
    wants_document = download or (
        accept is not None and "application/pdf" in accept and "application/json" not in accept
    )
    if not wants_document:
        return ok(request, svc.status(conn, caller.key.id, report_id))
    body, info = svc.document(conn, caller.key.id, report_id)
    if info["mediaType"] == svc.PDF:
        return _pdf(body, f"report-{report_id}.pdf")
    return Response(body, media_type=info["mediaType"], headers={"Cache-Control": PRIVATE})
