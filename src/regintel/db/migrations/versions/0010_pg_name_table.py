"""PostgreSQL name table: `name_contains` reads a compact copy of the names, not `companies`

Revision ID: 0010_pg_name_table
Revises: 0009_name_trigram_content

pg_trgm's GIN index on `companies.name_norm` (0008) names candidates that must each be re-tested on
their row, and at 10 million companies those rows are spread over a 30 GB table: counting the first
10,001 matches of "bau" read 10,001 random pages (120 ms), and `country=FR&name_contains=nord` 1.6 s.
PostgreSQL now gets what SQLite got in 0009: a table of (id, country, name_norm) alone, a few tens of
bytes a row, written in name order, with one GIN index over the country (btree_gin) and the name's
trigrams (pg_trgm), so that a country narrows the candidates inside the index. Triggers on
`companies` keep it in step (TRUNCATE included); bulk builds fill it in one pass instead (`synth.writers`).

The GIN index on `companies.name_norm` served only `name_contains` and is dropped; the pg_trgm search
backend creates it again under the same name when it is the configured backend (`search/pg_trgm.py`).

SQLite: unchanged.
"""

from __future__ import annotations

from alembic import op

revision = "0010_pg_name_table"
down_revision = "0009_name_trigram_content"
branch_labels = None
depends_on = None

TABLE = "companies_name_trgm"
OLD_INDEX = "ix_companies_name_norm_trgm"
FUNCTION = f"{TABLE}_sync"
# Updates that leave id, country and name alone (most loader updates) fire nothing.
CHANGED = "(old.id, old.country, old.name_norm) IS DISTINCT FROM (new.id, new.country, new.name_norm)"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # Both ship with PostgreSQL's contrib modules and are trusted extensions.
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    op.execute("CREATE EXTENSION IF NOT EXISTS btree_gin")
    # The fill sorts 10M names and the GIN index is built from them: with the server's default 64 MB
    # both spill to disk in many runs. Raised for this transaction only, never lowered.
    op.execute(
        "DO $$ BEGIN IF pg_size_bytes(current_setting('maintenance_work_mem')) < 1073741824 THEN "
        "SET LOCAL maintenance_work_mem = '1GB'; END IF; END $$"
    )
    op.execute(
        f"CREATE TABLE {TABLE} (id bigint PRIMARY KEY, country varchar(2) NOT NULL, name_norm text NOT NULL)"
    )
    # In name order: the matches of a term that most names start with ("nord…") share pages.
    op.execute(
        f"INSERT INTO {TABLE} (id, country, name_norm) SELECT id, country, name_norm FROM companies "
        "ORDER BY name_norm, id"
    )
    op.execute(f"CREATE INDEX ix_{TABLE}_gin ON {TABLE} USING gin (country, name_norm gin_trgm_ops)")
    op.execute(f"""CREATE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO {TABLE} (id, country, name_norm) VALUES (new.id, new.country, new.name_norm);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE {TABLE} SET id = new.id, country = new.country, name_norm = new.name_norm WHERE id = old.id;
    ELSIF TG_OP = 'DELETE' THEN
        DELETE FROM {TABLE} WHERE id = old.id;
    ELSE
        TRUNCATE {TABLE};
    END IF;
    RETURN NULL;
END $$""")
    op.execute(
        f"CREATE TRIGGER {TABLE}_ai AFTER INSERT ON companies FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()"
    )
    op.execute(
        f"CREATE TRIGGER {TABLE}_au AFTER UPDATE OF id, country, name_norm ON companies FOR EACH ROW "
        f"WHEN ({CHANGED}) EXECUTE FUNCTION {FUNCTION}()"
    )
    op.execute(
        f"CREATE TRIGGER {TABLE}_ad AFTER DELETE ON companies FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()"
    )
    op.execute(
        f"CREATE TRIGGER {TABLE}_at AFTER TRUNCATE ON companies FOR EACH STATEMENT EXECUTE FUNCTION "
        f"{FUNCTION}()"
    )
    op.execute(f"DROP INDEX IF EXISTS {OLD_INDEX}")
    op.execute(f"ANALYZE {TABLE}")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for suffix in ("ai", "au", "ad", "at"):
        op.execute(f"DROP TRIGGER IF EXISTS {TABLE}_{suffix} ON companies")
    op.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}()")
    op.execute(f"DROP TABLE IF EXISTS {TABLE}")
    op.execute(f"CREATE INDEX IF NOT EXISTS {OLD_INDEX} ON companies USING gin (name_norm gin_trgm_ops)")
