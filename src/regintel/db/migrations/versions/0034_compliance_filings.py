"""compliance: statements filed in a register of filed documents (RÚZ), for `/annual-reports`

Revision ID: 0034_compliance_filings
Revises: 0018_debtors

`filed_statements` holds each filed statement with its period, type, dates and the ids of the reports
filed in it (docs/compliance.md, "Filed documents").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0034_compliance_filings"
down_revision = "0018_debtors"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "filed_statements",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("statement_id", sa.String(32), nullable=False),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("national_id", sa.String(32)),
        sa.Column("unit_id", sa.String(32)),
        sa.Column("name", sa.Text()),
        sa.Column("period_from", sa.String(7)),
        sa.Column("period_to", sa.String(7), nullable=False),
        sa.Column("compiled_on", sa.Date()),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("consolidated", sa.Boolean()),
        sa.Column("data_source", sa.String(32)),
        sa.Column("updated_on", sa.Date()),
        sa.Column("report_ids", sa.JSON(), nullable=False),
        sa.Column("annual_report_ids", sa.JSON(), nullable=False),
        sa.Column("run_id", Id),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_filed_statements"),
        sa.UniqueConstraint("source", "statement_id", name="uq_filed_statements_key"),
    )
    op.create_index(
        "ix_filed_statements_company", "filed_statements", ["country", "national_id", "period_to"]
    )
    op.create_index("ix_filed_statements_unit", "filed_statements", ["unit_id"])


def downgrade() -> None:
    op.drop_index("ix_filed_statements_unit", table_name="filed_statements")
    op.drop_index("ix_filed_statements_company", table_name="filed_statements")
    op.drop_table("filed_statements")
