"""accounts: passkeys (WebAuthn credentials)

Revision ID: 0017_accounts_passkeys
Revises: 0016_accounts_billing
Create Date: 2026-11-25 16:40:00

See docs/accounts.md, "Passkeys".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_accounts_passkeys"
down_revision = "0016_accounts_billing"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "account_passkeys",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey("accounts.id", ondelete="CASCADE", name="fk_account_passkeys_account_id_accounts"),
            nullable=False,
        ),
        sa.Column("credential_id", sa.String(700), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("last_used_at", TS),
        sa.UniqueConstraint("credential_id", name="uq_account_passkeys_credential_id"),
    )
    op.create_index("ix_account_passkeys_account_id", "account_passkeys", ["account_id"])


def downgrade() -> None:
    op.drop_table("account_passkeys")
