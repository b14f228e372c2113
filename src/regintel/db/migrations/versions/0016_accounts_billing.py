"""accounts: billing events (idempotency) and subscription state

Revision ID: 0016_accounts_billing
Revises: 0015_accounts_public
Create Date: 2026-11-25 16:35:00

See docs/accounts.md, "Billing".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_accounts_billing"
down_revision = "0015_accounts_public"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "billing_events",
        sa.Column("event_id", sa.String(100), primary_key=True),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey("accounts.id", ondelete="SET NULL", name="fk_billing_events_account_id_accounts"),
        ),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("received_at", TS, nullable=False),
    )
    op.create_table(
        "billing_subscriptions",
        sa.Column(
            "account_id",
            Id,
            sa.ForeignKey(
                "accounts.id", ondelete="CASCADE", name="fk_billing_subscriptions_account_id_accounts"
            ),
            primary_key=True,
        ),
        sa.Column("subscription_id", sa.String(100), nullable=False),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("plan", sa.String(32), nullable=False),
        sa.Column("updated_at", TS, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("billing_subscriptions")
    op.drop_table("billing_events")
