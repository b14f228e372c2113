"""pages: stored renders (social PNGs by the digest of their SVG, sitemap pages per data version)

Revision ID: 0025_pages_renders
Revises: 0019_pages_contract_totals
Create Date: 2026-12-01 22:50:00

A PNG takes resvg about 0.2 s of CPU and a sitemap page of 50,000 URLs several hundred ms; both are rendered
once and read back from `page_renders` (docs/pages.md, "Stored renders").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025_pages_renders"
down_revision = "0019_pages_contract_totals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "page_renders",
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("version", sa.String(200), nullable=True),
        sa.Column("body", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_page_renders"),
    )
    op.create_index("ix_page_renders_computed_at", "page_renders", ["computed_at"])


def downgrade() -> None:
    op.drop_index("ix_page_renders_computed_at", table_name="page_renders")
    op.drop_table("page_renders")
