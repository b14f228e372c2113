"""scores: score disputes and precomputed peer benchmarks

Revision ID: 0013_scores
Revises: 0012_jobs
Create Date: 2026-11-25 15:45:00

`score_disputes` keeps what a key filed against a score (POST /companies/{ico}/score-dispute);
`peer_benchmarks` holds the quartiles of the peer metrics per NACE class or division, country, size class
and currency, refreshed by the job `scores.refresh_peers` (docs/scores.md, "Peers").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_scores"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "score_disputes",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column(
            "api_key_id",
            Id,
            sa.ForeignKey("api_keys.id", ondelete="CASCADE", name="fk_score_disputes_api_key_id_api_keys"),
            nullable=False,
        ),
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey("companies.id", ondelete="CASCADE", name="fk_score_disputes_company_id_companies"),
            nullable=False,
        ),
        sa.Column("score_type", sa.String(16), nullable=False),
        sa.Column("model_version", sa.String(32), nullable=False),
        sa.Column("disputed_score", sa.Float()),
        sa.Column("disputed_grade", sa.String(2)),
        sa.Column("factor", sa.String(32)),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("evidence_url", sa.Text()),
        sa.Column("contact_email", sa.String(320)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_score_disputes"),
    )
    op.create_index("ix_score_disputes_api_key_id", "score_disputes", ["api_key_id", "id"])
    op.create_table(
        "peer_benchmarks",
        sa.Column("level", sa.String(8), nullable=False),
        sa.Column("nace", sa.String(8), nullable=False),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("size_class", sa.String(8), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("metric", sa.String(32), nullable=False),
        sa.Column("peer_count", sa.Integer(), nullable=False),
        sa.Column("p25", sa.Float(), nullable=False),
        sa.Column("p50", sa.Float(), nullable=False),
        sa.Column("p75", sa.Float(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint(
            "level", "nace", "country", "size_class", "currency", "metric", name="pk_peer_benchmarks"
        ),
    )


def downgrade() -> None:
    op.drop_table("peer_benchmarks")
    op.drop_index("ix_score_disputes_api_key_id", table_name="score_disputes")
    op.drop_table("score_disputes")
