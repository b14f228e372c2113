"""accounts: the log of withholdings and lifts (privacy_actions)

Revision ID: 0031_accounts_privacy_actions
Revises: 0023_accounts_pass_refunds

Every withholding and every lift of a natural person's register data is one row, never deleted: the
operator's record of what was done when, and a marker whose newest id moves whenever served data was
withheld or put back. `db.stats.data_version` reads it, so that aggregates, statistics snapshots and stored
sitemap pages computed before a withholding are not served after it (they are keyed by the data version,
which the change log and import runs alone did not move: a withholding writes neither).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0031_accounts_privacy_actions"
down_revision = "0023_accounts_pass_refunds"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "privacy_actions",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("person_key", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("request_id", Id, sa.ForeignKey("privacy_requests.id", ondelete="SET NULL"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("privacy_actions")
