"""public_money: which importer wrote a TED notice (`ted_notices.source`)

Revision ID: 0024_public_money_ted_source
Revises: 0013_public_money

Notices come from two TED formats now, the eForms XML (`ted_eforms`) and the contract-award CSV export
(`ted_csv`); the catalogue counts each source's notices. Existing rows are eForms notices.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024_public_money_ted_source"
down_revision = "0013_public_money"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ADD COLUMN (a constant default) on both backends: a batch copy of the table would, on SQLite
    # with foreign keys on, cascade the drop of the old table into the notices' lots and parties.
    op.add_column(
        "ted_notices", sa.Column("source", sa.String(length=32), nullable=False, server_default="ted_eforms")
    )


def downgrade() -> None:
    with op.batch_alter_table("ted_notices") as batch:
        batch.drop_column("source")
