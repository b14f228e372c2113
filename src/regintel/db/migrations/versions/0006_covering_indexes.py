"""covering indexes: advanced search at 10M companies reads indexes, not rows

Revision ID: 0006_covering_indexes
Revises: 0004_filters
Create Date: 2026-11-25 00:45:00

Measured on a 10M-company synthetic build (docs/performance.md, "Advanced search at 10M"): a page in
name order walked `ix_companies_name_norm` and fetched every row it passed to test the filters, and
on a database larger than the page cache each such fetch is a random read (about 30 µs): 180–250 ms
for `country=FR&in_bankruptcy=1` or page 50 of `country=FR`. The name index now carries the columns
the common filters test, with the id right after the name so that its order is exactly the pages'
`ORDER BY name_norm, id`: SQLite tests index columns before it fetches a row (and fetches only the
20 rows of the page); PostgreSQL can answer the walk as an index-only scan. Counts work the same way:
the NUTS 3, LEI, NACE, region and legal-form indexes carry status and size class (and the LEI one the
VAT id), so `nuts3=…&size_class=…` or `has_lei=1&vat_registered=1` count without reading rows.

On an existing large database this rebuilds six indexes: about 40 s each per 10 million companies
on SQLite.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_covering_indexes"
down_revision = "0004_filters"
branch_labels = None
depends_on = None

NAME_SORT = [
    "name_norm",
    "id",
    "country",
    "status",
    "in_bankruptcy",
    "in_restructuring",
    "in_liquidation",
    "size_class",
    "nuts3",
    "nace_primary",
    "legal_form",
    "city",
    "region_code",
    "founded_on",
    "employees",
    "lei",
    "vat_id",
]
WIDENED: dict[str, tuple[list[str | sa.TextClause], list[str]]] = {
    "ix_companies_nuts3": (["nuts3"], ["country", "status", "size_class"]),
    "ix_companies_lei": (["lei"], ["country", "status", "vat_id"]),
    "ix_companies_region_code": (["region_code"], ["country", "status", "size_class"]),
    "ix_companies_legal_form": (["legal_form"], ["country", "status", "size_class"]),
    "ix_companies_nace_digits": (
        [sa.text("replace(nace_primary, '.', '')")],
        ["country", "status", "size_class"],
    ),
}
BEFORE: dict[str, list[str | sa.TextClause]] = {
    "ix_companies_nuts3": ["nuts3"],
    "ix_companies_lei": ["lei"],
    "ix_companies_region_code": ["region_code", "country"],
    "ix_companies_legal_form": ["legal_form", "country"],
    "ix_companies_nace_digits": [sa.text("replace(nace_primary, '.', '')"), "country"],
}


def upgrade() -> None:
    op.drop_index("ix_companies_name_norm", table_name="companies")
    op.create_index("ix_companies_name_sort", "companies", NAME_SORT)
    for name, (lead, rest) in WIDENED.items():
        op.drop_index(name, table_name="companies")
        op.create_index(name, "companies", [*lead, *rest])


def downgrade() -> None:
    for name, columns in BEFORE.items():
        op.drop_index(name, table_name="companies")
        op.create_index(name, "companies", columns)
    op.drop_index("ix_companies_name_sort", table_name="companies")
    op.create_index("ix_companies_name_norm", "companies", ["name_norm"])
