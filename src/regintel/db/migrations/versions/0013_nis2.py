"""nis2: regulated-activity designations and precomputed NIS2 scoping

Revision ID: 0013_nis2
Revises: 0012_jobs
Create Date: 2026-11-25 15:50:00

`nis2_designations` records the size-independent cases of Directive (EU) 2022/2555 from registers
(trust services, TLD registries, DNS, public electronic communications, public administration, critical
entities); `nis2_assessments` keeps each company's last computed category for the `nis2_scope` filter
(docs/nis2.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_nis2"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "nis2_designations",
        sa.Column("id", Id, autoincrement=True),
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey(
                "companies.id", ondelete="CASCADE", name="fk_nis2_designations_company_id_companies"
            ),
            nullable=False,
        ),
        sa.Column("kind", sa.String(48), nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("reference", sa.Text()),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_nis2_designations"),
        sa.UniqueConstraint(
            "company_id", "kind", "source", name="uq_nis2_designations_company_id_kind_source"
        ),
    )
    op.create_index("ix_nis2_designations_company_id", "nis2_designations", ["company_id"])
    op.create_table(
        "nis2_assessments",
        sa.Column(
            "company_id",
            Id,
            sa.ForeignKey(
                "companies.id", ondelete="CASCADE", name="fk_nis2_assessments_company_id_companies"
            ),
            nullable=False,
        ),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("certainty", sa.String(8), nullable=False),
        sa.Column("ruleset_version", sa.String(32), nullable=False),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("company_id", name="pk_nis2_assessments"),
    )
    op.create_index("ix_nis2_assessments_category", "nis2_assessments", ["category", "country"])


def downgrade() -> None:
    op.drop_index("ix_nis2_assessments_category", table_name="nis2_assessments")
    op.drop_table("nis2_assessments")
    op.drop_index("ix_nis2_designations_company_id", table_name="nis2_designations")
    op.drop_table("nis2_designations")
