"""The `nace` filter reads every listed activity of a company with no primary one (ONRC's authorised
classes), and the primary alone of a company that has one; `company_activities` follows imports, and
migration 0035 fills it from what is stored."""

from __future__ import annotations

import json

import pytest
from alembic import command
from sqlalchemy import Engine, text

from regintel.areas.search import advanced_search
from regintel.db.engine import make_engine
from regintel.db.migrate import alembic_config, upgrade
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_envelope

URL = "/api/v1/companies/advanced-search"
# A Romanian trader as ONRC lists it: authorised classes, no main one.
TRADER = CompanyRecord(
    country="RO", national_id="18547290", name="Alfa Soft SRL", nace_codes=["62.01", "47.11"]
)
# A primary activity decides for a company that has one, whatever else it lists.
SHOP = CompanyRecord(
    country="RO",
    national_id="18547303",
    name="Magazin Beta SRL",
    nace_primary="47.11",
    nace_codes=["47.11", "62.01"],
)
NONE = CompanyRecord(country="RO", national_id="18547311", name="Gamma SRL")


def found(client, auth, nace: str | list[str]) -> set[str]:
    resp = client.get(URL, params={"nace": nace, "country": "ro", "per_page": 100}, headers=auth)
    return {c["nationalId"] for c in assert_envelope(resp)}


CASES = [
    ("62", {"18547290"}),
    ("J", {"18547290"}),
    ("62.01", {"18547290"}),
    ("47.11", {"18547290", "18547303"}),
    ("G", {"18547290", "18547303"}),
    (["C", "62"], {"18547290"}),
    ("C", set()),
    ("10.71", set()),
]


def activities(engine: Engine) -> set[tuple[str, str]]:
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT c.national_id, a.nace_digits FROM company_activities a "
                "JOIN companies c ON c.id = a.company_id"
            )
        )
        return {(nid, digits) for nid, digits in rows}


@pytest.mark.parametrize("walk", [False, True])
def test_listed_activities_find_a_company_without_a_primary(client, auth, engine, monkeypatch, walk):
    load_companies(engine, TRADER, SHOP, NONE)
    if walk:  # the plan that walks the sort index tests each row instead
        monkeypatch.setattr(advanced_search, "WALK_MIN", 1)
        monkeypatch.setattr(advanced_search, "_size", lambda conn: 0)
    assert {str(n): found(client, auth, n) for n, _ in CASES} == {str(n): e for n, e in CASES}


def test_the_rows_follow_the_imports(client, auth, engine):
    load_companies(engine, TRADER, SHOP, NONE)
    # The shop's primary activity is found through the companies' own index: no rows for it.
    assert activities(engine) == {("18547290", "6201"), ("18547290", "4711")}
    again = load_companies(engine, TRADER, SHOP, NONE)
    assert again.updated == 0 and len(activities(engine)) == 2

    moved = CompanyRecord(country="RO", national_id="18547290", name="Alfa Soft SRL", nace_codes=["10.71"])
    load_companies(engine, moved)
    assert activities(engine) == {("18547290", "1071")}
    assert found(client, auth, "62") == set()
    assert found(client, auth, "10") == {"18547290"}

    ranked = CompanyRecord(
        country="RO", national_id="18547290", name="Alfa Soft SRL", nace_primary="10.71", nace_codes=["10.71"]
    )
    load_companies(engine, ranked)  # a primary activity now: its listed rows go
    assert activities(engine) == set()
    assert found(client, auth, "10") == {"18547290"}


@pytest.fixture(params=["sqlite", "pg"])
def older(request, tmp_path):  # noqa: ANN001
    """A database as a checkout before migration 0035 left it, with activities stored on companies."""
    if request.param == "pg":
        url = request.getfixturevalue("database_url")
        if not url.startswith("postgresql"):
            pytest.skip("PostgreSQL is not configured")
    else:
        url = f"sqlite:///{tmp_path / 'o.db'}"
    engine = make_engine(url, pool=False)
    upgrade(engine)
    insert = text(
        "INSERT INTO companies (country, national_id, name, name_norm, nace_primary, nace_codes, source, "
        "created_at, updated_at) VALUES ('RO', :nid, :nid, :nid, :primary, :codes, 'test', "
        "'2026-01-01', '2026-01-01')"
    )
    with engine.begin() as conn:
        cfg = alembic_config()
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0032_names_other_scripts")  # 0035 revises it
        for nid, primary, codes in [
            ("1", None, ["62.01", "47.11", "", "62.01"]),
            ("2", "47.11", ["47.11", "62.01"]),
            ("3", "62.01Z", None),
            ("4", None, {"not": "a list"}),
            ("5", None, [7, None]),
        ]:
            conn.execute(insert, {"nid": nid, "primary": primary, "codes": json.dumps(codes)})
    upgrade(engine)
    yield engine
    engine.dispose()


def test_the_migration_fills_the_table_from_what_is_stored(older):
    assert activities(older) == {("1", "6201"), ("1", "4711")}
