"""`regintel demo`: the bundled data loads, spans what the issue asks for, and is served over HTTP."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from regintel.db.schema import companies, financial_statements, lei_records, ownerships, people
from regintel.ingest.demo import load_demo
from tests.helpers import assert_envelope


@pytest.fixture
def demo(engine, settings):
    return load_demo(engine, settings.data_dir)


def scalar(engine, query):
    with engine.connect() as conn:
        return conn.execute(query).scalar_one()


def test_demo_spans_countries_states_and_sections(engine, settings, demo):
    assert all(stats.rejected == 0 or source == "gb_psc" for source, _, stats in demo)
    assert scalar(engine, select(func.count(func.distinct(companies.c.country)))) >= 4
    assert (
        scalar(
            engine, select(func.count()).select_from(lei_records).where(lei_records.c.company_id.is_not(None))
        )
        > 100
    )
    assert scalar(engine, select(func.count()).select_from(people)) > 10
    assert scalar(engine, select(func.count()).select_from(financial_statements)) >= 1
    for flag in ("in_bankruptcy", "in_restructuring", "in_liquidation"):
        assert scalar(engine, select(func.count()).where(companies.c[flag])) >= 1
    # an ownership chain of two edges: MONOOVA FX -> MONOOVA GLOBAL PAYMENTS -> MONEYTECH GROUP
    chain = text(
        "SELECT count(*) FROM ownerships a JOIN ownerships b ON a.parent_id = b.child_id "
        "WHERE a.kind = 'direct' AND b.kind = 'direct'"
    )
    assert scalar(engine, chain) >= 1
    assert scalar(engine, select(func.count()).select_from(ownerships)) >= 5
    again = load_demo(engine, settings.data_dir)
    assert all(stats.inserted == 0 and stats.updated == 0 for _, _, stats in again)


def test_demo_is_served(client, auth, demo):
    slovnaft = assert_envelope(client.get("/api/v1/companies/sk/31322832", headers=auth))
    assert slovnaft["name"].upper().startswith("SLOVNAFT")
    assert any(s["id"] == "sk_rpo" and "CC BY 4.0" in s["licence"] for s in slovnaft["sources"])
    danone = assert_envelope(client.get("/api/v1/companies/fr/552032534", headers=auth))
    assert danone["latestFinancials"]["revenue"] == 27376000000
    beta = assert_envelope(client.get("/api/v1/companies/sk/12042773", headers=auth))
    assert (beta["inBankruptcy"], beta["inRestructuring"]) == (False, True)
