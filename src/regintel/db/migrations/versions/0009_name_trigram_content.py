"""name trigram content: the SQLite trigram table keeps its own copy of the names

Revision ID: 0009_name_trigram_content
Revises: 0008_name_trigrams

SQLite: `companies_name_trgm` (0008) was an FTS5 table with external content (`content='companies'`):
it held the trigrams only, so testing the substring on a candidate, and counting the matches, read
that candidate's row of `companies`, a random read in the largest table (10M companies: 30 GB).
The table now stores the names itself (a few tens of bytes a row), so the substring test and the
count read a compact table and `companies` is read only for the other filters and the page's rows.
A second column tags each name with its country (`fr$`), so that `name_contains` with `country` is
one doclist intersection. The rowid becomes a name key (the first five characters of the name above
the company id): candidates come out in name order, and a page in name order stops after its
matches (`db/name_trigrams.py`). On an existing database the table is filled from `companies` in
one pass (1M companies: 9 s).

PostgreSQL: unchanged (pg_trgm's GIN index on `companies.name_norm` stays).
"""

from __future__ import annotations

from alembic import op

revision = "0009_name_trigram_content"
down_revision = "0008_name_trigrams"
branch_labels = None
depends_on = None

TABLE = "companies_name_trgm"
ID_BITS = 27


def key(row: str) -> str:
    """The rowid of a company in the table (as `db.name_trigrams.key_sql`, frozen here)."""
    chars = [
        f"(coalesce(min(unicode(substr({row}.name_norm, {i + 1}, 1)), 127), 0) << {ID_BITS + 7 * (4 - i)})"
        for i in range(5)
    ]
    return "(" + " | ".join([*chars, f"{row}.id"]) + ")"


INSERT = (
    f"SELECT RAISE(ABORT, 'companies.id beyond the name trigram key') WHERE new.id >= {1 << ID_BITS}; "
    f"INSERT INTO {TABLE}(rowid, name_norm, country) VALUES ({key('new')}, new.name_norm, "
    "lower(new.country) || '$')"
)
TRIGGERS = {
    f"{TABLE}_ai": f"CREATE TRIGGER {TABLE}_ai AFTER INSERT ON companies BEGIN {INSERT}; END",
    f"{TABLE}_ad": f"CREATE TRIGGER {TABLE}_ad AFTER DELETE ON companies BEGIN "
    f"DELETE FROM {TABLE} WHERE rowid = {key('old')}; END",
    f"{TABLE}_au": f"CREATE TRIGGER {TABLE}_au AFTER UPDATE OF id, name_norm, country ON companies BEGIN "
    f"DELETE FROM {TABLE} WHERE rowid = {key('old')}; {INSERT}; END",
}
# 0008's external-content table and triggers, for the downgrade.
OLD_TRIGGERS = {
    f"{TABLE}_ai": f"CREATE TRIGGER {TABLE}_ai AFTER INSERT ON companies BEGIN "
    f"INSERT INTO {TABLE}(rowid, name_norm) VALUES (new.id, new.name_norm); END",
    f"{TABLE}_ad": f"CREATE TRIGGER {TABLE}_ad AFTER DELETE ON companies BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, name_norm) VALUES ('delete', old.id, old.name_norm); END",
    f"{TABLE}_au": f"CREATE TRIGGER {TABLE}_au AFTER UPDATE OF name_norm ON companies BEGIN "
    f"INSERT INTO {TABLE}({TABLE}, rowid, name_norm) VALUES ('delete', old.id, old.name_norm); "
    f"INSERT INTO {TABLE}(rowid, name_norm) VALUES (new.id, new.name_norm); END",
}


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    _drop()
    # `columnsize=0`: no per-row token counts (they serve only bm25 ranking, which this table never does).
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(name_norm, country, tokenize='trigram', detail='none', "
        "columnsize=0)"
    )
    # In rowid order, which FTS5 appends fastest.
    op.execute(
        f"INSERT INTO {TABLE}(rowid, name_norm, country) SELECT {key('companies')} AS k, name_norm, "
        "lower(country) || '$' FROM companies ORDER BY k"
    )
    for sql in TRIGGERS.values():
        op.execute(sql)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    _drop()
    op.execute(
        f"CREATE VIRTUAL TABLE {TABLE} USING fts5(name_norm, content='companies', content_rowid='id', "
        "tokenize='trigram', detail='none')"
    )
    op.execute(f"INSERT INTO {TABLE}({TABLE}) VALUES ('rebuild')")
    for sql in OLD_TRIGGERS.values():
        op.execute(sql)


def _drop() -> None:
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}")
    op.execute(f"DROP TABLE IF EXISTS {TABLE}")
