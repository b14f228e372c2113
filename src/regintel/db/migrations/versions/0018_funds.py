"""funds: EU cohesion projects, Financial Transparency System, Czech subsidies, State aid awards; CORDIS
projects and participations

Revision ID: 0018_funds
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

The tables of the funds area (src/regintel/areas/funds/tables.py, docs/funds.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_funds"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TABLES = ("cordis_participants", "cordis_projects", "fund_awards")


def upgrade() -> None:
    op.create_table(
        "cordis_projects",
        sa.Column("project_id", sa.String(length=16), nullable=False),
        sa.Column("acronym", sa.Text(), nullable=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=True),
        sa.Column("framework", sa.String(length=16), nullable=False),
        sa.Column("funding_scheme", sa.String(length=64), nullable=True),
        sa.Column("legal_basis", sa.String(length=64), nullable=True),
        sa.Column("start_on", sa.Date(), nullable=True),
        sa.Column("end_on", sa.Date(), nullable=True),
        sa.Column("signed_on", sa.Date(), nullable=True),
        sa.Column("total_cost", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("ec_max_contribution", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run_id", Id, nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("project_id", name=op.f("pk_cordis_projects")),
    )
    op.create_table(
        "cordis_participants",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("project_id", sa.String(length=16), nullable=False),
        sa.Column("organisation_id", sa.String(length=16), nullable=False),
        sa.Column("beneficiary_name", sa.Text(), nullable=False),
        sa.Column("beneficiary_national_id", sa.String(length=64), nullable=True),
        sa.Column("beneficiary_vat", sa.String(length=32), nullable=True),
        sa.Column("beneficiary_country", sa.String(length=2), nullable=True),
        sa.Column("beneficiary_city", sa.Text(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.Column("role", sa.String(length=24), nullable=False),
        sa.Column("sme", sa.Boolean(), nullable=True),
        sa.Column("activity_type", sa.String(length=8), nullable=True),
        sa.Column("ec_contribution", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("net_ec_contribution", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("total_cost", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("ended", sa.Boolean(), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run_id", Id, nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_cordis_participants_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_cordis_participants")),
        sa.UniqueConstraint("project_id", "organisation_id", name="uq_cordis_participants_org"),
    )
    op.create_index(
        "ix_cordis_participants_company", "cordis_participants", ["company_id", "id"], unique=False
    )
    op.create_table(
        "fund_awards",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_key", sa.String(length=128), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("beneficiary_name", sa.Text(), nullable=False),
        sa.Column("beneficiary_national_id", sa.String(length=64), nullable=True),
        sa.Column("beneficiary_vat", sa.String(length=32), nullable=True),
        sa.Column("beneficiary_country", sa.String(length=2), nullable=True),
        sa.Column("beneficiary_city", sa.Text(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("programme", sa.Text(), nullable=True),
        sa.Column("fund", sa.Text(), nullable=True),
        sa.Column("granting_body", sa.Text(), nullable=True),
        sa.Column("measure", sa.String(length=32), nullable=True),
        sa.Column("measure_type", sa.String(length=16), nullable=True),
        sa.Column("objective", sa.Text(), nullable=True),
        sa.Column("region", sa.Text(), nullable=True),
        sa.Column("nace", sa.String(length=16), nullable=True),
        sa.Column("amount", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("eu_amount", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("aid_element", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("granted_on", sa.Date(), nullable=True),
        sa.Column("start_on", sa.Date(), nullable=True),
        sa.Column("end_on", sa.Date(), nullable=True),
        sa.Column("link", sa.Text(), nullable=True),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run_id", Id, nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_fund_awards_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fund_awards")),
        sa.UniqueConstraint("source", "record_key", name="uq_fund_awards_record"),
    )
    op.create_index("ix_fund_awards_company", "fund_awards", ["company_id", "kind", "id"], unique=False)


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
