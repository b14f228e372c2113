"""The pages area's tables (migration 0013_pages)."""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Column, DateTime, ForeignKey, Index, Integer, Table, Text

from regintel.db.schema import Id, metadata

# Views of a company's public check page, added in batches by the in-process counter (service.ViewCounter).
page_views = Table(
    "page_views", metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("views", BigInteger, nullable=False),
    Column("last_viewed_at", DateTime(timezone=True), nullable=False),
)
Index("ix_page_views_views", page_views.c.views)

# Content-Security-Policy violation reports sent by browsers (POST /csp-report); bounded, oldest dropped.
csp_reports = Table(
    "csp_reports", metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("document_uri", Text),
    Column("violated_directive", Text),
    Column("blocked_uri", Text),
    Column("body", JSON, nullable=False),
    Column("size", Integer, nullable=False),
)
