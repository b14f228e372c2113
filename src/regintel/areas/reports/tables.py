"""The reports area's table (migration 0013_reports)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Index, Integer, LargeBinary, String, Table, Text

from regintel.db.schema import Id, metadata

# One stored report: asked for by a key, rendered by `regintel worker` (job kind `reports.render`), the
# document kept in the row (a company report is tens of kilobytes).
reports = Table(
    "reports",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # company | ai-dd
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("key_id", Id, nullable=False),  # the API key that asked: only it sees the report
    Column("status", String(16), nullable=False),  # queued | running | done | failed
    Column("format", String(16), nullable=False),  # pdf | json
    Column("options", JSON, nullable=False),  # sections, purpose
    Column("job_id", Id),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True)),
    Column("media_type", String(64)),
    Column("size_bytes", Integer),
    Column("content", LargeBinary),
    Column("narrative", JSON),  # the due-diligence report's sections (ai-dd)
    Column("error", Text),
    Index("ix_reports_key_id", "key_id", "id"),
)
