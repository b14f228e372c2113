"""regulatory: regulator publications and their tags

Revision ID: 0018_regulatory
Revises: 0012_jobs
Create Date: 2026-11-25 18:00:00

The tables of the regulatory area (src/regintel/areas/regulatory/tables.py): one row per publication of
the five regulators' feeds, unique by (source, SHA-256 of the feed id), and its rule-set tags.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0018_regulatory"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "regulatory_entries",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(32), nullable=False),
        sa.Column("entry_key", sa.String(64), nullable=False),
        sa.Column("guid", sa.Text(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("link", sa.Text()),
        sa.Column("language", sa.String(8)),
        sa.Column("categories", sa.JSON()),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False),
        _ts("published_at", nullable=False),
        _ts("updated_at"),
        _ts("first_seen_at", nullable=False),
        _ts("retrieved_at", nullable=False),
        sa.Column("import_run_id", sa.Integer()),
        sa.UniqueConstraint("source", "entry_key", name="uq_regulatory_entries_source_entry_key"),
    )
    op.create_index("ix_regulatory_entries_published", "regulatory_entries", ["published_at", "id"])
    op.create_index(
        "ix_regulatory_entries_source_published", "regulatory_entries", ["source", "published_at"]
    )
    op.create_table(
        "regulatory_entry_tags",
        sa.Column(
            "entry_id", Id, sa.ForeignKey("regulatory_entries.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("tag", sa.String(32), primary_key=True),
    )
    op.create_index("ix_regulatory_entry_tags_tag", "regulatory_entry_tags", ["tag", "entry_id"])


def downgrade() -> None:
    op.drop_table("regulatory_entry_tags")
    op.drop_table("regulatory_entries")
