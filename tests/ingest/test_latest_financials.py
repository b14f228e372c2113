"""`latest_financials` follows `financial_statements` through the triggers of migration 0004_filters,
whichever write path the statements take (the loader here), on both backends."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from sqlalchemy import delete, select

from regintel.db.schema import financial_statements, latest_financials
from regintel.domain.types import CompanyRecord, FinancialRecord
from tests.builders import TEST_SOURCE, load_companies

OTHER = replace(TEST_SOURCE, id="other_register", name="Other register")


def company(*financials: FinancialRecord) -> CompanyRecord:
    return CompanyRecord(
        country="SK", national_id="31322832", name="SLOVNAFT, a.s.", financials=list(financials)
    )


def latest(engine) -> dict | None:
    with engine.connect() as conn:
        row = conn.execute(select(latest_financials)).mappings().first()
    return None if row is None else {k: row[k] for k in ("country", "year", "currency", "revenue", "source")}


def test_latest_statement_is_kept_current(engine):
    load_companies(engine, company(FinancialRecord(2022, "EUR", revenue=Decimal(100))))
    assert latest(engine) == {
        "country": "SK",
        "year": 2022,
        "currency": "EUR",
        "revenue": Decimal(100),
        "source": "test_register",
    }
    load_companies(engine, company(FinancialRecord(2023, "EUR", revenue=Decimal(200))))
    assert latest(engine)["year"] == 2023
    load_companies(engine, company(FinancialRecord(2021, "EUR", revenue=Decimal(50))))  # older: no change
    assert latest(engine)["revenue"] == Decimal(200)
    load_companies(engine, company(FinancialRecord(2023, "EUR", revenue=Decimal(250))))  # restated
    assert latest(engine)["revenue"] == Decimal(250)
    load_companies(engine, company(FinancialRecord(2023, "EUR", revenue=Decimal(260))), source=OTHER)
    assert latest(engine) == {
        "country": "SK",
        "year": 2023,
        "currency": "EUR",
        "revenue": Decimal(260),
        "source": "other_register",
    }  # same year: the last written


def test_deleting_statements(engine):
    load_companies(
        engine,
        company(
            FinancialRecord(2022, "EUR", revenue=Decimal(1)), FinancialRecord(2023, "EUR", revenue=Decimal(2))
        ),
    )
    with engine.begin() as conn:
        conn.execute(delete(financial_statements).where(financial_statements.c.year == 2023))
    assert latest(engine)["year"] == 2022
    with engine.begin() as conn:
        conn.execute(delete(financial_statements))
    assert latest(engine) is None
