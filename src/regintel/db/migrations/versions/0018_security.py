"""security: company domains from registers, passive security checks and brand signals

Revision ID: 0018_security
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

`company_domains` holds the websites and e-mail domains registers publish (keyed by country and national
id, with source and import run); `security_checks` the latest passive check of each host (findings,
score, facts); `security_signals` what it revealed (technologies, mail provider, certificate issuer).
See docs/security-posture.md.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_security"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "company_domains",
        sa.Column("id", Id, autoincrement=True),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("national_id", sa.String(32), nullable=False),
        sa.Column("host", sa.String(253), nullable=False),
        sa.Column("registered_domain", sa.String(253), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("source_record", sa.Text()),
        sa.Column("published_on", sa.Date()),
        sa.Column("run_id", Id),
        sa.Column("retrieved_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_company_domains"),
        sa.UniqueConstraint(
            "country",
            "national_id",
            "host",
            "kind",
            "source",
            name="uq_company_domains_country_national_id_host_kind_source",
        ),
    )
    op.create_index("ix_company_domains_host", "company_domains", ["host"])
    op.create_index("ix_company_domains_registered_domain", "company_domains", ["registered_domain"])
    op.create_table(
        "security_checks",
        sa.Column("host", sa.String(253), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("score", sa.Integer()),
        sa.Column("findings", sa.JSON(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.Column("error", sa.Text()),
        sa.Column("checked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("host", name="pk_security_checks"),
    )
    op.create_table(
        "security_signals",
        sa.Column("host", sa.String(253), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("category", sa.String(64)),
        sa.Column("evidence", sa.Text()),
        sa.PrimaryKeyConstraint("host", "kind", "name", name="pk_security_signals"),
    )
    op.create_index("ix_security_signals_kind_name", "security_signals", ["kind", "name"])


def downgrade() -> None:
    op.drop_index("ix_security_signals_kind_name", table_name="security_signals")
    op.drop_table("security_signals")
    op.drop_table("security_checks")
    op.drop_index("ix_company_domains_registered_domain", table_name="company_domains")
    op.drop_index("ix_company_domains_host", table_name="company_domains")
    op.drop_table("company_domains")
