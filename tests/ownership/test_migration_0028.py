"""Migration 0028_ownership_holder_names down and up again on the test backend (SQLite, or PostgreSQL
with REGINTEL_TEST_POSTGRES_URL): the three columns and their indexes come and go, the roles stay, and
the upgrade fills the normalised name of the holders known only by name."""

from __future__ import annotations

from alembic import command
from sqlalchemy import inspect, select, text

from regintel.db.migrate import alembic_config, upgrade
from regintel.db.schema import roles
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from tests.builders import load_companies

COLUMNS = {"holder_name_norm", "holder_reg_country", "holder_reg_number"}
INDEXES = {"ix_roles_holder_name_norm", "ix_roles_holder_reg_number"}


def _downgrade(engine) -> None:  # noqa: ANN001
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0028_ownership_holder_names@-2")  # 0033, then 0028


def _shape(engine) -> tuple[set[str], set[str]]:  # noqa: ANN001
    found = inspect(engine)
    return {c["name"] for c in found.get_columns("roles")}, {i["name"] for i in found.get_indexes("roles")}


def test_down_and_up_fills_names(engine):
    upgrade(engine)
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="35000007",
            name="TARGET s.r.o.",
            roles=[
                RoleRecord("shareholder", "Offshore Holdings, Ltd.", share_pct=80.0),
                RoleRecord("director", "Ján Kováč", person=PersonRecord("Ján Kováč")),
            ],
        ),
    )
    _downgrade(engine)
    columns, indexes = _shape(engine)
    assert not COLUMNS & columns and not INDEXES & indexes and "holder_name" in columns
    upgrade(engine)
    columns, indexes = _shape(engine)
    assert COLUMNS <= columns and INDEXES <= indexes
    with engine.connect() as conn:
        got = dict(conn.execute(select(roles.c.holder_name, roles.c.holder_name_norm)).all())
        version = set(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
    # Only a holder known by name gets one (a person is found through `people.name_norm`).
    assert got == {"Offshore Holdings, Ltd.": "offshore holdings", "Ján Kováč": None}
    assert "0033_ownership_holder_spelling" in version  # the head of its branch, on top of 0028
