"""The public-money tables (migration 0013_public_money): TED notices with their CPV codes, lots, buyers and
winners; contracts from every source, one row per (record, party); VAT payers and their published bank
accounts. Amounts are major units (Numeric) with their currency beside them."""

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


def _link_columns() -> list[Column[Any]]:
    """How a party was linked to a company (domain.public_money, "Linking rule")."""
    return [
        Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
        Column("match_method", String(16)),
        Column("match_score", Float),
    ]


ted_notices = Table(
    "ted_notices",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("notice_id", String(64), nullable=False, unique=True),
    Column("version", String(16)),
    Column("publication_number", String(32), unique=True),
    Column("form", String(64), nullable=False),
    Column("notice_type", String(32)),
    Column("subtype", String(8)),
    Column("issue_date", Date, nullable=False),
    Column("language", String(3)),
    Column("title", Text),
    Column("description", Text),
    Column("procedure", String(32)),
    Column("nature", String(16)),
    Column("cpv_main", String(8)),
    Column("country", String(2)),
    Column("estimated_value", Money),
    Column("estimated_currency", String(3)),
    Column("total_value", Money),
    Column("total_currency", String(3)),
    Column("value", Money),  # what value filters compare: the awarded total, else the estimate
    Column("currency", String(3)),
    Column("buyer_legal_type", String(32)),
    Column("source", String(32), nullable=False, server_default="ted_eforms"),  # eForms XML or the CSV
    Column("content_hash", String(32), nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
    Index("ix_ted_notices_issue_date", "issue_date", "id"),
    Index("ix_ted_notices_country_date", "country", "issue_date"),
)

ted_notice_cpv = Table(
    "ted_notice_cpv",
    metadata,
    Column("notice_pk", Id, ForeignKey("ted_notices.id", ondelete="CASCADE"), primary_key=True),
    Column("cpv", String(8), primary_key=True),
    # Migration 0030_public_money_ted_cpv_search: the notice's country and day beside each of its codes,
    # so a CPV + country + period search reads only its matches from one index (docs/public-money.md).
    Column("division", String(2)),
    Column("country", String(2)),
    Column("issue_date", Date),
    Index("ix_ted_notice_cpv_cpv", "cpv", "notice_pk"),
    Index("ix_ted_notice_cpv_search", "division", "country", "issue_date", "cpv", "notice_pk"),
)

ted_lots = Table(
    "ted_lots",
    metadata,
    Column("notice_pk", Id, ForeignKey("ted_notices.id", ondelete="CASCADE"), primary_key=True),
    Column("lot_id", String(32), primary_key=True),
    Column("title", Text),
    Column("cpv", String(8)),
    Column("estimated_value", Money),
    Column("currency", String(3)),
)

ted_buyers = Table(
    "ted_buyers",
    metadata,
    Column("notice_pk", Id, ForeignKey("ted_notices.id", ondelete="CASCADE"), primary_key=True),
    Column("org_ref", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("name_norm", Text, nullable=False),
    Column("national_id", String(64)),
    Column("country", String(2)),
    Column("city", Text),
    *_link_columns(),
    Index("ix_ted_buyers_company", "company_id"),
)

ted_winners = Table(
    "ted_winners",
    metadata,
    Column("notice_pk", Id, ForeignKey("ted_notices.id", ondelete="CASCADE"), primary_key=True),
    Column("lot_id", String(32), primary_key=True),
    Column("org_ref", String(32), primary_key=True),
    Column("name", Text, nullable=False),
    Column("name_norm", Text, nullable=False),
    Column("national_id", String(64)),
    Column("country", String(2)),
    Column("city", Text),
    Column("contract_ref", String(32)),
    Column("contract_title", Text),
    Column("signed_on", Date),
    Column("value", Money),
    Column("currency", String(3)),
    Column("group_lead", Boolean),
    *_link_columns(),
    Index("ix_ted_winners_company", "company_id"),
)

contracts = Table(
    "contracts",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("source", String(64), nullable=False),
    Column("record_key", String(64), nullable=False),  # TED notice id, Registr smluv idSmlouvy, CRZ ID
    Column("party_ref", String(80), nullable=False),  # the party inside its record
    Column("role", String(16), nullable=False),  # supplier | counterparty
    Column("party_name", Text, nullable=False),
    Column("party_national_id", String(64)),
    Column("party_country", String(2)),
    *_link_columns(),
    Column("buyer_name", Text),
    Column("buyer_national_id", String(64)),
    Column("buyer_country", String(2)),
    Column("title", Text),
    Column("value", Money),
    Column("currency", String(3)),
    Column("value_basis", String(16)),  # awarded | net | gross | foreign | total | contract
    Column("signed_on", Date),
    Column("published_on", Date),
    Column("link", Text),
    Column("record_version", String(32)),  # a record older than the stored one is not applied
    Column("record_hash", String(32), nullable=False),
    UniqueConstraint("source", "record_key", "party_ref", name="uq_contracts_party"),
    Index("ix_contracts_company", "company_id", "signed_on"),
    Index("ix_contracts_party", "party_country", "party_national_id"),
)

vat_payers = Table(
    "vat_payers",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("country", String(2), nullable=False),
    Column("vat_id", String(32), nullable=False),
    Column("national_id", String(32)),
    Column("company_id", Id, ForeignKey("companies.id", ondelete="SET NULL")),
    Column("match_method", String(16)),  # migration 0030: how the payer was linked (identifier)
    Column("match_score", Float),
    Column("status", String(16), nullable=False),
    Column("status_since", Date),
    Column("tax_office", String(16)),
    Column("name", Text),
    Column("answered_on", Date),
    Column("source", String(64), nullable=False),
    Column("record_hash", String(32), nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("country", "vat_id", name="uq_vat_payers_vat"),
    Index("ix_vat_payers_company", "company_id"),
    Index("ix_vat_payers_national", "country", "national_id"),
)

bank_accounts = Table(
    "bank_accounts",
    metadata,
    Column("id", Id, primary_key=True, autoincrement=True),
    Column("payer_id", Id, ForeignKey("vat_payers.id", ondelete="CASCADE"), nullable=False),
    Column("iban", String(34)),
    Column("account", String(64), nullable=False),  # as the register publishes it
    Column("published_from", Date),
    Column("published_until", Date),
    Index("ix_bank_accounts_iban", "iban"),
    Index("ix_bank_accounts_payer", "payer_id"),
)
