"""A real build on the test database (SQLite, and PostgreSQL when configured), checked through SQL
and through the company endpoint."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from schwifty import IBAN
from sqlalchemy import Engine, inspect, text
from stdnum import iban as std_iban
from stdnum import lei as std_lei

from regintel.db.engine import make_engine
from regintel.db.migrate import upgrade
from regintel.domain.identifiers import MARKETS, parse_identifier, parse_national_id, parse_vat
from regintel.domain.names import normalise_address, normalise_name
from regintel.ingest.sections import person_key
from regintel.synth.build import SynthRefused, build
from tests.builders import make_company
from tests.helpers import assert_envelope

N = 2_000
CURRENCY = {
    "CZ": {"CZK"},
    "PL": {"PLN"},
    "GB": {"GBP"},
    "NO": {"NOK"},
    "CH": {"CHF"},
    "RO": {"RON"},
    "UA": {"UAH"},
    "HR": {"EUR", "HRK"},
}


def rows(engine: Engine, sql: str) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(text(sql)))


@pytest.fixture
def built(engine: Engine) -> Engine:
    result = build(engine, N, seed=17, workers=2)
    assert (result.entities, result.start, result.rows["companies"]) == (N, 0, N)
    return engine


def test_markets_states_and_invariant(built: Engine) -> None:
    assert {r[0] for r in rows(built, "SELECT DISTINCT country FROM companies")} == set(MARKETS)
    flags = rows(
        built,
        "SELECT sum(CASE WHEN in_bankruptcy THEN 1 ELSE 0 END), "
        "sum(CASE WHEN in_restructuring THEN 1 ELSE 0 END), "
        "sum(CASE WHEN in_liquidation THEN 1 ELSE 0 END), "
        "sum(CASE WHEN in_bankruptcy AND in_restructuring THEN 1 ELSE 0 END), "
        "sum(CASE WHEN status = 'dissolved' THEN 1 ELSE 0 END) FROM companies",
    )[0]
    bankrupt, restructuring, liquidation, both, dissolved = flags
    assert both == 0 and bankrupt > 0 and restructuring > 0 and liquidation > 0 and dissolved > 0


def test_identifiers_are_valid(built: Engine) -> None:
    for country, nid, vat, tax, lei in rows(
        built, "SELECT country, national_id, vat_id, tax_id, lei FROM companies"
    ):
        assert parse_national_id(country, nid) == nid
        assert vat is None or parse_vat(vat) == vat
        assert tax is None or parse_identifier("dic", tax) == tax
        assert lei is None or std_lei.is_valid(lei)
    ibans = [r[0] for r in rows(built, "SELECT value FROM identifiers WHERE type = 'iban'")]
    assert len(ibans) > N // 3
    for value in ibans:
        assert std_iban.is_valid(value)
        IBAN(value, validate_bban=True)
    kinds = {
        (r[0], r[1])
        for r in rows(
            built,
            "SELECT DISTINCT c.country, i.type FROM identifiers i JOIN companies c ON c.id = i.company_id",
        )
    }
    assert {
        ("SK", "ico"),
        ("CZ", "ico"),
        ("SK", "ic_dph"),
        ("SK", "dic"),
        ("FR", "vat"),
        ("FR", "lei"),
    } <= kinds
    icos = rows(
        built,
        "SELECT count(*) FROM companies c WHERE country IN ('SK', 'CZ') AND NOT EXISTS "
        "(SELECT 1 FROM identifiers i WHERE i.company_id = c.id AND i.type = 'ico')",
    )
    assert icos[0][0] == 0


def test_normal_forms_match_the_domain(built: Engine) -> None:
    for name, norm, address, address_norm in rows(
        built, "SELECT name, name_norm, address_text, address_norm FROM companies"
    ):
        assert norm == normalise_name(name)
        assert address_norm == normalise_address(address)
    for key, name, norm, birth, nationality in rows(
        built, "SELECT person_key, name, name_norm, birth_date, nationality FROM people"
    ):
        assert norm == normalise_name(name)
        assert key == person_key(name, birth, nationality)


def test_ownership_chains_and_cycles(built: Engine) -> None:
    children: dict[int, list[int]] = defaultdict(list)
    for parent, child in rows(built, "SELECT parent_id, child_id FROM ownerships"):
        children[parent].append(child)
    on_cycle = [p for p in list(children) if _reaches(children, p, p)]
    assert on_cycle
    held = rows(
        built, "SELECT count(*) FROM roles WHERE role = 'shareholder' AND holder_company_id IS NOT NULL"
    )
    assert held[0][0] == sum(len(v) for v in children.values())


def _reaches(children: dict[int, list[int]], start: int, goal: int) -> bool:
    stack, seen = list(children.get(start, [])), set()
    while stack:
        node = stack.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            stack.extend(children.get(node, []))
    return False


def test_statements_and_derived_latest(built: Engine) -> None:
    per_company = rows(
        built,
        "SELECT c.country, f.company_id, count(*), min(f.currency), max(f.currency) "
        "FROM financial_statements f JOIN companies c ON c.id = f.company_id "
        "GROUP BY c.country, f.company_id",
    )
    assert len(per_company) > N * 0.8
    for country, _, count, low, high in per_company:
        assert 1 <= count <= 5
        assert {low, high} <= CURRENCY.get(country, {"EUR"})
    if "latest_financials" in inspect(built).get_table_names():  # derived by triggers (migration 0004)
        latest = rows(
            built,
            "SELECT count(*) FROM latest_financials l JOIN financial_statements f "
            "ON f.id = l.statement_id AND f.year = l.year",
        )
        assert latest[0][0] == len(per_company)


def test_every_reference_resolves(built: Engine) -> None:
    """The fresh SQLite build writes with foreign-key checks off: the generator's ids must hold."""
    from regintel.synth.writers import WRITTEN

    inspector = inspect(built)
    checked = 0
    for table in WRITTEN:
        for fk in inspector.get_foreign_keys(table):
            (column,), (target,) = fk["constrained_columns"], fk["referred_columns"]
            orphans = rows(
                built,
                f"SELECT count(*) FROM {table} t WHERE t.{column} IS NOT NULL AND NOT EXISTS "
                f"(SELECT 1 FROM {fk['referred_table']} r WHERE r.{target} = t.{column})",
            )
            assert orphans == [(0,)], (table, column)
            checked += 1
    assert checked >= 8
    if built.dialect.name == "sqlite":
        assert rows(built, "PRAGMA foreign_key_check") == []


