"""The legal-records tables (migration 0018_legal_records): Slovak court decisions and the legal
persons they name, Slovak antitrust (PMÚ) cases and their parties, Slovak integrated permits (IPKZ)
installations, and Czech collection-of-laws (e-Sbírka) acts with the companies they name. Every party
row keeps how it was linked to a company (`match_method`, `match_score`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
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


def _link_columns() -> list[Column[Any]]:
    return [
        Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
        Column("match_method", String(16)),
        Column("match_score", Float),
    ]


def _provenance() -> list[Column[Any]]:
    return [
        Column("source", String(64), nullable=False),
        Column("record_hash", String(32), nullable=False),
        Column("import_run", Integer),
        Column("imported_at", DateTime(timezone=True), nullable=False),
    ]


court_decisions = Table(
    "court_decisions",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("guid", String(64), nullable=False, unique=True),
    Column("court_id", String(64)),
    Column("court_name", Text, nullable=False),
    Column("court_norm", Text, nullable=False),
    Column("judge", Text),
    Column("file_ref", String(64)),
    Column("identifier", String(32)),
    Column("ecli", String(80)),
    Column("decided_on", Date),
    Column("form", String(64)),
    Column("nature", String(64)),
    Column("area", String(128)),
    Column("subarea", String(128)),
    Column("regulations", JSON, nullable=False),
    Column("document_url", Text),
    Column("search_text", Text, nullable=False),  # normalised court, file ref, ECLI, area, parties (`q`)
    *_provenance(),
    Index("ix_court_decisions_date", "decided_on", "id"),
    Index("ix_court_decisions_court", "court_id", "decided_on"),
)

court_decision_parties = Table(
    "court_decision_parties",
    metadata,
    Column("decision_pk", Id, ForeignKey("court_decisions.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("national_id", String(32)),
    Column("country", String(2)),
    Column("role", String(64)),
    *_link_columns(),
    Index("ix_court_decision_parties_company", "company_id", "decision_pk"),
    Index("ix_court_decision_parties_national", "national_id", "decision_pk"),
)

antitrust_cases = Table(
    "antitrust_cases",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("case_ref", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("title", Text),
    Column("decided_on", Date),
    Column("final_on", Date),
    Column("verdict", Text),
    Column("fine", Numeric(20, 2)),
    Column("currency", String(3)),
    Column("link", Text),
    Column("rulings", JSON, nullable=False),
    *_provenance(),
    UniqueConstraint("source", "case_ref", name="uq_antitrust_cases_ref"),
    Index("ix_antitrust_cases_date", "decided_on", "id"),
)

antitrust_parties = Table(
    "antitrust_parties",
    metadata,
    Column("case_pk", Id, ForeignKey("antitrust_cases.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("national_id", String(32)),
    Column("country", String(2)),
    Column("role", String(64)),
    Column("address", Text),
    *_link_columns(),
    Index("ix_antitrust_parties_company", "company_id", "case_pk"),
    Index("ix_antitrust_parties_national", "country", "national_id"),
)

ipkz_installations = Table(
    "ipkz_installations",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("installation_id", String(64), nullable=False),
    Column("name", Text, nullable=False),
    Column("operator_name", Text, nullable=False),
    Column("operator_national_id", String(32)),
    Column("operator_address", Text),
    Column("address", Text),
    Column("municipality", Text),
    Column("activity_code", String(32)),
    Column("activity", Text),
    Column("latitude", Float),
    Column("longitude", Float),
    Column("inspections", Integer, nullable=False),
    Column("inspections_with_findings", Integer, nullable=False),
    Column("last_inspection_on", Date),
    Column("link", Text),
    Column("permits", JSON, nullable=False),
    *_link_columns(),
    *_provenance(),
    UniqueConstraint("source", "installation_id", name="uq_ipkz_installations_id"),
    Index("ix_ipkz_installations_company", "company_id", "id"),
    Index("ix_ipkz_installations_operator", "operator_national_id"),
)

sbirka_acts = Table(
    "sbirka_acts",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("iri", String(255), nullable=False, unique=True),
    Column("number", Integer, nullable=False),
    Column("year", Integer, nullable=False),
    Column("act_type", String(64)),
    Column("title", Text, nullable=False),
    Column("promulgated_on", Date),
    Column("effective_on", Date),
    Column("link", Text, nullable=False),
    *_provenance(),
)

sbirka_mentions = Table(
    "sbirka_mentions",
    metadata,
    Column("act_pk", Id, ForeignKey("sbirka_acts.id", ondelete="CASCADE"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("national_id", String(32)),
    Column("excerpt", Text),
    *_link_columns(),
    Index("ix_sbirka_mentions_company", "company_id", "act_pk"),
    Index("ix_sbirka_mentions_national", "national_id"),
)

TABLES = (
    court_decisions,
    court_decision_parties,
    antitrust_cases,
    antitrust_parties,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)
