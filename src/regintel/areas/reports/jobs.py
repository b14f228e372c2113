"""The worker's side of stored reports: render the document of a queued report."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson

from regintel.api.envelope import dumps
from regintel.areas.companies import service as companies_svc
from regintel.areas.reports import facts as facts_mod
from regintel.areas.reports import pdf, queries, service
from regintel.db.engine import begin_write
from regintel.errors import NotFound
from regintel.jobs.registry import JobContext, Permanent, job_handler


@job_handler(service.KIND)
def render(ctx: JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Gather the company's data as it is now and write the report's document into its row. Run again after
    a worker died, it renders the report afresh (the row is written once, at the end)."""
    report_id = payload.get("report_id")
    if not isinstance(report_id, int):
        raise Permanent("payload without a report id")
    with begin_write(ctx.engine) as conn:
        report = queries.get(conn, report_id)
        if report is None:
            raise Permanent(f"report {report_id} is gone")
        queries.mark(conn, report_id, status="running")
    with ctx.engine.connect() as conn:
        try:
            row = companies_svc.get_company_row(conn, report["country"], report["national_id"])
        except NotFound as exc:
            raise Permanent(f"the company of report {report_id} is gone") from exc
        facts = facts_mod.gather(conn, row)
    if report["kind"] == service.AI_DD:
        story = orjson.loads(dumps(service.narrative(ctx.settings, facts)))
        body = pdf.dd_report(facts, story) if report["format"] == "pdf" else dumps(story)
    else:
        story, body = None, pdf.company_report(facts, (report["options"] or {}).get("sections"))
    media = service.PDF if report["format"] == "pdf" else "application/json"
    with begin_write(ctx.engine) as conn:
        if not queries.finish(conn, report_id, datetime.now(UTC), body, media, story, job_id=ctx.job_id):
            # withdrawn while this job rendered (a person was withheld): the newer job renders it
            return {"report_id": report_id, "superseded": True}
    return {"report_id": report_id, "size_bytes": len(body)}
