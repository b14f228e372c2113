"""The shared loader on a real database: idempotence, change log, rejects, the insolvency invariant."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from regintel.db.schema import companies, company_changes, financial_statements, identifiers, people, roles
from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.loader import Loader

INFO = SourceInfo(
    id="test_register",
    name="Test",
    publisher="Tests",
    country="SK",
    category="register",
    formats="records",
    licence="CC0",
    attribution="tests",
    url="file:",
    cadence="on-demand",
)
SECONDARY = SourceInfo(**{**INFO.__dict__, "id": "test_secondary", "fill_only": True})


def slovnaft(**overrides):
    base = dict(
        country="sk",
        national_id="31 322 832",
        name="SLOVNAFT, a.s.",
        legal_form="121",
        city="Bratislava",
        street="Vlčie hrdlo 1",
        postal_code="82412",
        founded_on=date(1992, 4, 24),
        roles=[
            RoleRecord("director", "Ján Novák", person=PersonRecord("Ján Novák", "1970-05")),
            RoleRecord(
                "shareholder", "MOL Nyrt.", share_pct=100.0, holder_company=CompanyKey("HU", "01-10-041683")
            ),
        ],
        financials=[FinancialRecord(2023, "EUR", revenue=Decimal("4500000000.50"), employees=2800)],
    )
    base.update(overrides)
    return CompanyRecord(**base)


def load(engine, records, info=INFO):
    loader = Loader(engine, info, batch_size=2)
    for r in records:
        loader.add(r)
    loader.flush()
    return loader.stats


def test_insert_then_idempotent(engine):
    stats = load(engine, [slovnaft()])
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    stats = load(engine, [slovnaft()])
    assert (stats.inserted, stats.updated, stats.unchanged, stats.changes) == (0, 0, 1, 0)
    with engine.connect() as conn:
        row = conn.execute(select(companies)).mappings().one()
        assert row["national_id"] == "31322832" and row["country"] == "SK"
        assert row["name_norm"] == "slovnaft"
        assert conn.execute(select(func.count()).select_from(roles)).scalar() == 2
        assert conn.execute(select(func.count()).select_from(people)).scalar() == 1
        assert conn.execute(select(financial_statements.c.revenue)).scalar() == Decimal("4500000000.50")
        assert ("ico", "31322832") in {(r.type, r.value) for r in conn.execute(select(identifiers))}


def test_changes_are_logged_per_field(engine):
    load(engine, [slovnaft()])
    stats = load(engine, [slovnaft(name="Slovnaft, a.s.", city="Bratislava II", roles=[])])
    assert stats.updated == 1
    with engine.connect() as conn:
        fields = {r.field: (r.old_value, r.new_value) for r in conn.execute(select(company_changes))}
    assert fields["name"] == ("SLOVNAFT, a.s.", "Slovnaft, a.s.")
    assert fields["city"] == ("Bratislava", "Bratislava II")
    assert fields["roles"][1] == ""
    assert "created" in fields


def test_missing_fields_never_erase(engine):
    load(engine, [slovnaft()])
    stats = load(engine, [CompanyRecord(country="SK", national_id="31322832")])
    assert stats.unchanged == 1
    with engine.connect() as conn:
        assert conn.execute(select(companies.c.city)).scalar() == "Bratislava"


def test_fill_only_source_does_not_override(engine):
    load(engine, [slovnaft(lei=None)])
    load(
        engine,
        [
            CompanyRecord(
                country="SK", national_id="31322832", name="SLOVNAFT AS (GLEIF)", lei="097900BGCY0000006391"
            )
        ],
        info=SECONDARY,
    )
    with engine.connect() as conn:
        row = conn.execute(select(companies)).mappings().one()
    assert row["name"] == "SLOVNAFT, a.s." and row["lei"] == "097900BGCY0000006391"


@pytest.mark.parametrize(
    "record, reason",
    [
        (slovnaft(national_id="31322833"), "invalid identifier"),
        (slovnaft(national_id=""), "invalid identifier"),
        (slovnaft(country="XX1"), "invalid identifier"),
        (slovnaft(in_bankruptcy=True, in_restructuring=True), "bankruptcy and restructuring"),
        (CompanyRecord(country="SK", national_id="35757442"), "no name"),
    ],
)
def test_rejects(engine, record, reason):
    stats = load(engine, [record, RecordError("unreadable row")])
    assert stats.rejected == 2 and stats.inserted == 0
    assert any(reason in r for r in stats.reasons)


def test_bankruptcy_ends_restructuring(engine):
    load(engine, [slovnaft(in_restructuring=True)])
    load(engine, [slovnaft(in_bankruptcy=True)])
    with engine.connect() as conn:
        row = conn.execute(select(companies)).mappings().one()
    assert (row["in_bankruptcy"], row["in_restructuring"]) == (True, False)


def test_database_refuses_both_flags(engine):
    load(engine, [slovnaft()])
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(companies.update().values(in_bankruptcy=True, in_restructuring=True))


def test_an_older_snapshot_never_rolls_back(engine):
    load(engine, [slovnaft(published_on=date(2024, 2, 1), city="Bratislava II")])
    stats = load(engine, [slovnaft(published_on=date(2024, 1, 1), city="Bratislava")])
    assert stats.skipped == 1 and stats.changes == 0
    with engine.connect() as conn:
        assert conn.execute(select(companies.c.city)).scalar() == "Bratislava II"
    stats = load(engine, [slovnaft(published_on=date(2024, 3, 1), city="Bratislava III")])
    assert stats.updated == 1


def test_postgres_statistics_follow_a_growing_import(engine, monkeypatch):
    """PostgreSQL: the loader ANALYZEs as an import doubles what it wrote (no reliance on autovacuum)."""
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite reads are planned by hints, not statistics")
    from sqlalchemy import text

    from regintel.ingest import loader as loader_module
    from regintel.ingest.runner import sync_catalogue

    monkeypatch.setattr(loader_module, "ANALYSE_FIRST", 3)
    source = SourceInfo(
        id="t",
        name="T",
        publisher="p",
        country="SK",
        category="register",
        formats="x",
        licence="CC0",
        attribution="a",
        url="https://example.invalid",
        cadence="daily",
    )
    sync_catalogue(engine, [source])
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_stat_reset()"))
    loader = Loader(engine, source, batch_size=2)
    for i, ico in enumerate(["31322832", "35757442", "00151653", "36631124", "35697270"]):
        loader.add(CompanyRecord(country="SK", national_id=ico, name=f"Company {i}"))
    loader.flush()
    assert loader._analysed_at == 4  # after the second batch (4 written); 6 would be the next
    with engine.connect() as conn:
        analysed = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'companies' "
                "AND last_analyze IS NOT NULL"
            )
        ).scalar_one()
    assert analysed == 1
