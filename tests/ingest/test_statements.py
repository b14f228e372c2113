"""StatementRecord in the shared loader: company by key or stored identifier, header and figures merged."""

from __future__ import annotations

from decimal import Decimal

import pytest
from sqlalchemy import func, select

from regintel.db.schema import company_changes, financial_statements
from regintel.domain.types import CompanyRecord, FinancialRecord, StatementRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.loader import Loader

INFO = SourceInfo(
    id="test_statements",
    name="Test",
    publisher="Tests",
    country="SK",
    category="financials",
    formats="records",
    licence="CC0",
    attribution="tests",
    url="file:",
    cadence="on-demand",
)


def unit():
    return CompanyRecord(
        country="SK", national_id="50826042", name="UOL SK s.r.o.", identifiers=[("ruz_id", "1689373")]
    )


def header(**where):
    fin = FinancialRecord(
        2018,
        "EUR",
        period_from="2018-01",
        period_to="2018-12",
        statement_type="ordinary",
        source_record_id="2417702",
    )
    return StatementRecord(country="SK", financials=[fin], **(where or {"ref": ("ruz_id", "1689373")}))


def figures(**where):
    fin = FinancialRecord(
        2018, "EUR", revenue=Decimal("218450"), profit=Decimal("25420"), source_record_id="2417702"
    )
    return StatementRecord(country="SK", financials=[fin], **(where or {"national_id": "50826042"}))


def load(engine, records, batch_size=1):
    loader = Loader(engine, INFO, batch_size=batch_size, on_changes=[])
    for rec in records:
        loader.add(rec)
    loader.flush()
    return loader.stats


def stored(engine):
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(financial_statements)).mappings()]


@pytest.mark.parametrize(
    "order, batch_size", [("header first", 1), ("figures first", 1), ("header first", 100)]
)
def test_header_and_figures_merge(engine, order, batch_size):
    parts = [header(), figures()] if order == "header first" else [figures(), header()]
    stats = load(engine, [unit(), *parts], batch_size)
    assert (stats.inserted, stats.updated, stats.rejected) == (2, 1, 0)
    [row] = stored(engine)
    assert (
        row["period_from"],
        row["statement_type"],
        row["revenue"],
        row["profit"],
        row["total_assets"],
    ) == ("2018-01", "ordinary", Decimal("218450"), Decimal("25420"), None)
    with engine.connect() as conn:
        logged = conn.execute(select(func.count()).select_from(company_changes)).scalar()
    again = load(engine, [unit(), *parts], batch_size)
    assert (again.inserted, again.updated, again.unchanged, again.changes) == (0, 0, 3, 0)
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(company_changes)).scalar() == logged


def test_unresolved_companies_are_rejected(engine):
    load(engine, [unit()])
    stats = load(
        engine,
        [
            header(ref=("ruz_id", "999")),
            figures(national_id="50826043"),
            figures(national_id="31322832"),
            StatementRecord(country="SK", financials=[]),
        ],
    )
    assert (stats.inserted, stats.rejected) == (0, 4)
    assert stats.reasons == {
        "statement of a company that is not in the database": 2,
        "invalid identifier": 1,
        "statement names no company": 1,
    }
    assert stored(engine) == []
