"""accounts: accounts, sessions, magic links, key owners, natural-persons addendum

Revision ID: 0013_accounts
Revises: 0012_jobs
Create Date: 2026-11-25 16:20:00

See docs/accounts.md.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_accounts"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("plan", sa.String(32), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("last_login_at", TS),
        sa.UniqueConstraint("email", name="uq_accounts_email"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey("accounts.id", ondelete="CASCADE", name="fk_account_sessions_account_id_accounts"),
            nullable=False,
        ),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("csrf_token", sa.String(64), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("expires_at", TS, nullable=False),
        sa.UniqueConstraint("token_hash", name="uq_account_sessions_token_hash"),
    )
    op.create_index("ix_account_sessions_account_id", "account_sessions", ["account_id"])
    op.create_table(
        "account_login_links",
        sa.Column("nonce", sa.String(64), primary_key=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("used_at", TS),
    )
    op.create_index("ix_account_login_links_email", "account_login_links", ["email", "created_at"])
    op.create_table(
        "account_api_keys",
        sa.Column(
            "api_key_id",
            Id,
            sa.ForeignKey("api_keys.id", ondelete="CASCADE", name="fk_account_api_keys_api_key_id_api_keys"),
            primary_key=True,
        ),
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey("accounts.id", ondelete="CASCADE", name="fk_account_api_keys_account_id_accounts"),
            nullable=False,
        ),
    )
    op.create_index("ix_account_api_keys_account_id", "account_api_keys", ["account_id"])
    op.create_table(
        "account_fo_addenda",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey(
                "accounts.id", ondelete="CASCADE", name="fk_account_fo_addenda_account_id_accounts"
            ),
            nullable=False,
        ),
        sa.Column("text_version", sa.String(32), nullable=False),
        sa.Column("person_name", sa.Text(), nullable=False),
        sa.Column("accepted_at", TS, nullable=False),
        sa.Column("revoked_at", TS),
    )
    op.create_index("ix_account_fo_addenda_account_id", "account_fo_addenda", ["account_id"])


def downgrade() -> None:
    for table in (
        "account_fo_addenda",
        "account_api_keys",
        "account_login_links",
        "account_sessions",
        "accounts",
    ):
        op.drop_table(table)
