"""The public-contracts ranking: totals precomputed by the job `pages.contract-totals` from the public_money
contracts (linked by company id, or by the party's country and identifier), read through HTTP."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from regintel.areas.pages.jobs import CONTRACT_TOTALS_JOB, contract_totals
from regintel.areas.public_money.tables import contracts
from regintel.db.jobs import enqueue
from regintel.db.schema import companies as companies_table
from regintel.db.schema import jobs
from regintel.jobs.registry import JobContext, Permanent
from regintel.jobs.runner import run_due
from tests.helpers import assert_envelope, assert_error

PUB = "/api/v1/public"


def _company_id(engine, country, national_id):
    with engine.connect() as conn:
        return conn.execute(
            select(companies_table.c.id).where(
                companies_table.c.country == country, companies_table.c.national_id == national_id
            )
        ).scalar_one()


def _contract(
    n, role="supplier", value="1000.00", currency="EUR", company_id=None, party=("SK", None), **extra
):
    return {
        "source": "test-contracts",
        "record_key": f"r{n}",
        "party_ref": f"p{n}",
        "role": role,
        "party_name": "Party ' OR 1=1 --",
        "party_country": party[0],
        "party_national_id": party[1],
        "company_id": company_id,
        "title": "Road works",
        "value": Decimal(value) if value else None,
        "currency": currency,
        "value_basis": "awarded",
        "signed_on": date(2026, 5, 1),
        "record_hash": f"h{n}",
        **extra,
    }


def _load_contracts(engine):
    slovnaft = _company_id(engine, "SK", "31322832")
    zilina = _company_id(engine, "SK", "35757442")
    rows = [
        _contract(1, value="2500000.50", company_id=slovnaft),  # linked at import
        _contract(2, value="1000000", party=("SK", "31322832")),  # unlinked, names the company
        _contract(3, role="counterparty", value="300000", company_id=zilina),
        _contract(4, role="buyer", value="99999999", company_id=zilina),  # not a supplier: not counted
        _contract(5, value=None, company_id=zilina),  # no value: not counted
        _contract(6, value="5000000", currency="CZK", company_id=zilina),
        _contract(7, value="7777", party=("SK", "99999999")),  # names no loaded company: not counted
    ]
    with engine.begin() as conn:
        conn.execute(contracts.insert(), rows)


def _run(engine, settings, payload=None):
    return contract_totals(JobContext(engine=engine, settings=settings, job_id=1, attempt=1), payload or {})


def test_ranking_before_totals_are_computed(client, companies, engine):
    _load_contracts(engine)
    data = assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json"))
    assert data["items"] == [] and data["as_of"] is None  # never computed: an honest empty ranking
    page = client.get("/rebricky/public-contracts?lang=en")
    assert page.status_code == 200 and "pages.contract-totals has not run yet" in page.text


def test_public_contracts_ranking(client, companies, engine, settings):
    _load_contracts(engine)
    assert _run(engine, settings)["totals"] == 3  # slovnaft EUR, zilina EUR, zilina CZK
    resp = client.get(f"{PUB}/rankings/public-contracts.json")
    assert resp.headers["cache-control"] == "public, max-age=900"
    data = assert_envelope(resp)
    assert data["as_of"] is not None
    assert [(i["national_id"], i["total"], i["contracts"], i["rank"]) for i in data["items"]] == [
        ("31322832", 3500000.5, 2, 1),
        ("35757442", 300000.0, 1, 2),
    ]
    czk = assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json?currency=czk"))["items"]
    assert [(i["national_id"], i["total"]) for i in czk] == [("35757442", 5000000.0)]
    assert assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json?country=cz"))["items"] == []
    assert len(assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json?limit=1"))["items"]) == 1
    assert_error(client.get(f"{PUB}/rankings/public-contracts.json?currency=euro"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/rankings/public-contracts.json?limit=101"), 422, "VALIDATION_ERROR")
    index = {e["key"]: e for e in assert_envelope(client.get(f"{PUB}/rankings.json"))}
    assert index["public-contracts"]["available"] is True


def test_public_contracts_csv_and_page(client, companies, engine, settings):
    _load_contracts(engine)
    _run(engine, settings)
    resp = client.get(f"{PUB}/rankings/public-contracts.csv")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    lines = [x for x in resp.text.splitlines() if not x.lstrip('"').startswith("#")]  # the quoted preamble
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    assert [(r["national_id"], r["total"], r["contracts"]) for r in rows] == [
        ("31322832", "3500000.5", "2"),
        ("35757442", "300000.0", "1"),
    ]
    page = client.get("/rebricky/public-contracts?currency=EUR&lang=en")
    assert page.status_code == 200 and "SLOVNAFT" in page.text and "3\u202f500\u202f000" in page.text
    assert "Totals computed" in page.text


def test_totals_are_replaced_not_added(client, companies, engine, settings):
    _load_contracts(engine)
    _run(engine, settings)
    with engine.begin() as conn:
        conn.execute(contracts.delete().where(contracts.c.record_key == "r1"))
    assert _run(engine, settings)["totals"] == 3
    items = assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json"))["items"]
    assert (
        items[0]["national_id"] == "31322832"
        and items[0]["total"] == 1000000.0
        and items[0]["contracts"] == 1
    )


def test_job_through_the_worker_and_its_schedule(companies, engine, settings):
    _load_contracts(engine)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        enqueue(conn, CONTRACT_TOTALS_JOB, {"every_hours": 6}, now=now)
    assert run_due(engine, settings, "test-worker") >= 1  # other areas' jobs may be queued by the fixtures
    with engine.connect() as conn:
        queued = conn.execute(
            select(jobs.c.kind, jobs.c.status, jobs.c.run_after)
            .where(jobs.c.kind == CONTRACT_TOTALS_JOB)
            .order_by(jobs.c.id)
        ).all()
    assert [q.status for q in queued] == ["done", "queued"]  # the next run is queued six hours on


def test_bad_payload_is_permanent(engine, settings):
    with pytest.raises(Permanent):
        _run(engine, settings, {"every_hours": 0})
    with pytest.raises(Permanent):
        _run(engine, settings, {"every_hours": True})


def test_empty_database(client, engine, settings):
    assert _run(engine, settings)["totals"] == 0
    assert assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json"))["items"] == []
