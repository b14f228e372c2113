"""public_money: the notice's country and day beside each of its CPV codes, and one index over them

Revision ID: 0030_public_money_ted_cpv_search
Revises: 0030_public_money_payer_links

`ted/search` with a CPV filter probed every notice of the country and period for its codes and counted
them all, so its cost grew with the number of notices (docs/public-money.md, "Measured"). With the CPV
division, the country and the issue date on `ted_notice_cpv`, the index (division, country, issue_date,
cpv, notice_pk) gives the matching entries as one range. Existing rows are filled from their notices.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030_public_money_ted_cpv_search"
down_revision = "0030_public_money_payer_links"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMNs (no batch copy, which on SQLite with foreign keys on would cascade the drop).
    op.add_column("ted_notice_cpv", sa.Column("division", sa.String(length=2)))
    op.add_column("ted_notice_cpv", sa.Column("country", sa.String(length=2)))
    op.add_column("ted_notice_cpv", sa.Column("issue_date", sa.Date()))
    op.execute(
        "UPDATE ted_notice_cpv SET division = substr(cpv, 1, 2), "
        "country = (SELECT n.country FROM ted_notices n WHERE n.id = ted_notice_cpv.notice_pk), "
        "issue_date = (SELECT n.issue_date FROM ted_notices n WHERE n.id = ted_notice_cpv.notice_pk)"
    )
    op.create_index(
        "ix_ted_notice_cpv_search",
        "ted_notice_cpv",
        ["division", "country", "issue_date", "cpv", "notice_pk"],
    )


def downgrade() -> None:
    op.drop_index("ix_ted_notice_cpv_search", table_name="ted_notice_cpv")
    with op.batch_alter_table("ted_notice_cpv") as batch:
        batch.drop_column("issue_date")
        batch.drop_column("country")
        batch.drop_column("division")
