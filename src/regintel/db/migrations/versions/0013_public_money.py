"""public_money: TED notices (CPV codes, lots, buyers, winners), contracts, VAT payers and bank accounts

Revision ID: 0013_public_money
Revises: 0012_jobs
Create Date: 2026-11-25 15:50:00

The tables of the public-money area (src/regintel/areas/public_money/tables.py, docs/public-money.md).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_public_money"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TABLES = (
    "bank_accounts",
    "vat_payers",
    "contracts",
    "ted_winners",
    "ted_buyers",
    "ted_lots",
    "ted_notice_cpv",
    "ted_notices",
)


def upgrade() -> None:
    op.create_table(
        "ted_notices",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("notice_id", sa.String(length=64), nullable=False),
        sa.Column("version", sa.String(length=16), nullable=True),
        sa.Column("publication_number", sa.String(length=32), nullable=True),
        sa.Column("form", sa.String(length=64), nullable=False),
        sa.Column("notice_type", sa.String(length=32), nullable=True),
        sa.Column("subtype", sa.String(length=8), nullable=True),
        sa.Column("issue_date", sa.Date(), nullable=False),
        sa.Column("language", sa.String(length=3), nullable=True),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("procedure", sa.String(length=32), nullable=True),
        sa.Column("nature", sa.String(length=16), nullable=True),
        sa.Column("cpv_main", sa.String(length=8), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("estimated_value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("estimated_currency", sa.String(length=3), nullable=True),
        sa.Column("total_value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("total_currency", sa.String(length=3), nullable=True),
        sa.Column("value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("buyer_legal_type", sa.String(length=32), nullable=True),
        sa.Column("content_hash", sa.String(length=32), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ted_notices")),
        sa.UniqueConstraint("notice_id", name=op.f("uq_ted_notices_notice_id")),
        sa.UniqueConstraint("publication_number", name=op.f("uq_ted_notices_publication_number")),
    )
    op.create_index("ix_ted_notices_country_date", "ted_notices", ["country", "issue_date"], unique=False)
    op.create_index("ix_ted_notices_issue_date", "ted_notices", ["issue_date", "id"], unique=False)
    op.create_table(
        "ted_notice_cpv",
        sa.Column("notice_pk", Id, nullable=False),
        sa.Column("cpv", sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(
            ["notice_pk"],
            ["ted_notices.id"],
            name=op.f("fk_ted_notice_cpv_notice_pk_ted_notices"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("notice_pk", "cpv", name=op.f("pk_ted_notice_cpv")),
    )
    op.create_index("ix_ted_notice_cpv_cpv", "ted_notice_cpv", ["cpv", "notice_pk"], unique=False)
    op.create_table(
        "ted_lots",
        sa.Column("notice_pk", Id, nullable=False),
        sa.Column("lot_id", sa.String(length=32), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("cpv", sa.String(length=8), nullable=True),
        sa.Column("estimated_value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.ForeignKeyConstraint(
            ["notice_pk"],
            ["ted_notices.id"],
            name=op.f("fk_ted_lots_notice_pk_ted_notices"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("notice_pk", "lot_id", name=op.f("pk_ted_lots")),
    )
    op.create_table(
        "ted_buyers",
        sa.Column("notice_pk", Id, nullable=False),
        sa.Column("org_ref", sa.String(length=32), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_norm", sa.Text(), nullable=False),
        sa.Column("national_id", sa.String(length=64), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("city", sa.Text(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_ted_buyers_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["notice_pk"],
            ["ted_notices.id"],
            name=op.f("fk_ted_buyers_notice_pk_ted_notices"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("notice_pk", "org_ref", name=op.f("pk_ted_buyers")),
    )
    op.create_index("ix_ted_buyers_company", "ted_buyers", ["company_id"], unique=False)
    op.create_table(
        "ted_winners",
        sa.Column("notice_pk", Id, nullable=False),
        sa.Column("lot_id", sa.String(length=32), nullable=False),
        sa.Column("org_ref", sa.String(length=32), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_norm", sa.Text(), nullable=False),
        sa.Column("national_id", sa.String(length=64), nullable=True),
        sa.Column("country", sa.String(length=2), nullable=True),
        sa.Column("city", sa.Text(), nullable=True),
        sa.Column("contract_ref", sa.String(length=32), nullable=True),
        sa.Column("contract_title", sa.Text(), nullable=True),
        sa.Column("signed_on", sa.Date(), nullable=True),
        sa.Column("value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("group_lead", sa.Boolean(), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_ted_winners_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["notice_pk"],
            ["ted_notices.id"],
            name=op.f("fk_ted_winners_notice_pk_ted_notices"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("notice_pk", "lot_id", "org_ref", name=op.f("pk_ted_winners")),
    )
    op.create_index("ix_ted_winners_company", "ted_winners", ["company_id"], unique=False)
    op.create_table(
        "contracts",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_key", sa.String(length=64), nullable=False),
        sa.Column("party_ref", sa.String(length=80), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("party_name", sa.Text(), nullable=False),
        sa.Column("party_national_id", sa.String(length=64), nullable=True),
        sa.Column("party_country", sa.String(length=2), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("match_method", sa.String(length=16), nullable=True),
        sa.Column("match_score", sa.Float(), nullable=True),
        sa.Column("buyer_name", sa.Text(), nullable=True),
        sa.Column("buyer_national_id", sa.String(length=64), nullable=True),
        sa.Column("buyer_country", sa.String(length=2), nullable=True),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("value", sa.Numeric(precision=20, scale=2), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=True),
        sa.Column("value_basis", sa.String(length=16), nullable=True),
        sa.Column("signed_on", sa.Date(), nullable=True),
        sa.Column("published_on", sa.Date(), nullable=True),
        sa.Column("link", sa.Text(), nullable=True),
        sa.Column("record_version", sa.String(length=32), nullable=True),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_contracts_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_contracts")),
        sa.UniqueConstraint("source", "record_key", "party_ref", name="uq_contracts_party"),
    )
    op.create_index("ix_contracts_company", "contracts", ["company_id", "signed_on"], unique=False)
    op.create_index("ix_contracts_party", "contracts", ["party_country", "party_national_id"], unique=False)
    op.create_table(
        "vat_payers",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("vat_id", sa.String(length=32), nullable=False),
        sa.Column("national_id", sa.String(length=32), nullable=True),
        sa.Column("company_id", Id, nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("status_since", sa.Date(), nullable=True),
        sa.Column("tax_office", sa.String(length=16), nullable=True),
        sa.Column("name", sa.Text(), nullable=True),
        sa.Column("answered_on", sa.Date(), nullable=True),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("record_hash", sa.String(length=32), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_vat_payers_company_id_companies"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vat_payers")),
        sa.UniqueConstraint("country", "vat_id", name="uq_vat_payers_vat"),
    )
    op.create_index("ix_vat_payers_company", "vat_payers", ["company_id"], unique=False)
    op.create_index("ix_vat_payers_national", "vat_payers", ["country", "national_id"], unique=False)
    op.create_table(
        "bank_accounts",
        sa.Column("id", Id, autoincrement=True, nullable=False),
        sa.Column("payer_id", Id, nullable=False),
        sa.Column("iban", sa.String(length=34), nullable=True),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("published_from", sa.Date(), nullable=True),
        sa.Column("published_until", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(
            ["payer_id"],
            ["vat_payers.id"],
            name=op.f("fk_bank_accounts_payer_id_vat_payers"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bank_accounts")),
    )
    op.create_index("ix_bank_accounts_iban", "bank_accounts", ["iban"], unique=False)
    op.create_index("ix_bank_accounts_payer", "bank_accounts", ["payer_id"], unique=False)


def downgrade() -> None:
    for table in TABLES:
        op.drop_table(table)
