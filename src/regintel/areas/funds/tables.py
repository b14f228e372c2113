"""The funds tables (migration 0018_funds): awards of every non-research source (EU cohesion projects,
the Financial Transparency System, Czech subsidies, State aid), one row per (record, beneficiary); CORDIS
projects and their participations. Amounts are major units (Numeric) with their currency beside them;
every row keeps the import run that last wrote it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    Numeric,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from regintel.db.schema import metadata

Id = BigInteger().with_variant(Integer(), "sqlite")
Money = Numeric(20, 2)


def _beneficiary_columns() -> list[Column[Any]]:
    """Who the publisher names, and how (and whether) that was linked to a company (docs/funds.md)."""
    return [
        Column("beneficiary_name", Text, nullable=False),
        Column("beneficiary_national_id", String(64)),
        Column("beneficiary_vat", String(32)),
        Column("beneficiary_country", String(2)),
        Column("beneficiary_city", Text),
        Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
        Column("match_method", String(16)),
        Column("match_score", Float),
    ]


def _provenance_columns() -> list[Column[Any]]:
    return [
        Column("record_hash", String(32), nullable=False),
        Column("import_run_id", Id, nullable=False),
        Column("imported_at", DateTime(timezone=True), nullable=False),
    ]


fund_awards = Table(
    "fund_awards",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(64), nullable=False),
    Column("record_key", String(128), nullable=False),
    Column("kind", String(16), nullable=False),  # eu_project | cz_subsidy | state_aid
    *_beneficiary_columns(),
    Column("title", Text),
    Column("programme", Text),
    Column("fund", Text),
    Column("granting_body", Text),
    Column("measure", String(32)),
    Column("measure_type", String(16)),
    Column("objective", Text),
    Column("region", Text),
    Column("nace", String(16)),
    Column("amount", Money),
    Column("eu_amount", Money),
    Column("aid_element", Money),
    Column("currency", String(3), nullable=False),
    Column("year", Integer),
    Column("granted_on", Date),
    Column("start_on", Date),
    Column("end_on", Date),
    Column("link", Text),
    *_provenance_columns(),
    UniqueConstraint("source", "record_key", name="uq_fund_awards_record"),
    Index("ix_fund_awards_company", "company_id", "kind", "id"),
)

cordis_projects = Table(
    "cordis_projects",
    metadata,
    Column("project_id", String(16), primary_key=True),
    Column("acronym", Text),
    Column("title", Text, nullable=False),
    Column("status", String(16)),
    Column("framework", String(16), nullable=False),
    Column("funding_scheme", String(64)),
    Column("legal_basis", String(64)),
    Column("start_on", Date),
    Column("end_on", Date),
    Column("signed_on", Date),
    Column("total_cost", Money),
    Column("ec_max_contribution", Money),
    *_provenance_columns(),
)

cordis_participants = Table(
    "cordis_participants",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("project_id", String(16), nullable=False),  # no foreign key: either file may come first
    Column("organisation_id", String(16), nullable=False),
    *_beneficiary_columns(),
    Column("role", String(24), nullable=False),
    Column("sme", Boolean),
    Column("activity_type", String(8)),
    Column("ec_contribution", Money),
    Column("net_ec_contribution", Money),
    Column("total_cost", Money),
    Column("ended", Boolean, nullable=False),
    *_provenance_columns(),
    UniqueConstraint("project_id", "organisation_id", name="uq_cordis_participants_org"),
    Index("ix_cordis_participants_company", "company_id", "id"),
)
