"""statement lines: current assets and liabilities, retained earnings, EBIT

Revision ID: 0019_statement_lines
Revises: 0012_jobs

The credit model's liquidity factor (current ratio) and the Altman Z''-score read current assets,
current liabilities, retained earnings and EBIT (`domain/scores/figures.py`). Regnskapsregisteret
publishes all four (`sumOmloepsmidler`, `sumKortsiktigGjeld`, `sumOpptjentEgenkapital`,
`driftsresultat`); without columns for them both stayed missing inputs on every statement.
Nullable columns: adding them rewrites no rows on either backend.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_statement_lines"
down_revision = "0012_jobs"
branch_labels = None
depends_on = None

LINES = ("current_assets", "current_liabilities", "retained_earnings", "ebit")


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN on both backends: a batch (copy-and-move) rebuild on SQLite would drop
    # the latest_financials triggers of 0004.
    for name in LINES:
        op.add_column("financial_statements", sa.Column(name, sa.Numeric(20, 2)))


def downgrade() -> None:
    for name in LINES:
        op.drop_column("financial_statements", name)
