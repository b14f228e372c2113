"""The enrich area's table (migration 0013_enrich)."""

from __future__ import annotations

from sqlalchemy import JSON, Column, ForeignKey, Integer, PrimaryKeyConstraint, String, Table

from regintel.db.schema import Id, metadata

# One answer per identifier of an enrichment job, keyed by its position in the request: a worker that
# dies mid-job and the one that takes the job over write each position once (the primary key), so a
# result is complete and never duplicated.
enrich_results = Table(
    "enrich_results",
    metadata,
    Column("job_id", Id, ForeignKey("jobs.id", ondelete="CASCADE"), nullable=False),
    Column("idx", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # found | not_found | invalid | ambiguous
    Column("body", JSON, nullable=False),
    PrimaryKeyConstraint("job_id", "idx"),
)
