"""Inserting a batch's new companies, and on SQLite their rows of the name trigram table in one pass.

On SQLite the trigger `companies_name_trgm_ai` (db/name_trigrams.py) writes one FTS5 row per company
insert, in id order, so the FTS5 table takes them in random key order: 33 us of the 82 us a new
company cost in a profile of the ro_onrc import (30,000 records). Here the trigger is dropped for the
batch's insert, the batch's trigram rows are written by one INSERT ... SELECT in key order (which
FTS5 appends fastest) and the trigger is created again from its own stored SQL, all in the batch's
transaction: other connections never see `companies` without it, and a batch that fails rolls the
drop back with the rows. The trigger's refusal of ids beyond the key is kept here.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from regintel.db.engine import insert_returning, is_sqlite
from regintel.db.name_trigrams import FTS_TABLE, ID_BITS, country_tag_sql, key_sql
from regintel.db.schema import companies

INSERT_TRIGGER = f"{FTS_TABLE}_ai"
RETURNING = ("id", "country", "national_id")
FILL = (
    f"INSERT INTO {FTS_TABLE}(rowid, name_norm, country) SELECT {key_sql('name_norm', 'id')} AS k, "
    f"name_norm, {country_tag_sql('country')} FROM companies "
    "WHERE id IN (SELECT value FROM json_each(?)) ORDER BY k"
)


def insert_companies(conn: Connection, rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Insert company rows (all of one dict shape); (id, country, national_id) of each, in no order."""
    if not rows or not is_sqlite(conn):
        return insert_returning(conn, companies, rows, RETURNING)  # PostgreSQL's triggers are per statement
    trigger = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (INSERT_TRIGGER,)
    ).scalar()
    if trigger is None:  # a bulk writer dropped it and fills the table itself
        return insert_returning(conn, companies, rows, RETURNING)
    conn.exec_driver_sql(f'DROP TRIGGER "{INSERT_TRIGGER}"')
    out = insert_returning(conn, companies, rows, RETURNING)
    ids = [row[0] for row in out]
    if max(ids) >= 1 << ID_BITS:
        raise OverflowError("companies.id beyond the name trigram key")  # the trigger's RAISE(ABORT)
    conn.exec_driver_sql(FILL, ("[" + ",".join(map(str, ids)) + "]",))
    conn.exec_driver_sql(trigger)
    return out
