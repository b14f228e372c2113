"""Migration 0010 on a PostgreSQL database that already holds companies: the name table is filled in
name order, its triggers follow inserts, renames, country changes, deletions and TRUNCATE (and leave
it alone when an update does not touch the name), and the downgrade gives 0008's GIN index back."""

from __future__ import annotations

import uuid

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from regintel.db.engine import make_engine, normalise_url
from regintel.db.migrate import alembic_config, upgrade
from tests.conftest import PG_URL

pytestmark = pytest.mark.skipif(not PG_URL, reason="PostgreSQL only (set REGINTEL_TEST_POSTGRES_URL)")

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
TABLE = "companies_name_trgm"


@pytest.fixture
def engine():
    server = make_url(normalise_url(PG_URL))
    name = f"regintel_test_0010_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine = make_engine(server.set(database=name).render_as_string(hide_password=False), pool=False)
    try:
        upgrade(engine, "0009_name_trigram_content")
        with engine.begin() as conn:
            for i, (cc, label, norm) in enumerate(ROWS):
                conn.execute(text(INSERT), {"cc": cc, "nid": str(i), "name": label, "norm": norm})
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _matches(conn, term: str, *countries: str) -> list[str]:  # noqa: ANN001
    where = " AND country = ANY(:cc)" if countries else ""
    return list(
        conn.execute(
            text(f"SELECT name_norm FROM {TABLE} WHERE name_norm LIKE :t{where} ORDER BY name_norm"),
            {"t": f"%{term}%", "cc": list(countries)},
        ).scalars()
    )


def _in_step(conn) -> bool:  # noqa: ANN001
    copy = conn.execute(text(f"SELECT id, country, name_norm FROM {TABLE} ORDER BY id")).all()
    return copy == conn.execute(text("SELECT id, country, name_norm FROM companies ORDER BY id")).all()


def test_existing_companies_are_copied_in_name_order(engine):
    with engine.begin() as conn:
        assert _in_step(conn)
        # Physical order is name order: the fill sorted them.
        assert conn.execute(text(f"SELECT name_norm FROM {TABLE} ORDER BY ctid")).scalars().all() == sorted(
            r[2] for r in ROWS
        )
        assert _matches(conn, "nord") == ["alpha nord", "nord bau", "nordica"]
        assert _matches(conn, "nord", "FR") == ["nordica"]
        assert conn.execute(text("SELECT to_regclass('ix_companies_name_norm_trgm')")).scalar() is None


def test_triggers_follow_every_write(engine):
    with engine.begin() as conn:
        conn.execute(text(INSERT), {"cc": "SK", "nid": "9", "name": "Konord", "norm": "konord"})
        conn.execute(
            text("UPDATE companies SET name_norm = 'beta nord', country = 'DE' WHERE name_norm = 'zeta'")
        )
        conn.execute(text("DELETE FROM companies WHERE name_norm = 'nord bau'"))
        assert _in_step(conn)
        assert _matches(conn, "nord") == ["alpha nord", "beta nord", "konord", "nordica"]
        assert _matches(conn, "nord", "DE") == ["beta nord"]
        # An update that leaves id, country and name alone does not rewrite the name table's row.
        before = conn.execute(text(f"SELECT ctid FROM {TABLE} WHERE name_norm = 'konord'")).scalar_one()
        conn.execute(
            text("UPDATE companies SET status = 'dissolved', name_norm = name_norm WHERE name = 'Konord'")
        )
        assert (
            conn.execute(text(f"SELECT ctid FROM {TABLE} WHERE name_norm = 'konord'")).scalar_one() == before
        )
        conn.execute(text("TRUNCATE companies CASCADE"))
        assert conn.execute(text(f"SELECT count(*) FROM {TABLE}")).scalar_one() == 0


def test_downgrade_gives_back_the_gin_index_on_companies(engine):
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0009_name_trigram_content")
    with engine.begin() as conn:
        assert conn.execute(text(f"SELECT to_regclass('{TABLE}')")).scalar() is None
        assert conn.execute(text("SELECT to_regclass('ix_companies_name_norm_trgm')")).scalar() is not None
        conn.execute(
            text(INSERT), {"cc": "SK", "nid": "10", "name": "Later", "norm": "later"}
        )  # no trigger left
