"""accounts: OAuth 2.1 clients, authorization codes, token origins

Revision ID: 0014_accounts_oauth
Revises: 0013_accounts
Create Date: 2026-11-25 16:25:00

See docs/accounts.md, "OAuth 2.1".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_accounts_oauth"
down_revision = "0013_accounts"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str) -> sa.ForeignKey:
    ref_table = target.split(".")[0]
    return sa.ForeignKey(target, ondelete="CASCADE", name=f"fk_{table}_{column}_{ref_table}")


def upgrade() -> None:
    op.create_table(
        "oauth_clients",
        sa.Column("client_id", sa.String(64), primary_key=True),
        sa.Column("account_id", Id, _fk("oauth_clients", "account_id", "accounts.id"), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("redirect_uris", sa.Text(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("revoked_at", TS),
    )
    op.create_index("ix_oauth_clients_account_id", "oauth_clients", ["account_id"])
    op.create_table(
        "oauth_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column(
            "client_id",
            sa.String(64),
            _fk("oauth_codes", "client_id", "oauth_clients.client_id"),
            nullable=False,
        ),
        sa.Column("account_id", Id, _fk("oauth_codes", "account_id", "accounts.id"), nullable=False),
        sa.Column("redirect_uri", sa.Text(), nullable=False),
        sa.Column("scope", sa.Text(), nullable=False),
        sa.Column("code_challenge", sa.String(128), nullable=False),
        sa.Column("code_challenge_method", sa.String(8), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("used_at", TS),
    )
    op.create_table(
        "oauth_tokens",
        sa.Column("api_key_id", Id, _fk("oauth_tokens", "api_key_id", "api_keys.id"), primary_key=True),
        sa.Column(
            "client_id",
            sa.String(64),
            _fk("oauth_tokens", "client_id", "oauth_clients.client_id"),
            nullable=False,
        ),
        sa.Column("account_id", Id, _fk("oauth_tokens", "account_id", "accounts.id"), nullable=False),
    )
    op.create_index("ix_oauth_tokens_client_id", "oauth_tokens", ["client_id"])


def downgrade() -> None:
    for table in ("oauth_tokens", "oauth_codes", "oauth_clients"):
        op.drop_table(table)
