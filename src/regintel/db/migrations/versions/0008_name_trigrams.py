"""name trigrams: the index behind the `name_contains` filter

Revision ID: 0008_name_trigrams
Revises: 0001

`name_contains` is a substring test; at 10 million companies reading every name took about a second
(docs/performance.md). PostgreSQL: pg_trgm's GIN index on `companies.name_norm` (the extension ships
with PostgreSQL's contrib modules and is a trusted extension). SQLite: an FTS5 table with the trigram
tokenizer over the same column, filled from the companies already there and kept in step by triggers
(`db/name_trigrams.py`).
"""

from __future__ import annotations

from alembic import op

revision = "0008_name_trigrams"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLE = "companies_name_trgm"
INDEX = "ix_companies_name_norm_trgm"
TRIGGERS = {
    f"{TABLE}_ai": f"CREATE TRIGGER {TABLE}_ai AFTER INSERT ON companies BEGIN "
    f"INSERT INTO {TABLE}(rowid, name_norm) VALUES (new.id, new.name_norm); END",
    f"{TABLE}_ad": f"CREATE TRIGGER {TABLE}_ad AFTER DELETE ON companies BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, name_norm) VALUES ('delete', old.id, old.name_norm); END",
    f"{TABLE}_au": f"CREATE TRIGGER {TABLE}_au AFTER UPDATE OF name_norm ON companies BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, name_norm) VALUES ('delete', old.id, old.name_norm); "
    f"INSERT INTO {TABLE}(rowid, name_norm) VALUES (new.id, new.name_norm); END",
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        # The pg_trgm search backend creates the same index under the same name.
        op.execute(f"CREATE INDEX IF NOT EXISTS {INDEX} ON companies USING gin (name_norm gin_trgm_ops)")
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(name_norm, content='companies', content_rowid='id', "
        "tokenize='trigram', detail='none')"
    )
    op.execute(f"INSERT INTO {TABLE}({TABLE}) VALUES ('rebuild')")
    for sql in TRIGGERS.values():
        op.execute(sql)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP INDEX IF EXISTS {INDEX}")
        return
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute(f"DROP TABLE IF EXISTS {TABLE}")
