"""jobs: work that follows a change, queued in the change's transaction and run by the worker

Revision ID: 0012_jobs
Revises: 0011_counted_founded
Create Date: 2026-11-25 15:40:00

Search index updates, statistics refreshes, scores and enrichment used to be done inside requests or
by whichever command made the change; a row here gives each its owner (`regintel worker`). A partial
unique index keeps a queued job with a `dedupe_key` from being queued twice.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_jobs"
down_revision = "0011_counted_founded"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("dedupe_key", sa.String(200)),
        sa.Column("owner_key_id", sa.Integer()),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("max_attempts", sa.Integer(), nullable=False),
        sa.Column("run_after", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True)),
        sa.Column("worker_id", sa.String(64)),
        sa.Column("last_error", sa.Text()),
        sa.Column("result", sa.JSON()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True)),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_jobs")),
    )
    op.create_index("ix_jobs_due", "jobs", ["status", "priority", "run_after"])
    op.create_index(
        "uq_jobs_queued_dedupe",
        "jobs",
        ["dedupe_key"],
        unique=True,
        sqlite_where=sa.text("status = 'queued'"),
        postgresql_where=sa.text("status = 'queued'"),
    )


def downgrade() -> None:
    op.drop_table("jobs")
