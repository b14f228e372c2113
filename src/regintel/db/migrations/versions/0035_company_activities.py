"""companies: the listed NACE activities of companies without a primary one, in `company_activities`

Revision ID: 0035_company_activities
Revises: 0032_names_other_scripts

The `nace` filter read the primary activity alone (`replace(nace_primary, '.', '')`), so a company whose
register names no primary activity (ONRC lists the classes a trader is authorised for) was found by no
NACE filter. `company_activities` holds one row per listed activity of such a company, its digits
derived as the primary's are (dots dropped: `62.01` -> `6201`); companies with a primary activity have
no rows, the filter finding them through the companies' own index as before (db/company_filters.py).
It is filled here from the stored `nace_primary` and `nace_codes` in steps of company ids, one
INSERT ... SELECT each, so neither the rows nor the statement grow with the database; the loader and
synth write it from then on.

Revises the last migration of the core tables (the companies' names, 0032): the areas' migrations,
numbered up to 0034, branch on their own.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0035_company_activities"
down_revision = "0032_names_other_scripts"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
STEP = 50_000  # company ids per statement

# The listed codes of each company without a primary, dots dropped, empty ones left out, each once. The
# same derivation as ingest.sections.activity_digits: listed codes that are not strings (none are
# written) are left out.
_SQLITE = """
INSERT INTO company_activities (company_id, nace_digits)
SELECT DISTINCT c.id, replace(j.value, '.', '')
FROM companies c,
    json_each(CASE WHEN json_type(c.nace_codes) = 'array' THEN c.nace_codes ELSE '[]' END) j
WHERE c.id > :low AND c.id <= :high AND replace(coalesce(c.nace_primary, ''), '.', '') = ''
    AND j.type = 'text' AND replace(j.value, '.', '') <> ''
"""
_POSTGRES = """
INSERT INTO company_activities (company_id, nace_digits)
SELECT DISTINCT c.id, replace(j.value #>> '{}', '.', '')
FROM companies c CROSS JOIN LATERAL json_array_elements(
    CASE WHEN json_typeof(c.nace_codes) = 'array' THEN c.nace_codes ELSE '[]'::json END
) AS j(value)
WHERE c.id > :low AND c.id <= :high AND replace(coalesce(c.nace_primary, ''), '.', '') = ''
    AND json_typeof(j.value) = 'string' AND replace(j.value #>> '{}', '.', '') <> ''
"""


def upgrade() -> None:
    op.create_table(
        "company_activities",
        sa.Column("company_id", Id, nullable=False),
        sa.Column("nace_digits", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["company_id"],
            ["companies.id"],
            name="fk_company_activities_company_id_companies",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("company_id", "nace_digits", name="pk_company_activities"),
    )
    conn = op.get_bind()
    fill = sa.text(_SQLITE if conn.dialect.name == "sqlite" else _POSTGRES)
    last = conn.execute(sa.text("SELECT max(id) FROM companies")).scalar() or 0
    for low in range(0, last, STEP):
        conn.execute(fill, {"low": low, "high": low + STEP})
    # Built once the rows are in: one sort instead of an index insert per row.
    op.create_index("ix_company_activities_nace_digits", "company_activities", ["nace_digits", "company_id"])


def downgrade() -> None:
    op.drop_index("ix_company_activities_nace_digits", table_name="company_activities")
    op.drop_table("company_activities")
