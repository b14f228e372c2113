"""screening: sanctions lists, entries, names, identifiers, birth dates, countries, programmes, company hits

Revision ID: 0013_screening
Revises: 0012_jobs
Create Date: 2026-11-25 15:45:00

The tables of the screening area (src/regintel/areas/screening/tables.py): one row per list, per listed
entry and per name (aliases and weak aliases kept apart by `kind`), and the company hits precomputed by the
`screening.company_hits` job after each list import (the advanced-search `sanctioned` filter reads them).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0013_screening"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_CHILDREN = (
    "sanction_names",
    "sanction_identifiers",
    "sanction_birth_dates",
    "sanction_countries",
    "sanction_programmes",
)


def _entry_fk() -> sa.Column[Any]:
    return sa.Column("entry_id", Id, sa.ForeignKey("sanction_entries.id", ondelete="CASCADE"), nullable=False)


def _ts(name: str, nullable: bool = True) -> sa.Column[Any]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "sanction_lists",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("entry_count", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("location", sa.Text()),
        _ts("imported_at"),
        _ts("changed_at"),
    )
    op.create_table(
        "sanction_entries",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column(
            "list_id", sa.String(32), sa.ForeignKey("sanction_lists.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("entry_key", sa.String(128), nullable=False),
        sa.Column("schema", sa.String(16), nullable=False),
        sa.Column("caption", sa.Text(), nullable=False),
        sa.Column("topics", sa.String(64), nullable=False),
        sa.Column("listed_on", sa.String(10)),
        sa.Column("remarks", sa.Text()),
        sa.Column("content_hash", sa.String(64), nullable=False),
        _ts("updated_at", False),
        sa.UniqueConstraint("list_id", "entry_key", name="uq_sanction_entries_list_id_entry_key"),
    )
    op.create_table(
        "sanction_names",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        _entry_fk(),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_norm", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("lang", sa.String(8)),
    )
    op.create_table(
        "sanction_identifiers",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        _entry_fk(),
        sa.Column("id_type", sa.String(48), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("value_norm", sa.String(128), nullable=False),
        sa.Column("country", sa.String(2)),
    )
    op.create_index("ix_sanction_identifiers_value_norm", "sanction_identifiers", ["value_norm"])
    op.create_table(
        "sanction_birth_dates",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        _entry_fk(),
        sa.Column("birth_date", sa.String(10), nullable=False),
    )
    op.create_table(
        "sanction_countries",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        _entry_fk(),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
    )
    op.create_table(
        "sanction_programmes",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        _entry_fk(),
        sa.Column("programme", sa.Text(), nullable=False),
    )
    for table in _CHILDREN:
        op.create_index(f"ix_{table}_entry_id", table, ["entry_id"])
    op.create_table(
        "company_sanction_hits",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("company_id", Id, sa.ForeignKey("companies.id", ondelete="CASCADE"), nullable=False),
        _entry_fk(),
        sa.Column("subject", sa.String(16), nullable=False),
        sa.Column("subject_name", sa.Text(), nullable=False),
        sa.Column("natural_person", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("features", sa.JSON(), nullable=False),
        sa.Column("algorithm", sa.String(32), nullable=False),
        _ts("computed_at", False),
        sa.UniqueConstraint(
            "company_id", "entry_id", "subject", "subject_name", name="uq_company_sanction_hits_key"
        ),
    )
    op.create_index("ix_company_sanction_hits_entry_id", "company_sanction_hits", ["entry_id"])


def downgrade() -> None:
    op.drop_table("company_sanction_hits")
    for table in _CHILDREN:
        op.drop_table(table)
    op.drop_table("sanction_entries")
    op.drop_table("sanction_lists")
