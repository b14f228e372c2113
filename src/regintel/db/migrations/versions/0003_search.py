"""search: indexes the search index is kept current with, and at-address look-ups

Revision ID: 0003_search
Revises: 0001
Create Date: 2026-11-22 12:00:00

- `companies.updated_at`: the search index compares its watermark with MAX(updated_at) on every
  refresh and re-indexes the rows changed since; without an index that is a full scan.
- `companies.address_norm`: `/companies/at-address` matches the normalised address exactly.

The derived index structures themselves (tantivy files, the FTS5 table, the pg_trgm GIN index) are
built by `regintel search rebuild`, not here: they belong to the chosen backend.
"""

from __future__ import annotations

from alembic import op

revision = "0003_search"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_companies_updated_at", "companies", ["updated_at"])
    op.create_index("ix_companies_address_norm", "companies", ["address_norm"])


def downgrade() -> None:
    op.drop_index("ix_companies_address_norm", table_name="companies")
    op.drop_index("ix_companies_updated_at", table_name="companies")
