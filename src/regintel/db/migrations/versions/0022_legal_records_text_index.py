"""legal_records: the index behind `/justice/decisions?q=`

Revision ID: 0022_legal_records_text_index
Revises: 0018_legal_records

`q` is a substring test on `court_decisions.search_text` (folded words); reading every decision's words
took 536 ms at p95 at 100,000 decisions (docs/legal-records.md). PostgreSQL: pg_trgm's GIN index on the
column, which serves the `LIKE '%…%'` test itself. SQLite: an FTS5 table with the trigram tokenizer over
the same column (external content, no positions), kept in step by triggers; the query takes the decisions
holding every trigram of the words from it and runs the substring test on those only
(`areas/legal_records/queries.py`), so the answers stay exactly those of the substring test.
"""

from __future__ import annotations

from alembic import op

revision = "0022_legal_records_text_index"
down_revision = "0018_legal_records"
branch_labels = None
depends_on = None

TABLE = "court_decisions_text"
INDEX = "ix_court_decisions_search_trgm"
TRIGGERS = {
    f"{TABLE}_ai": f"CREATE TRIGGER {TABLE}_ai AFTER INSERT ON court_decisions BEGIN "
    f"INSERT INTO {TABLE}(rowid, search_text) VALUES (new.id, new.search_text); END",
    f"{TABLE}_ad": f"CREATE TRIGGER {TABLE}_ad AFTER DELETE ON court_decisions BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, search_text) VALUES ('delete', old.id, old.search_text); END",
    f"{TABLE}_au": f"CREATE TRIGGER {TABLE}_au AFTER UPDATE OF search_text ON court_decisions BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, search_text) VALUES ('delete', old.id, old.search_text); "
    f"INSERT INTO {TABLE}(rowid, search_text) VALUES (new.id, new.search_text); END",
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON court_decisions USING gin (search_text gin_trgm_ops)"
        )
        return
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(search_text, content='court_decisions', "
        "content_rowid='id', tokenize='trigram', detail='none')"
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
