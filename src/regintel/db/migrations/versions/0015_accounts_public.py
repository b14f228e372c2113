"""accounts: signup leads, newsletter intents, privacy requests and suppressions

Revision ID: 0015_accounts_public
Revises: 0014_accounts_oauth
Create Date: 2026-11-25 16:30:00

See docs/accounts.md, "Public forms" and "Privacy requests".
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_accounts_public"
down_revision = "0014_accounts_oauth"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
TS = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "signup_leads",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("use_case", sa.Text()),
        sa.Column("source", sa.String(100)),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("confirmed_at", TS),
        sa.Column("last_mail_at", TS),
    )
    op.create_index("ux_signup_leads_kind_email", "signup_leads", ["kind", "email"], unique=True)
    op.create_index("ix_signup_leads_confirmed_at", "signup_leads", ["confirmed_at"])
    op.create_table(
        "privacy_requests",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("details", sa.Text()),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", TS, nullable=False),
        sa.Column("verified_at", TS),
        sa.Column("due_at", TS),
        sa.Column("done_at", TS),
        sa.Column("outcome", sa.Text()),
    )
    op.create_index("ix_privacy_requests_email", "privacy_requests", ["email"])
    op.create_table(
        "privacy_suppressions",
        sa.Column("email", sa.String(320), primary_key=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column(
            "request_id",
            Id,
            sa.ForeignKey(
                "privacy_requests.id",
                ondelete="SET NULL",
                name="fk_privacy_suppressions_request_id_privacy_requests",
            ),
        ),
        sa.Column("created_at", TS, nullable=False),
    )


def downgrade() -> None:
    for table in ("privacy_suppressions", "privacy_requests", "signup_leads"):
        op.drop_table(table)
