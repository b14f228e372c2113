"""filters: indexes behind advanced search and the aggregates, and the latest-financials table

Revision ID: 0004_filters
Revises: 0001
Create Date: 2026-11-22 18:00:00

- Indexes on the `companies` columns `/companies/advanced-search` filters on and `/companies/stats*`
  groups by (docs/advanced-search.md lists which filter uses which; docs/performance.md measures them).
  The insolvency flags get partial indexes: only the few flagged rows are indexed, by country.
- `latest_financials`: one row per company with its latest financial statement (highest year, then the
  most recently written). Revenue, profit, assets and equity range filters and the revenue sort need
  an index on those figures of the *latest* statement; computing "latest" per query is a correlated
  subquery over every statement. The table is derived: triggers on `financial_statements` keep it
  current in the writer's own transaction, whichever code path writes statements, and this migration
  fills it from what is already there.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_filters"
down_revision = "0001"
branch_labels = None
depends_on = None

Id = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
Money = sa.Numeric(20, 2)

# Range and code filters are mostly combined with `country`: the country as a second column lets the
# index answer both without reading the row (codes such as legal form 112 repeat across countries).
PLAIN_INDEXES = {
    "ix_companies_country_status": ["country", "status"],
    "ix_companies_founded_on": ["founded_on", "country"],
    "ix_companies_dissolved_on": ["dissolved_on", "country"],
    "ix_companies_legal_form": ["legal_form", "country"],
    "ix_companies_region_code": ["region_code", "country"],
    "ix_companies_district_code": ["district_code", "country"],
    "ix_companies_municipality_code": ["municipality_code", "country"],
    "ix_companies_nuts3": ["nuts3"],
    "ix_companies_postal_code": ["postal_code", "country"],
    "ix_companies_size_class": ["size_class", "country"],
    "ix_companies_employees": ["employees", "country"],
    "ix_companies_vat_id": ["vat_id", "country"],
}
# Expressions must be written exactly as the queries write them (SQLite matches the text).
EXPRESSION_INDEXES = {
    "ix_companies_nace_digits": ["replace(nace_primary, '.', '')", "country"],
    "ix_companies_city_lower": ["lower(city)", "country"],
}
FLAGS = ("in_bankruptcy", "in_restructuring", "in_liquidation")
FIGURES = ("revenue", "profit", "total_assets", "equity", "employees")
COLUMNS = (
    "company_id, country, statement_id, year, currency, revenue, profit, total_assets, equity, liabilities, "
    "employees, source"
)
# The company's country is copied along (it never changes: it is half of the company's key), so that
# counts per country and revenue-in-a-country filters need no row of `companies`.
SELECTED = (
    "f.company_id, c.country, f.id, f.year, f.currency, f.revenue, f.profit, f.total_assets, f.equity, "
    "f.liabilities, f.employees, f.source"
)
FROM = "financial_statements f JOIN companies c ON c.id = f.company_id"

_SQLITE_REFRESH = """
    DELETE FROM latest_financials WHERE company_id = {ref}.company_id;
    INSERT INTO latest_financials ({columns})
        SELECT {selected} FROM {source} WHERE f.company_id = {ref}.company_id
        ORDER BY f.year DESC, f.id DESC LIMIT 1;"""

SQLITE_TRIGGERS = [
    "CREATE TRIGGER trg_latest_financials_insert AFTER INSERT ON financial_statements BEGIN"
    + _SQLITE_REFRESH.format(ref="NEW", columns=COLUMNS, selected=SELECTED, source=FROM)
    + "\nEND",
    "CREATE TRIGGER trg_latest_financials_update AFTER UPDATE ON financial_statements BEGIN"
    + _SQLITE_REFRESH.format(ref="OLD", columns=COLUMNS, selected=SELECTED, source=FROM)
    + _SQLITE_REFRESH.format(ref="NEW", columns=COLUMNS, selected=SELECTED, source=FROM)
    + "\nEND",
    "CREATE TRIGGER trg_latest_financials_delete AFTER DELETE ON financial_statements BEGIN"
    + _SQLITE_REFRESH.format(ref="OLD", columns=COLUMNS, selected=SELECTED, source=FROM)
    + "\nEND",
]

# The row lock on the company serialises concurrent writers of one company's statements, so the
# second one's query sees the first one's committed statement (READ COMMITTED, one snapshot per statement).
PG_FUNCTIONS = [
    f"""CREATE FUNCTION refresh_latest_financials(cid bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM companies WHERE id = cid FOR NO KEY UPDATE;
    INSERT INTO latest_financials ({COLUMNS})
        SELECT {SELECTED} FROM {FROM} WHERE f.company_id = cid ORDER BY f.year DESC, f.id DESC LIMIT 1
    ON CONFLICT (company_id) DO UPDATE SET country = EXCLUDED.country, statement_id = EXCLUDED.statement_id,
        year = EXCLUDED.year,
        currency = EXCLUDED.currency, revenue = EXCLUDED.revenue, profit = EXCLUDED.profit,
        total_assets = EXCLUDED.total_assets, equity = EXCLUDED.equity, liabilities = EXCLUDED.liabilities,
        employees = EXCLUDED.employees, source = EXCLUDED.source;
    IF NOT FOUND THEN
        DELETE FROM latest_financials WHERE company_id = cid;
    END IF;
END $$""",
    """CREATE FUNCTION trg_latest_financials() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'DELETE' THEN
        PERFORM refresh_latest_financials(NEW.company_id);
    END IF;
    IF TG_OP = 'DELETE' OR OLD.company_id <> NEW.company_id THEN
        PERFORM refresh_latest_financials(OLD.company_id);
    END IF;
    RETURN NULL;
END $$""",
    "CREATE TRIGGER trg_latest_financials AFTER INSERT OR UPDATE OR DELETE ON financial_statements "
    "FOR EACH ROW EXECUTE FUNCTION trg_latest_financials()",
]

BACKFILL = f"""INSERT INTO latest_financials ({COLUMNS})
SELECT {SELECTED.replace("f.", "r.").replace("c.country", "r.country")} FROM (
    SELECT f.*, c.country, row_number() OVER (PARTITION BY f.company_id ORDER BY f.year DESC, f.id DESC) AS rn
    FROM {FROM}) r
WHERE r.rn = 1"""


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    for name, columns in PLAIN_INDEXES.items():
        op.create_index(name, "companies", columns)
    for name, (expression, column) in EXPRESSION_INDEXES.items():
        op.create_index(name, "companies", [sa.text(expression), column])
    for flag in FLAGS:
        where = sa.text(f"{flag} = 1" if sqlite else flag)
        op.create_index(
            f"ix_companies_{flag}", "companies", ["country"], sqlite_where=where, postgresql_where=where
        )
    op.create_index(
        "ix_company_sources_source_last_seen", "company_sources", ["source", "last_seen", "company_id"]
    )
    op.create_index("ix_lei_records_registration_status", "lei_records", ["registration_status"])
    op.create_table(
        "latest_financials",
        sa.Column("company_id", Id, nullable=False),
        sa.Column("country", sa.String(2), nullable=False),
        sa.Column("statement_id", Id, nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        *(sa.Column(name, Money) for name in ("revenue", "profit", "total_assets", "equity", "liabilities")),
        sa.Column("employees", sa.Integer()),
        sa.Column("source", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("company_id", name=op.f("pk_latest_financials")),
    )
    for figure in FIGURES:  # with the currency: amounts compare within one currency
        op.create_index(f"ix_latest_financials_{figure}", "latest_financials", [figure, "currency"])
    op.create_index("ix_latest_financials_country", "latest_financials", ["country", "year"])
    op.execute(BACKFILL)
    for statement in SQLITE_TRIGGERS if sqlite else PG_FUNCTIONS:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS trg_latest_financials_{name}")
    else:
        op.execute("DROP TRIGGER IF EXISTS trg_latest_financials ON financial_statements")
        op.execute("DROP FUNCTION IF EXISTS trg_latest_financials()")
        op.execute("DROP FUNCTION IF EXISTS refresh_latest_financials(bigint)")
    op.drop_table("latest_financials")
    op.drop_index("ix_lei_records_registration_status", table_name="lei_records")
    op.drop_index("ix_company_sources_source_last_seen", table_name="company_sources")
    for flag in FLAGS:
        op.drop_index(f"ix_companies_{flag}", table_name="companies")
    for name in [*EXPRESSION_INDEXES, *PLAIN_INDEXES]:
        op.drop_index(name, table_name="companies")