def test_people_and_roles(built: Engine) -> None:
    counts = dict(rows(built, "SELECT role, count(*) FROM roles GROUP BY role"))
    assert counts["director"] >= N and counts["beneficial_owner"] >= N and counts["shareholder"] > N // 2
    busiest = rows(
        built,
        "SELECT max(n) FROM (SELECT person_id, count(*) AS n FROM roles "
        "WHERE role = 'director' GROUP BY person_id) t",
    )
    assert busiest[0][0] >= 5  # a few people direct many companies


def test_catalogue_refusal_append_and_ids_after(built: Engine) -> None:
    source = rows(built, "SELECT category, row_count FROM data_sources WHERE id = 'synthetic'")
    assert source == [("synthetic", N)]
    assert rows(built, "SELECT status FROM import_runs WHERE source = 'synthetic'") == [("succeeded",)]
    with pytest.raises(SynthRefused):
        build(built, 10, seed=17)
    with pytest.raises(SynthRefused):
        build(built, 10, seed=18, append=True)
    result = build(built, 500, seed=17, append=True, workers=0)
    assert (result.start, result.rows["companies"]) == (N, N + 500)
    assert (
        rows(built, "SELECT count(*), count(DISTINCT country || national_id) FROM companies")[0]
        == (N + 500,) * 2
    )
    make_company(built, national_id="35757442")  # the loader still gets fresh ids afterwards
    assert rows(built, "SELECT count(*) FROM companies")[0][0] == N + 501


def test_company_endpoint(built: Engine, app_factory: Any, make_key: Any) -> None:
    client = app_factory()
    if "/api/v1/companies/{country}/{national_id}" not in client.app.openapi()["paths"]:
        pytest.skip("the company endpoint is not there yet")
    auth = {"Authorization": f"Bearer {make_key('business')}"}
    for country, nid, name in rows(
        built, "SELECT country, national_id, name FROM companies WHERE id IN (1, 7, 42)"
    ):
        data = assert_envelope(client.get(f"/api/v1/companies/{country.lower()}/{nid}", headers=auth))
        assert (data["country"], data["nationalId"], data["name"]) == (country, nid, name)


def test_same_seed_builds_identical_databases(tmp_path: Path) -> None:
    dumps = []
    for name, workers in (("a.db", 0), ("b.db", 2)):
        engine = make_engine(f"sqlite:///{tmp_path / name}", pool=False)
        upgrade(engine)
        build(engine, 1_200, seed=3, workers=workers)
        dumps.append(
            {
                table: rows(engine, f"SELECT * FROM {table} ORDER BY 1, 2, 3")
                for table in ("people", "roles", "ownerships", "financial_statements", "identifiers")
            }
            | {"companies": [r[:-2] for r in rows(engine, "SELECT * FROM companies ORDER BY id")]}
        )
        engine.dispose()
    assert dumps[0] == dumps[1]


def test_postgres_build_leaves_planner_statistics(built: Engine) -> None:
    if built.dialect.name != "postgresql":
        pytest.skip("SQLite reads are planned by hints, not statistics")
    analysed = {
        r[0] for r in rows(built, "SELECT relname FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL")
    }
    assert {"companies", "identifiers", "people", "roles", "financial_statements"} <= analysed
    plan = " ".join(
        r[0] for r in rows(built, "EXPLAIN SELECT id FROM companies WHERE lei = 'X' ORDER BY id LIMIT 1")
    )
    assert "ix_companies_lei" in plan and "pk_companies" not in plan


def test_activities_are_derived_as_the_loader_derives_them(built: Engine) -> None:
    """Every generated company has a primary activity, so none has listed-activity rows, as the loader
    would write none for it."""
    import json

    from regintel.ingest.sections import activity_digits

    stored: dict[int, set[str]] = defaultdict(set)
    for cid, digits in rows(built, "SELECT company_id, nace_digits FROM company_activities"):
        stored[cid].add(digits)
    companies = rows(built, "SELECT id, nace_primary, nace_codes FROM companies")
    expected = {}
    for cid, primary, codes in companies:
        listed = json.loads(codes) if isinstance(codes, str) else codes
        if derived := activity_digits(primary, listed):
            expected[cid] = set(derived)
    assert len(companies) >= N
    assert dict(stored) == expected
