"""accounts: refunds of paid passes (the payment a pass came from, and when it was refunded)

Revision ID: 0023_accounts_pass_refunds
Revises: 0020_accounts_withheld_rows

A refund event of the payment provider (`charge.refunded`) names the payment, not the checkout session,
so a pass keeps the payment (`payment_intent`) its checkout completed with; `refunded_at` records the
refund, which revokes the pass's key (docs/accounts.md, "One-time packs").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_accounts_pass_refunds"
down_revision = "0020_accounts_withheld_rows"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("account_passes") as batch:
        batch.add_column(sa.Column("payment_intent", sa.String(100), nullable=True))
        batch.add_column(sa.Column("refunded_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_account_passes_payment_intent", "account_passes", ["payment_intent"])


def downgrade() -> None:
    op.drop_index("ix_account_passes_payment_intent", table_name="account_passes")
    with op.batch_alter_table("account_passes") as batch:
        batch.drop_column("refunded_at")
        batch.drop_column("payment_intent")
