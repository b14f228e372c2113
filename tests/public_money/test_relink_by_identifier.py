"""A record linked by name is re-examined when the company holding its national id arrives later: the
relink jobs the company import queues replace the name match with the identifier match (TED winners and
their contracts, State aid awards by IČO and by VAT number, court-decision parties), and the namesake no
longer shows the record."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from regintel.areas.funds.tables import fund_awards
from regintel.areas.legal_records.tables import court_decision_parties
from regintel.areas.public_money.relink import relink as relink_public_money
from regintel.areas.public_money.tables import contracts, ted_winners
from regintel.db.jobs import RELINK_KINDS
from regintel.db.schema import companies, jobs
from regintel.domain.types import CompanyRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources.ted_csv import SOURCE as TED_CSV
from regintel.jobs.runner import run_due
from regintel.search import get_backend
from tests.builders import load_companies
from tests.funds import common as funds
from tests.helpers import assert_envelope
from tests.legal_records import common as legal
from tests.public_money.common import FIXTURES
from tests.public_money.test_relink import JsonLinesCompanies

SLOVNAFT, NAMESAKE = "31322832", "47654325"  # the real IČO, and another valid one under the same name


def _company_id(engine, national_id):
    with engine.connect() as conn:
        return conn.execute(
            select(companies.c.id).where(companies.c.country == "SK", companies.c.national_id == national_id)
        ).scalar_one()


def _links(engine, table, name_column):
    with engine.connect() as conn:
        return conn.execute(
            select(table.c.company_id, table.c.match_method, table.c.match_score).where(
                name_column == "SLOVNAFT, a.s."
            )
        ).all()


@pytest.fixture
def linked_to_namesake(engine, settings):
    """SLOVNAFT's records imported while only a namesake under another IČO is in the register."""
    load_companies(
        engine, CompanyRecord(country="SK", national_id=NAMESAKE, name="SLOVNAFT, a.s.", city="Bratislava")
    )
    run_import(engine, TED_CSV, str(FIXTURES / "ted_csv" / "export_CAN_2019_fixture.csv"), settings.data_dir)
    legal.import_one(engine, settings.data_dir, "sk_court_decisions")
    funds.import_source(engine, settings.data_dir, "eu_state_aid_tam")
    namesake = _company_id(engine, NAMESAKE)
    for table, column in (
        (ted_winners, ted_winners.c.name),
        (contracts, contracts.c.party_name),
        (court_decision_parties, court_decision_parties.c.name),
        (fund_awards, fund_awards.c.beneficiary_name),
    ):
        links = _links(engine, table, column)
        assert links and all(cid == namesake and m == "name" and s >= 0.9 for cid, m, s in links)
    return namesake


def test_the_company_import_replaces_the_name_match(engine, settings, client, auth, linked_to_namesake):
    namesake = linked_to_namesake
    before = assert_envelope(client.get(f"/api/v1/companies/{NAMESAKE}/contracts", headers=auth))
    assert [(i["source"], i["match"]["method"]) for i in before] == [("ted_csv", "name")]
    path = settings.data_dir / "companies.jsonl"
    path.write_text(
        json.dumps(
            {
                "national_id": SLOVNAFT,
                "name": "SLOVNAFT, a.s.",
                "city": "Bratislava",
                "vat_id": "SK2020372640",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    run_import(engine, JsonLinesCompanies(), str(path), settings.data_dir)
    assert run_due(engine, settings, "test-worker", kinds=RELINK_KINDS) == 3  # not the search index's job
    real = _company_id(engine, SLOVNAFT)
    assert real != namesake
    for table, column in (
        (ted_winners, ted_winners.c.name),
        (contracts, contracts.c.party_name),
        (court_decision_parties, court_decision_parties.c.name),
    ):
        assert {tuple(r) for r in _links(engine, table, column)} == {(real, "identifier", 1.0)}
    assert sorted(tuple(r) for r in _links(engine, fund_awards, fund_awards.c.beneficiary_name)) == [
        (real, "identifier", 1.0),
        (real, "vat", 1.0),
    ]
    with engine.connect() as conn:
        results = dict(conn.execute(select(jobs.c.kind, jobs.c.result).where(jobs.c.status == "done")).all())
    assert results["public_money.relink"]["ted_winners"]["relinked"] == 1
    assert results["public_money.relink"]["contracts"]["relinked"] == 1
    assert results["legal_records.relink"]["court_decision_parties"]["relinked"] == 2  # two decisions
    assert results["funds.relink"]["fund_awards"]["relinked"] == 2
    assert assert_envelope(client.get(f"/api/v1/companies/{NAMESAKE}/contracts", headers=auth)) == []
    after = assert_envelope(client.get(f"/api/v1/companies/{SLOVNAFT}/contracts", headers=auth))
    assert [(i["source"], i["match"]["method"], i["match"]["company"]["nationalId"]) for i in after] == [
        ("ted_csv", "identifier", SLOVNAFT)
    ]
    decisions = assert_envelope(
        client.get("/api/v1/justice/decisions", headers=auth, params={"ico": NAMESAKE})
    )
    assert decisions == []


def test_a_name_match_without_a_better_company_stays(engine, settings, linked_to_namesake):
    backend = get_backend(engine, settings)
    result = relink_public_money(engine, backend, "SK")
    assert result["contracts"]["relinked"] == 0 and result["ted_winners"]["relinked"] == 0
    links = _links(engine, contracts, contracts.c.party_name)
    assert [(cid, m) for cid, m, _ in links] == [(linked_to_namesake, "name")]
