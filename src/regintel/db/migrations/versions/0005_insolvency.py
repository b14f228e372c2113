"""insolvency: gazette notices (insolvency_events) and the indexes of the cross-company change feeds

Revision ID: 0005_insolvency
Revises: 0001

- `insolvency_events`: one row per gazette notice that starts or ends a bankruptcy, restructuring or
  liquidation, unique per (source, notice_id) so re-imports are idempotent; indexed by company (the
  timeline) and by date (the public feeds and statistics).
- `company_changes (field, id)`: the insolvency feeds read the flag flips of the register sources, and
  `/companies/changes?field=` pages through one field, without scanning the whole log.
- `company_changes (detected_at)`: `/companies/changes?since=` finds its first row.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_insolvency"
down_revision = "0001"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "insolvency_events",
        sa.Column("id", _ID, autoincrement=True, nullable=False),
        sa.Column("company_id", _ID, nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("event_type", sa.String(length=16), nullable=False),
        sa.Column("phase", sa.String(length=8), nullable=False),
        sa.Column("event_date", sa.Date(), nullable=False),
        sa.Column("published_on", sa.Date(), nullable=True),
        sa.Column("decision_date", sa.Date(), nullable=True),
        sa.Column("court", sa.Text(), nullable=True),
        sa.Column("case_number", sa.Text(), nullable=True),
        sa.Column("reference", sa.Text(), nullable=True),
        sa.Column("notice_id", sa.String(length=64), nullable=False),
        sa.Column("link", sa.Text(), nullable=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=True),
        sa.Column("trustee", sa.Text(), nullable=True),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("run_id", _ID, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "event_type IN ('bankruptcy', 'restructuring', 'liquidation')",
            name=op.f("ck_insolvency_events_event_type"),
        ),
        sa.CheckConstraint("phase IN ('start', 'end')", name=op.f("ck_insolvency_events_phase")),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name=op.f("fk_insolvency_events_company_id_companies"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_insolvency_events")),
        sa.UniqueConstraint("source", "notice_id", name=op.f("uq_insolvency_events_source_notice_id")),
    )
    op.create_index("ix_insolvency_events_company_id", "insolvency_events", ["company_id", "event_date"])
    op.create_index("ix_insolvency_events_event_date", "insolvency_events", ["event_date", "id"])
    op.create_index("ix_company_changes_field", "company_changes", ["field", "id"])
    op.create_index("ix_company_changes_detected_at", "company_changes", ["detected_at"])


def downgrade() -> None:
    op.drop_index("ix_company_changes_detected_at", table_name="company_changes")
    op.drop_index("ix_company_changes_field", table_name="company_changes")
    op.drop_index("ix_insolvency_events_event_date", table_name="insolvency_events")
    op.drop_index("ix_insolvency_events_company_id", table_name="insolvency_events")
    op.drop_table("insolvency_events")
