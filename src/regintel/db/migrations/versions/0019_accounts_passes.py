"""accounts: paid one-time passes, natural persons withheld after privacy requests, persons named in a request

Revision ID: 0019_accounts_passes
Revises: 0018_accounts_finish
Create Date: 2026-12-01 19:40:00

See docs/accounts.md ("Billing", "Privacy requests").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_accounts_passes"
down_revision = "0018_accounts_finish"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def _fk(table: str, column: str, target: str, ondelete: str = "CASCADE") -> sa.ForeignKey:
    ref_table = target.split(".")[0]
    return sa.ForeignKey(target, ondelete=ondelete, name=f"fk_{table}_{column}_{ref_table}")


def upgrade() -> None:
    op.create_table(
        "account_passes",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("account_id", Id, _fk("account_passes", "account_id", "accounts.id"), nullable=False),
        sa.Column("plan", sa.String(32), nullable=False),
        sa.Column("checkout_id", sa.String(100), nullable=False),
        sa.Column("event_id", sa.String(100), nullable=False),
        sa.Column("paid_at", TS, nullable=False),
        sa.Column("api_key_id", Id, _fk("account_passes", "api_key_id", "api_keys.id", "SET NULL")),
        sa.Column("claimed_at", TS),
        sa.UniqueConstraint("checkout_id", name="uq_account_passes_checkout_id"),
    )
    op.create_index("ix_account_passes_account_id", "account_passes", ["account_id"])
    op.create_table(
        "privacy_person_suppressions",
        sa.Column("person_key", sa.String(64), primary_key=True),
        sa.Column(
            "request_id",
            Id,
            _fk("privacy_person_suppressions", "request_id", "privacy_requests.id", "SET NULL"),
        ),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("roles_removed", sa.Integer(), nullable=False),
        sa.Column("created_at", TS, nullable=False),
    )
    op.add_column("privacy_requests", sa.Column("person_name", sa.Text()))
    op.add_column("privacy_requests", sa.Column("person_keys", sa.Text()))  # JSON list


def downgrade() -> None:
    with op.batch_alter_table("privacy_requests") as batch:
        batch.drop_column("person_keys")
        batch.drop_column("person_name")
    op.drop_table("privacy_person_suppressions")
    op.drop_index("ix_account_passes_account_id", table_name="account_passes")
    op.drop_table("account_passes")
