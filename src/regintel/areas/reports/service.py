"""The reports' use cases: render the company PDF, write the due-diligence narrative, queue stored reports
and answer their status to the key that asked.

A stored report is a row of `reports` plus a job (`reports.render`) queued in the same transaction;
`regintel worker` renders it (`jobs.py`) from the data as it is when the job runs.

Other areas may call `render_again` (the accounts area does, when it withholds a natural person)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.reports import facts as facts_mod
from regintel.areas.reports import llm, queries
from regintel.config import Settings
from regintel.db import jobs as jobs_db
from regintel.domain import due_diligence as dd
from regintel.errors import Conflict, NotFound

KIND = "reports.render"
COMPANY, AI_DD = "company", "ai-dd"
PDF = "application/pdf"


def company_pdf(conn: Connection, row: Mapping[str, Any]) -> bytes:
    # Imported here: fpdf and fontTools cost every API worker about 0.3 s at start-up for one route.
    from regintel.areas.reports import pdf

    pdf.font_paths()  # 501 before any work when the fonts are missing
    return pdf.company_report(facts_mod.gather(conn, row))


def narrative(
    settings: Settings, facts: dict[str, Any], sections: int | None = None, use_model: bool = True
) -> dict[str, Any]:
    """The rule-based report (the first `sections` sections, or all), rewritten into prose by the configured
    model when there is one and `use_model`."""
    out = dd.write(facts, sections)
    if use_model:
        prose, writer = llm.rewrite(settings, out, facts["company"]["name"])
    else:
        prose, writer = None, llm.rule_based_note()
    c = facts["company"]
    return {
        "company": {"country": c["country"], "nationalId": c["nationalId"], "name": c["name"]},
        "generatedAt": facts["generatedAt"],
        "writer": writer,
        "prose": prose,
        **out,
        "sources": facts["sources"],
    }


def preview(conn: Connection, settings: Settings, row: Mapping[str, Any]) -> dict[str, Any]:
    """The first sections, at once and without the model (a preview must answer quickly)."""
    out = narrative(settings, facts_mod.gather(conn, row), dd.PREVIEW_SECTIONS, use_model=False)
    out["fullReport"] = {
        "sections": list(dd.SECTION_TITLES.values()),
        "how": "POST /api/v1/companies/{ico}/report/ai-dd queues the full report",
    }
    return out


def queue(
    conn: Connection, key_id: int, row: Mapping[str, Any], kind: str, fmt: str, options: dict[str, Any]
) -> dict[str, Any]:
    now = datetime.now(UTC)
    report_id = queries.create(
        conn,
        {
            "kind": kind,
            "company_id": row["id"],
            "key_id": key_id,
            "status": "queued",
            "format": fmt,
            "options": options,
            "created_at": now,
        },
    )
    job_id = jobs_db.enqueue(
        conn, KIND, {"report_id": report_id}, now=now, owner_key_id=key_id, max_attempts=3
    )
    assert job_id is not None  # no dedupe key: always queued
    queries.set_job(conn, report_id, job_id)
    return status(conn, key_id, report_id)


def render_again(conn: Connection, company_ids: Sequence[int], now: datetime) -> int:
    """Withdraw the stored documents of these companies' reports and queue their rendering anew, in the
    caller's transaction; returns how many. Until the worker has rendered one, its document answers 409 like
    a report not yet done, so the old document (which may name a person withheld since) is never served."""
    if not company_ids:
        return 0
    found = queries.to_render_again(conn, company_ids)
    for r in found:
        job_id = jobs_db.enqueue(
            conn, KIND, {"report_id": r["id"]}, now=now, owner_key_id=r["key_id"], max_attempts=3
        )
        assert job_id is not None  # no dedupe key: always queued
        queries.withdraw(conn, int(r["id"]), job_id)
    return len(found)


def _report(conn: Connection, key_id: int, report_id: int) -> Mapping[str, Any]:
    row = queries.of_key(conn, report_id, key_id)
    if row is None:
        raise NotFound(f"No report {report_id} of this key")
    return row


def status(conn: Connection, key_id: int, report_id: int) -> dict[str, Any]:
    r = _report(conn, key_id, report_id)
    job = jobs_db.get(conn, r["job_id"]) if r["job_id"] is not None else None
    state = r["status"]
    if (
        state in ("queued", "running")
        and job is not None
        and job["status"] in (jobs_db.QUEUED, jobs_db.RUNNING)
    ):
        state = job["status"]
    elif state != "done" and job is not None and job["status"] == jobs_db.FAILED:
        state = "failed"
    url = f"/api/v1/reports/{r['id']}"
    return {
        "id": r["id"],
        "kind": r["kind"],
        "status": state,
        "format": r["format"],
        "company": {"country": r["country"], "nationalId": r["national_id"], "name": r["name"]},
        "createdAt": r["created_at"],
        "finishedAt": r["finished_at"],
        "attempts": job["attempts"] if job else 0,
        "error": r["error"] or (job["last_error"] if job and state == "failed" else None),
        "statusUrl": url,
        "documentUrl": url + "?download=true" if state == "done" else None,
        "mediaType": r["media_type"],
        "sizeBytes": r["size_bytes"],
        "narrative": r["narrative"] if state == "done" else None,
    }


def document(conn: Connection, key_id: int, report_id: int) -> tuple[bytes, dict[str, Any]]:
    """The finished document; 409 until it is done."""
    info = status(conn, key_id, report_id)
    if info["status"] != "done":
        raise Conflict(
            f"Report {report_id} is {info['status']}: its document is ready once it is done",
            details={"status": info["status"]},
        )
    body = queries.content(conn, report_id)
    assert body is not None
    return body, info
