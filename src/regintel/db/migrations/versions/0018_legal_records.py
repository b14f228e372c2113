"""legal_records: Slovak court decisions, antitrust (PMÚ) cases, integrated permits (IPKZ), Czech
collection-of-laws acts, each with the parties they name and how those were linked to companies

Revision ID: 0018_legal_records
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

The tables of the legal-records area (src/regintel/areas/legal_records/tables.py, docs/legal-records.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_legal_records"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

TABLES = (
    "sbirka_mentions",
    "ipkz_installations",
    "court_decision_parties",
    "antitrust_parties",
    "sbirka_acts",
    "court_decisions",
    "antitrust_cases",
)


def upgrade() -> None:
    op.create_table(
        "antitrust_cases",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("case_ref", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("decided_on", sa.Date(), nullable=True),
        sa.Column("final_on", sa.Date(), nullable=True),
        sa.Column("verdict", sa.Text(), nullable=True),
        sa.Column("fine", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("link", sa.Text(), nullable=True),
        sa.Column("rulings", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_antitrust_cases")),
        sa.UniqueConstraint("source", "case_ref", name="uq_antitrust_cases_ref"),
    )
    op.create_index("ix_antitrust_cases_date", "antitrust_cases", ["decided_on", "id"], unique=False)
    op.create_table(
        "court_decisions",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("guid", sa.String(length=64), nullable=False),
        sa.Column("court_id", sa.String(length=64), nullable=True),
        sa.Column("court_name", sa.Text(), nullable=False),
        sa.Column("court_norm", sa.Text(), nullable=False),
        sa.Column("judge", sa.Text(), nullable=True),
        sa.Column("file_ref", sa.String(length=64), nullable=True),
        sa.Column("identifier", sa.String(length=32), nullable=True),
        sa.Column("ecli", sa.String(length=80), nullable=True),
        sa.Column("decided_on", sa.Date(), nullable=True),
        sa.Column("form", sa.String(length=64), nullable=True),
        sa.Column("nature", sa.String(length=64), nullable=True),
        sa.Column("area", sa.String(length=128), nullable=True),
        sa.Column("subarea", sa.String(length=128), nullable=True),
        sa.Column("regulations", sa.JSON(), nullable=False),
        sa.Column("document_url", sa.Text(), nullable=True),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_court_decisions")),
        sa.UniqueConstraint("guid", name=op.f("uq_court_decisions_guid")),
    )
    op.create_index("ix_court_decisions_court", "court_decisions", ["court_id", "decided_on"], unique=False)
    op.create_index("ix_court_decisions_date", "court_decisions", ["decided_on", "id"], unique=False)
    op.create_table(
        "sbirka_acts",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("iri", sa.String(length=255), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("act_type", sa.String(length=64), nullable=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("promulgated_on", sa.Date(), nullable=True),
        sa.Column("effective_on", sa.Date(), nullable=True),
        sa.Column("link", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sbirka_acts")),
        sa.UniqueConstraint("iri", name=op.f("uq_sbirka_acts_iri")),
    )
    op.create_table(
        "antitrust_parties",
        sa.Column("case_pk", Id, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("national_id", sa.String(length=32), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("role", sa.String(length=64), nullable=True),
        sa.Column("address", sa.Text(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["case_pk"],
            ["antitrust_cases.id"],
            name=op.f("fk_antitrust_parties_case_pk_antitrust_cases"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_antitrust_parties_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("case_pk", "position", name=op.f("pk_antitrust_parties")),
    )
    op.create_index(
        "ix_antitrust_parties_company", "antitrust_parties", ["company_id", "case_pk"], unique=False
    )
    op.create_index(
        "ix_antitrust_parties_national", "antitrust_parties", ["country", "national_id"], unique=False
    )
    op.create_table(
        "court_decision_parties",
        sa.Column("decision_pk", Id, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("national_id", sa.String(length=32), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("role", sa.String(length=64), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_court_decision_parties_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["decision_pk"],
            ["court_decisions.id"],
            name=op.f("fk_court_decision_parties_decision_pk_court_decisions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("decision_pk", "position", name=op.f("pk_court_decision_parties")),
    )
    op.create_index(
        "ix_court_decision_parties_company",
        "court_decision_parties",
        ["company_id", "decision_pk"],
        unique=False,
    )
    op.create_index(
        "ix_court_decision_parties_national",
        "court_decision_parties",
        ["national_id", "decision_pk"],
        unique=False,
    )
    op.create_table(
        "ipkz_installations",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("installation_id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("operator_name", sa.Text(), nullable=False),
        sa.Column("operator_national_id", sa.String(length=32), nullable=True),
        sa.Column("operator_address", sa.Text(), nullable=True),
        sa.Column("address", sa.Text(), nullable=True),
        sa.Column("municipality", sa.Text(), nullable=True),
        sa.Column("activity_code", sa.String(length=32), nullable=True),
        sa.Column("activity", sa.Text(), nullable=True),
        sa.Column("latitude", sa.Float(), nullable=True),
        sa.Column("longitude", sa.Float(), nullable=True),
        sa.Column("inspections", sa.Integer(), nullable=False),
        sa.Column("inspections_with_findings", sa.Integer(), nullable=False),
        sa.Column("last_inspection_on", sa.Date(), nullable=True),
        sa.Column("link", sa.Text(), nullable=True),
        sa.Column("permits", sa.JSON(), nullable=False),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("import_run", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_ipkz_installations_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ipkz_installations")),
        sa.UniqueConstraint("source", "installation_id", name="uq_ipkz_installations_id"),
    )
    op.create_index("ix_ipkz_installations_company", "ipkz_installations", ["company_id", "id"], unique=False)
    op.create_index(
        "ix_ipkz_installations_operator", "ipkz_installations", ["operator_national_id"], unique=False
    )
    op.create_table(
        "sbirka_mentions",
        sa.Column("act_pk", Id, nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("national_id", sa.String(length=32), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["act_pk"],
            ["sbirka_acts.id"],
            name=op.f("fk_sbirka_mentions_act_pk_sbirka_acts"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_sbirka_mentions_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("act_pk", "position", name=op.f("pk_sbirka_mentions")),
    )
    op.create_index("ix_sbirka_mentions_company", "sbirka_mentions", ["company_id", "act_pk"], unique=False)
    op.create_index("ix_sbirka_mentions_national", "sbirka_mentions", ["national_id"], unique=False)


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
