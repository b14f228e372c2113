"""regulated: licences and authorisations from the supervisory registers, licensed professionals

Revision ID: 0018_regulated
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

The tables of the regulated area (src/regintel/areas/regulated/tables.py, docs/regulated.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_regulated"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _common(table: str) -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("record_key", sa.String(length=200), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("address", sa.Text(), nullable=True),
        sa.Column("city", sa.String(length=128), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.Column("record_hash", sa.String(length=64), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f(f"fk_{table}_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
        sa.UniqueConstraint("source", "record_key", name=op.f(f"uq_{table}_source_record_key")),
    ]


def upgrade() -> None:
    op.create_table(
        "regulated_authorisations",
        *_common("regulated_authorisations"),
        sa.Column("sector", sa.String(length=16), nullable=False),
        sa.Column("national_id", sa.String(length=32), nullable=True),
        sa.Column("licence_type", sa.Text(), nullable=False),
        sa.Column("licence_number", sa.String(length=200), nullable=True),
        sa.Column("category", sa.String(length=48), nullable=False),
        sa.Column("status_text", sa.String(length=128), nullable=True),
        sa.Column("granted_on", sa.Date(), nullable=True),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("ended_on", sa.Date(), nullable=True),
    )
    op.create_index(
        "ix_regulated_authorisations_company", "regulated_authorisations", ["company_id", "sector"]
    )
    op.create_table(
        "licensed_professionals",
        *_common("licensed_professionals"),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("title", sa.String(length=128), nullable=True),
        sa.Column("specialisation", sa.Text(), nullable=True),
        sa.Column("since", sa.Date(), nullable=True),
        sa.Column("firm_name", sa.Text(), nullable=True),
        sa.Column("firm_national_id", sa.String(length=32), nullable=True),
        sa.Column("phone", sa.String(length=128), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("website", sa.Text(), nullable=True),
    )
    op.create_index("ix_licensed_professionals_company", "licensed_professionals", ["company_id", "role"])


def downgrade() -> None:
    op.drop_index("ix_licensed_professionals_company", table_name="licensed_professionals")
    op.drop_table("licensed_professionals")
    op.drop_index("ix_regulated_authorisations_company", table_name="regulated_authorisations")
    op.drop_table("regulated_authorisations")
