"""Loading the code lists into the database: idempotent, versioned, and repaired when damaged."""

from __future__ import annotations

from sqlalchemy import delete, func, select

from regintel.db import code_lists as db
from regintel.db.schema import code_list_items
from regintel.domain.code_lists import CATALOGUE
from regintel.ingest.code_lists import data_version, load_code_lists
from regintel.ingest.seed import seed_reference_data


def stored_counts(engine) -> dict[str, int]:
    with engine.connect() as conn:
        return dict(
            conn.execute(
                select(code_list_items.c.list_name, func.count()).group_by(code_list_items.c.list_name)
            ).all()
        )


def test_seed_loads_once_then_skips(engine):
    seed_reference_data(engine)
    with engine.begin() as conn:
        assert db.is_current(conn, CATALOGUE, data_version())
        assert load_code_lists(conn) is False
    with engine.connect() as conn:
        lists = db.list_code_lists(conn)
    assert {i.name for i in lists} == set(CATALOGUE)
    assert {i.name: i.item_count for i in lists} == stored_counts(engine)
    assert all(i.version == data_version() and not i.description.endswith(i.version) for i in lists)


def test_damage_or_an_old_version_trigger_a_reload_that_replaces(engine):
    seed_reference_data(engine)
    before = stored_counts(engine)
    with engine.begin() as conn:
        conn.execute(
            delete(code_list_items).where(
                code_list_items.c.list_name == "districts", code_list_items.c.code == "101"
            )
        )
        assert not db.is_current(conn, CATALOGUE, data_version())
    seed_reference_data(engine)
    assert stored_counts(engine) == before
    with engine.begin() as conn:
        assert not db.is_current(conn, CATALOGUE, "0" * 16)
        assert db.find_item(conn, "districts", "101").name_sk == "Bratislava I"
        # A forced load replaces every row instead of adding to them.
        assert load_code_lists(conn, force=True) is True
    assert stored_counts(engine) == before
