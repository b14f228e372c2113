"""accounts: billing customers, OAuth refresh tokens and dynamically registered clients, OIDC identities

Revision ID: 0018_accounts_finish
Revises: 0017_accounts_passkeys
Create Date: 2026-11-25 18:20:00

See docs/accounts.md ("Billing", "OAuth 2.1", "OpenID Connect").

`oauth_clients.account_id` becomes nullable: a client registered through RFC 7591 dynamic registration
belongs to no account. SQLite cannot drop a NOT NULL in place and rebuilding `oauth_clients` while
`oauth_codes` and `oauth_tokens` reference it would cascade-delete their rows (foreign keys are on), so on
SQLite the two child tables are copied aside, dropped, and rebuilt after the parent.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_accounts_finish"
down_revision = "0017_accounts_passkeys"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str, ondelete: str = "CASCADE") -> sa.ForeignKey:
    ref_table = target.split(".")[0]
    return sa.ForeignKey(target, ondelete=ondelete, name=f"fk_{table}_{column}_{ref_table}")


def _oauth_children() -> None:
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


def _alter_clients(nullable: bool, registration: bool) -> None:
    """`account_id` NULL-able or not, with or without the `registration` column."""
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("oauth_clients", "account_id", existing_type=sa.BigInteger(), nullable=nullable)
        if registration:
            op.add_column(
                "oauth_clients",
                sa.Column("registration", sa.String(16), nullable=False, server_default="account"),
            )
        else:
            op.drop_column("oauth_clients", "registration")
        return
    op.execute("CREATE TABLE _keep_oauth_codes AS SELECT * FROM oauth_codes")
    op.execute("CREATE TABLE _keep_oauth_tokens AS SELECT * FROM oauth_tokens")
    op.drop_table("oauth_tokens")
    op.drop_table("oauth_codes")
    with op.batch_alter_table("oauth_clients", recreate="always") as batch:
        batch.alter_column("account_id", existing_type=Id, nullable=nullable)
        if registration:
            batch.add_column(
                sa.Column("registration", sa.String(16), nullable=False, server_default="account")
            )
        else:
            batch.drop_column("registration")
    _oauth_children()
    op.execute("INSERT INTO oauth_codes SELECT * FROM _keep_oauth_codes")
    op.execute("INSERT INTO oauth_tokens SELECT * FROM _keep_oauth_tokens")
    op.drop_table("_keep_oauth_codes")
    op.drop_table("_keep_oauth_tokens")


def upgrade() -> None:
    _alter_clients(nullable=True, registration=True)
    op.create_table(
        "oauth_refresh_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("family_id", sa.String(64), nullable=False),
        sa.Column(
            "client_id",
            sa.String(64),
            _fk("oauth_refresh_tokens", "client_id", "oauth_clients.client_id"),
            nullable=False,
        ),
        sa.Column("account_id", Id, _fk("oauth_refresh_tokens", "account_id", "accounts.id"), nullable=False),
        sa.Column("api_key_id", Id, _fk("oauth_refresh_tokens", "api_key_id", "api_keys.id", "SET NULL")),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("expires_at", TS, nullable=False),
        sa.Column("used_at", TS),
        sa.Column("revoked_at", TS),
    )
    op.create_index("ix_oauth_refresh_tokens_family_id", "oauth_refresh_tokens", ["family_id"])
    op.create_index("ix_oauth_refresh_tokens_client_id", "oauth_refresh_tokens", ["client_id"])
    op.create_table(
        "billing_customers",
        sa.Column("account_id", Id, _fk("billing_customers", "account_id", "accounts.id"), primary_key=True),
        sa.Column("provider", sa.String(16), nullable=False),
        sa.Column("customer_id", sa.String(100), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.UniqueConstraint("provider", "customer_id", name="uq_billing_customers_provider_customer_id"),
    )
    op.create_table(
        "account_identities",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("account_id", Id, _fk("account_identities", "account_id", "accounts.id"), nullable=False),
        sa.Column("provider", sa.String(40), nullable=False),
        sa.Column("subject", sa.String(255), nullable=False),
        sa.Column("email", sa.String(320)),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("last_login_at", TS),
        sa.UniqueConstraint("provider", "subject", name="uq_account_identities_provider_subject"),
    )
    op.create_index("ix_account_identities_account_id", "account_identities", ["account_id"])


def downgrade() -> None:
    op.drop_table("account_identities")
    op.drop_table("billing_customers")
    op.drop_table("oauth_refresh_tokens")
    op.execute("DELETE FROM oauth_clients WHERE account_id IS NULL")
    _alter_clients(nullable=False, registration=False)
