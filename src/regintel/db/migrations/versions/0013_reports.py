"""reports: stored company and due-diligence reports

Revision ID: 0013_reports
Revises: 0012_jobs
Create Date: 2026-11-25 16:20:00

`reports` holds one report asked for by an API key (`POST /companies/{cc}/{national_id}/report`,
`POST /companies/{ico}/report/ai-dd`), rendered by the worker; the document is kept in the row
(docs/reports.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_reports"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey("companies.id", ondelete="CASCADE", name="fk_reports_company_id_companies"),
            nullable=False,
        ),
        sa.Column("key_id", Id, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("job_id", Id),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("media_type", sa.String(64)),
        sa.Column("size_bytes", sa.Integer()),
        sa.Column("content", sa.LargeBinary()),
        sa.Column("narrative", sa.JSON()),
        sa.Column("error", sa.Text()),
        sa.PrimaryKeyConstraint("id", name="pk_reports"),
    )
    op.create_index("ix_reports_key_id", "reports", ["key_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_reports_key_id", table_name="reports")
    op.drop_table("reports")
