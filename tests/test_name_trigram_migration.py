"""Migration 0009 on a SQLite database that already holds companies (0008's external-content trigram
table): the table is refilled with its own copy of the names, keyed in name order and tagged by
country; its triggers follow later writes; the downgrade gives 0008's table back."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from regintel.db.engine import make_engine
from regintel.db.migrate import alembic_config, upgrade
from regintel.db.name_trigrams import FTS_TABLE, ID_BITS, trigram_query

ROWS = [
    ("SK", "Nord Bau", "nord bau"),
    ("CZ", "Alpha Nord", "alpha nord"),
    ("FR", "Zeta", "zeta"),
    ("FR", "Nordica", "nordica"),
]
INSERT = (
    "INSERT INTO companies (country, national_id, name, name_norm, source, created_at, updated_at) "
    "VALUES (:cc, :nid, :name, :norm, 'test', '2026-01-01', '2026-01-01')"
)


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'existing.db'}", pool=False)  # the trigram table is SQLite's
    upgrade(engine, "0008_name_trigrams")
    with engine.begin() as conn:
        for i, (cc, name, norm) in enumerate(ROWS):
            conn.execute(text(INSERT), {"cc": cc, "nid": str(i), "name": name, "norm": norm})
    upgrade(engine)
    yield engine
    engine.dispose()


def _matches(conn, term: str, *countries: str) -> list[str]:  # noqa: ANN001
    """Names of the candidates, in the table's (name key) order."""
    return [
        r[0]
        for r in conn.execute(
            text(
                f"SELECT c.c0 FROM {FTS_TABLE} t JOIN {FTS_TABLE}_content c ON c.id = t.rowid "
                f"WHERE {FTS_TABLE} MATCH :q ORDER BY t.rowid"
            ),
            {"q": trigram_query(term, countries)},
        )
    ]


def _check(conn) -> None:  # noqa: ANN001
    conn.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('integrity-check')"))
    ids = (
        conn.execute(text(f"SELECT rowid & {(1 << ID_BITS) - 1} FROM {FTS_TABLE} ORDER BY 1")).scalars().all()
    )
    assert ids == conn.execute(text("SELECT id FROM companies ORDER BY id")).scalars().all()


def test_existing_companies_are_keyed_in_name_order(engine):
    with engine.begin() as conn:
        _check(conn)
        assert _matches(conn, "nord") == ["alpha nord", "nord bau", "nordica"]
        assert _matches(conn, "nord", "FR") == ["nordica"]
        assert _matches(conn, "nord", "sk", "CZ") == ["alpha nord", "nord bau"]


def test_triggers_follow_inserts_renames_country_changes_and_deletions(engine):
    with engine.begin() as conn:
        conn.execute(text(INSERT), {"cc": "SK", "nid": "9", "name": "Konord", "norm": "konord"})
        conn.execute(
            text("UPDATE companies SET name_norm = 'beta nord', country = 'DE' WHERE name_norm = 'zeta'")
        )
        conn.execute(text("DELETE FROM companies WHERE name_norm = 'nord bau'"))
        _check(conn)
        assert _matches(conn, "nord") == ["alpha nord", "beta nord", "konord", "nordica"]
        assert _matches(conn, "nord", "DE") == ["beta nord"]


def test_company_ids_beyond_the_key_are_refused(engine):
    with pytest.raises(IntegrityError, match="beyond the name trigram key"), engine.begin() as conn:
        conn.execute(
            text(
                INSERT.replace("(country,", "(id, country,").replace("VALUES (", f"VALUES ({1 << ID_BITS}, ")
            ),
            {"cc": "SK", "nid": "big", "name": "Big", "norm": "big"},
        )


def test_downgrade_gives_back_the_external_content_table(engine):
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008_name_trigrams")
    with engine.begin() as conn:
        conn.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('integrity-check')"))
        found = (
            conn.execute(
                text(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :q"),
                {"q": trigram_query("nord")},
            )
            .scalars()
            .all()
        )
        assert len(found) == 3
