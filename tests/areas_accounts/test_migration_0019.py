"""Migration 0019_accounts_passes up, down and up again on the test backend (SQLite, or PostgreSQL with
REGINTEL_TEST_POSTGRES_URL): the two tables and the request's two columns come and go, the rest stays."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect

from regintel.db.migrate import alembic_config, upgrade


def _downgrade(engine, revision: str) -> None:  # noqa: ANN001
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, revision)


def _shape(engine) -> tuple[set[str], set[str]]:  # noqa: ANN001
    found = inspect(engine)
    tables = set(found.get_table_names())
    return tables, {c["name"] for c in found.get_columns("privacy_requests")}


def test_up_down_up(engine):
    upgrade(engine)
    tables, columns = _shape(engine)
    assert {"account_passes", "privacy_person_suppressions"} <= tables and {
        "person_name",
        "person_keys",
    } <= columns
    _downgrade(engine, "0019_accounts_passes@0018_accounts_finish")
    tables, columns = _shape(engine)
    assert not {"account_passes", "privacy_person_suppressions"} & tables
    assert not {"person_name", "person_keys"} & columns and "outcome" in columns and "accounts" in tables
    upgrade(engine)
    assert {"account_passes", "privacy_person_suppressions"} <= _shape(engine)[0]
