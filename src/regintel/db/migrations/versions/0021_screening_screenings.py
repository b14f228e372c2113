"""screening: when each company was last screened, and against which list versions

Revision ID: 0021_screening_screenings
Revises: 0013_screening

`company_sanction_hits` holds a company's hits, but no row there means either "screened, nothing found"
or "never screened" (a company imported after the last `screening.company_hits` run, or no run yet). The
credit and risk models must tell the two apart (a missing input is never counted as clean), so the job
writes one row per company it screened: the time, the versions of the lists it screened against, the
algorithm and the threshold (src/regintel/areas/screening/tables.py, `company_screenings`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_screening_screenings"
down_revision = "0013_screening"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "company_screenings",
        sa.Column("company_id", Id, sa.ForeignKey("companies.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("screened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("list_versions", sa.JSON, nullable=False),
        sa.Column("algorithm", sa.String(32), nullable=False),
        sa.Column("threshold", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("company_screenings")
