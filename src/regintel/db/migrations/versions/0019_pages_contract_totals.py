"""pages: public-contract value per supplier company and currency

Revision ID: 0019_pages_contract_totals
Revises: 0013_pages
Create Date: 2026-12-01 19:30:00

`contract_totals` is filled by the job `pages.contract-totals` from the public_money area's contracts, so the
`public-contracts` ranking reads an index instead of aggregating every contract per request (docs/pages.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_pages_contract_totals"
down_revision = "0013_pages"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "contract_totals",
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey("companies.id", ondelete="CASCADE", name="fk_contract_totals_company_id_companies"),
            nullable=False,
        ),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("total", sa.Numeric(20, 2), nullable=False),
        sa.Column("contracts", sa.Integer(), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("company_id", "currency", name="pk_contract_totals"),
    )
    op.create_index("ix_contract_totals_rank", "contract_totals", ["currency", "total"])


def downgrade() -> None:
    op.drop_index("ix_contract_totals_rank", table_name="contract_totals")
    op.drop_table("contract_totals")
