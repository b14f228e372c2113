"""stats snapshots: the statistics endpoints' whole-database aggregates, precomputed per data version

Revision ID: 0007_stats_snapshots
Revises: 0001
Create Date: 2026-11-25 01:45:00

At 10 million companies a cold aggregate takes 0.8-7.8 s (docs/performance.md); the in-process
result cache forgot it on every restart, in every new worker process and after every data change.
One row per aggregate (with its default parameters) holds the JSON answer and the data version it
was computed for; `regintel stats refresh`, the end of imports and the worker keep it current.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_stats_snapshots"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stats_snapshots",
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("data_version", sa.Text(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_stats_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("stats_snapshots")
