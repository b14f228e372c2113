"""accounts: the register rows a privacy suppression took out of the served tables, kept aside

Revision ID: 0020_accounts_withheld_rows
Revises: 0019_accounts_passes

A verified erase or object request withholds a natural person by taking their person row, roles and the
names in the change log out of the tables every endpoint reads (docs/accounts.md, "Privacy requests").
DESIGN.md asks for suppression that never loses register data: the rows are copied here in the same
transaction, and `regintel privacy lift` puts them back.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_accounts_withheld_rows"
down_revision = "0019_accounts_passes"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "privacy_withheld_rows",
        sa.Column("id", Id, primary_key=True, autoincrement=True),
        sa.Column("person_key", sa.String(64), nullable=False),
        sa.Column("table_name", sa.String(32), nullable=False),
        sa.Column("row_id", Id, nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
    )
    op.create_index("ix_privacy_withheld_rows_person_key", "privacy_withheld_rows", ["person_key"])


def downgrade() -> None:
    op.drop_index("ix_privacy_withheld_rows_person_key", table_name="privacy_withheld_rows")
    op.drop_table("privacy_withheld_rows")
