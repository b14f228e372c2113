"""The reports area's SQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from regintel.areas.reports.tables import reports
from regintel.db.schema import companies

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.

META = [c for c in reports.c if c.name != "content"]


def create(conn: Connection, values: Mapping[str, Any]) -> int:
    return int(conn.execute(reports.insert().values(**values).returning(reports.c.id)).scalar_one())


def set_job(conn: Connection, report_id: int, job_id: int) -> None:
    conn.execute(update(reports).where(reports.c.id == report_id).values(job_id=job_id))


def of_key(conn: Connection, report_id: int, key_id: int) -> Mapping[str, Any] | None:
    """The report with its company's identity, when it is this key's."""
    stmt = (
        select(*META, companies.c.country, companies.c.national_id, companies.c.name)
        .join(companies, companies.c.id == reports.c.company_id)
        .where(reports.c.id == report_id, reports.c.key_id == key_id)
    )
    row = conn.execute(stmt).first()
    item = None if row is None else row._mapping
    return cast("Mapping[str, Any] | None", item)


def get(conn: Connection, report_id: int) -> Mapping[str, Any] | None:
    stmt = (
        select(*META, companies.c.country, companies.c.national_id)
        .join(companies, companies.c.id == reports.c.company_id)
        .where(reports.c.id == report_id)
    )
    row = conn.execute(stmt).first()
    item = None if row is None else row._mapping
    return cast("Mapping[str, Any] | None", item)


def content(conn: Connection, report_id: int) -> bytes | None:
    return conn.execute(select(reports.c.content).where(reports.c.id == report_id)).scalar_one_or_none()


def mark(conn: Connection, report_id: int, **values: Any) -> None:
    conn.execute(update(reports).where(reports.c.id == report_id).values(**values))


def to_render_again(conn: Connection, company_ids: Sequence[int]) -> list[Mapping[str, Any]]:
    """Reports of these companies whose document exists or may be being written (done, running)."""
    stmt = select(reports.c.id, reports.c.key_id).where(
        reports.c.company_id.in_(list(company_ids)), reports.c.status.in_(("done", "running"))
    )
    return [cast("Mapping[str, Any]", r._mapping) for r in conn.execute(stmt)]


def withdraw(conn: Connection, report_id: int, job_id: int) -> None:
    """Take the document out and hand the report to a new render job."""
    conn.execute(
        update(reports)
        .where(reports.c.id == report_id)
        .values(
            status="queued",
            job_id=job_id,
            content=None,
            narrative=None,
            media_type=None,
            size_bytes=None,
            finished_at=None,
            error=None,
        )
    )


def finish(
    conn: Connection,
    report_id: int,
    now: datetime,
    content: bytes,
    media_type: str,
    narrative: Any,
    job_id: int | None = None,
) -> bool:
    """Store the document; with `job_id`, only while that job is still the report's (a render that began
    before the report was withdrawn must not write the old data back). True when stored."""
    mine = reports.c.job_id == job_id if job_id is not None else reports.c.id == report_id
    return bool(
        conn.execute(
            update(reports)
            .where(reports.c.id == report_id, mine)
            .values(
                status="done",
                finished_at=now,
                content=content,
                media_type=media_type,
                size_bytes=len(content),
                narrative=narrative,
                error=None,
            )
        ).rowcount
    )
