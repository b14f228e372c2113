"""public_money: how a VAT payer was linked to its company (`vat_payers.match_method`, `match_score`)

Revision ID: 0030_public_money_payer_links
Revises: 0024_public_money_ted_source

The relink job writes a link's method and score on every table it relinks; `vat_payers` had neither, so
relinking a payer whose company arrived after it failed. Slovak payers (the financial administration's
list, named by IČ DPH) are linked through the company's stored IČ DPH or DIČ, and the method says so.
Existing links were all by national identifier.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030_public_money_payer_links"
down_revision = "0024_public_money_ted_source"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs on both backends: a batch copy of the table would, on SQLite with foreign keys
    # on, cascade the drop of the old table into the payers' bank accounts.
    op.add_column("vat_payers", sa.Column("match_method", sa.String(length=16)))
    op.add_column("vat_payers", sa.Column("match_score", sa.Float()))
    op.execute(
        "UPDATE vat_payers SET match_method = 'identifier', match_score = 1.0 WHERE company_id IS NOT NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("vat_payers") as batch:
        batch.drop_column("match_score")
        batch.drop_column("match_method")
