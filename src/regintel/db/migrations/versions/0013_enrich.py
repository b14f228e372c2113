"""enrich: the answers of enrichment jobs

Revision ID: 0013_enrich
Revises: 0012_jobs
Create Date: 2026-11-25 15:40:00

`enrich_results` holds one answer per identifier of an enrichment job (`POST /api/v1/enrich/jobs`),
keyed by (job, position), so a job taken over after a worker died never writes a position twice
(docs/enrich.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_enrich"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "enrich_results",
        sa.Column(
            "job_id",
            Id,
            sa.ForeignKey("jobs.id", ondelete="CASCADE", name="fk_enrich_results_job_id_jobs"),
            nullable=False,
        ),
        sa.Column("idx", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("job_id", "idx", name="pk_enrich_results"),
    )


def downgrade() -> None:
    op.drop_table("enrich_results")
