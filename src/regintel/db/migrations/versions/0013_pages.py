"""pages: view counts of public check pages and stored CSP reports

Revision ID: 0013_pages
Revises: 0012_jobs
Create Date: 2026-11-25 16:20:00

`page_views` holds per-company view counts, written in batches by the in-process counter of the pages area;
`csp_reports` keeps the newest Content-Security-Policy violation reports (bounded; docs/pages.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_pages"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "page_views",
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey("companies.id", ondelete="CASCADE", name="fk_page_views_company_id_companies"),
            nullable=False,
        ),
        sa.Column("views", sa.BigInteger(), nullable=False),
        sa.Column("last_viewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("company_id", name="pk_page_views"),
    )
    op.create_index("ix_page_views_views", "page_views", ["views"])
    op.create_table(
        "csp_reports",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("document_uri", sa.Text()),
        sa.Column("violated_directive", sa.Text()),
        sa.Column("blocked_uri", sa.Text()),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_csp_reports"),
    )


def downgrade() -> None:
    op.drop_table("csp_reports")
    op.drop_index("ix_page_views_views", table_name="page_views")
    op.drop_table("page_views")
