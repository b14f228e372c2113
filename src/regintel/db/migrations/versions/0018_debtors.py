"""debtors: entries of published debtor lists (social insurance, health insurers, tax administration)

Revision ID: 0018_debtors
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

`debtor_entries` holds each entry of an imported debtor list with its creditor, amount, the list dates
and the company it was matched to (docs/compliance.md, "Debtor lists").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_debtors"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "debtor_entries",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("creditor", sa.String(64), nullable=False),
        sa.Column("record_key", sa.String(64), nullable=False),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("national_id", sa.String(32)),
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey("companies.id", ondelete="SET NULL", name="fk_debtor_entries_company_id_companies"),
        ),
        sa.Column("match", sa.String(16), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("address", sa.Text()),
        sa.Column("amount", sa.Numeric(20, 2)),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("listed_on", sa.Date(), nullable=False),
        sa.Column("last_listed_on", sa.Date(), nullable=False),
        sa.Column("delisted_on", sa.Date()),
        sa.Column("run_id", Id),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_debtor_entries"),
        sa.UniqueConstraint("source", "creditor", "record_key", name="uq_debtor_entries_key"),
    )
    op.create_index("ix_debtor_entries_company_id", "debtor_entries", ["company_id", "delisted_on"])
    op.create_index("ix_debtor_entries_source", "debtor_entries", ["source", "last_listed_on"])


def downgrade() -> None:
    op.drop_index("ix_debtor_entries_source", table_name="debtor_entries")
    op.drop_index("ix_debtor_entries_company_id", table_name="debtor_entries")
    op.drop_table("debtor_entries")
