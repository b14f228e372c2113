"""The nis2 area's tables (migration 0013_nis2)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Index, String, Table, Text, UniqueConstraint

from regintel.db.schema import Id, metadata

# Regulated-activity designations a register or an authority publishes (a qualified trust service
# provider on the EU trusted list, a TLD registry, a public electronic communications provider, a
# critical entity, an entity a Member State identified, a public administration entity and its level),
# loaded from a CSV by `regintel.areas.nis2.designations` with the source of each row.
nis2_designations = Table(
    "nis2_designations",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("kind", String(48), nullable=False),
    Column("source", String(64), nullable=False),
    Column("reference", Text),
    Column("loaded_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("company_id", "kind", "source"),
)
Index("ix_nis2_designations_company_id", nis2_designations.c.company_id)

# Each company's scoping as last computed (by a sweep or the job `nis2.refresh`), for the advanced-search
# filter `nis2_scope` and per-country counts; the rule-set version says which rules produced it.
nis2_assessments = Table(
    "nis2_assessments",
    metadata,
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
    Column("country", String(2), nullable=False),
    Column("category", String(16), nullable=False),
    Column("certainty", String(8), nullable=False),
    Column("ruleset_version", String(32), nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
)
Index("ix_nis2_assessments_category", nis2_assessments.c.category, nis2_assessments.c.country)
