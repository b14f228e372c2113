"""The scores area's tables (migration 0013_scores)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, Float, ForeignKey, Index, Integer, String, Table, Text

from regintel.db.schema import Id, metadata

# A key's dispute of a score: stored as filed, with the model version and the score it disputes.
score_disputes = Table(
    "score_disputes",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("api_key_id", Id, ForeignKey("api_keys.id", ondelete="CASCADE"), nullable=False),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
    Column("score_type", String(16), nullable=False),  # credit | risk
    Column("model_version", String(32), nullable=False),
    Column("disputed_score", Float),
    Column("disputed_grade", String(2)),
    Column("factor", String(32)),
    Column("reason", Text, nullable=False),
    Column("evidence_url", Text),
    Column("contact_email", String(320)),
    Column("status", String(16), nullable=False),  # received
    Column("created_at", DateTime(timezone=True), nullable=False),
)
Index("ix_score_disputes_api_key_id", score_disputes.c.api_key_id, score_disputes.c.id)

# Quartiles of the peer metrics per (NACE class or division, country, EU size class, currency), as the
# job `scores.refresh_peers` last computed them from `latest_financials` of active companies.
peer_benchmarks = Table(
    "peer_benchmarks",
    metadata,
    Column("level", String(8), primary_key=True),  # class (4 digits) | division (2 digits)
    Column("nace", String(8), primary_key=True),
    Column("country", String(2), primary_key=True),
    Column("size_class", String(8), primary_key=True),
    Column("currency", String(3), primary_key=True),
    Column("metric", String(32), primary_key=True),
    Column("peer_count", Integer, nullable=False),
    Column("p25", Float, nullable=False),
    Column("p50", Float, nullable=False),
    Column("p75", Float, nullable=False),
    Column("computed_at", DateTime(timezone=True), nullable=False),
)
