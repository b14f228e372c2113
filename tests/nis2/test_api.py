"""NIS2 endpoints through HTTP: scoping, obligations, priority, the sweep (inline and as a job), edges."""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import insert, select

from regintel.areas.nis2.tables import nis2_assessments, nis2_designations
from regintel.db import jobs as jobs_db
from regintel.db.schema import companies
from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, OwnershipRecord, RoleRecord
from regintel.errors import ValidationFailed
from regintel.jobs.runner import LEASE, run_one
from tests.builders import TEST_SOURCE, load_companies
from tests.helpers import assert_envelope, assert_error

ENERGY, HOSPITAL, CLOUD, FOOD, SMALL_IT, PUBLIC, SUB, UNKNOWN = (
    "36000001",
    "36000019",
    "36000027",
    "36000035",
    "36000043",
    "36000051",
    "36000060",
    "36000078",
)
M = 1_000_000


def fin(year, currency, revenue, assets, employees=None):
    return FinancialRecord(
        year=year,
        currency=currency,
        revenue=Decimal(revenue),
        total_assets=Decimal(assets),
        employees=employees,
    )


RECORDS = [
    CompanyRecord(
        country="SK",
        national_id=ENERGY,
        name="Západoslovenská distribučná, a.s.",
        legal_form="121",
        nace_primary="35130",
        employees=1200,
        financials=[fin(2023, "EUR", 400 * M, 900 * M, 1200)],
    ),
    CompanyRecord(
        country="SK",
        national_id=HOSPITAL,
        name="Nemocnica Žilina",
        legal_form="331",
        nace_primary="86.10",
        size_class="100-199",
        financials=[fin(2023, "EUR", 15 * M, 20 * M)],
    ),
    CompanyRecord(
        country="CZ",
        national_id=CLOUD,
        name="Oblak Hosting s.r.o.",
        legal_form="112",
        nace_primary="63110",
        financials=[fin(2023, "CZK", 2_000 * M, 1_500 * M, 300)],
    ),
    CompanyRecord(
        country="SK",
        national_id=FOOD,
        name="Mliekáreň Dolina s.r.o.",
        legal_form="112",
        nace_primary="10510",
        size_class="50-99",
    ),
    CompanyRecord(
        country="SK",
        national_id=SMALL_IT,
        name="Kód s.r.o.",
        legal_form="112",
        nace_primary="62010",
        employees=4,
        financials=[fin(2023, "EUR", 300_000, 150_000, 4)],
    ),
    CompanyRecord(
        country="CZ", national_id=PUBLIC, name="Ministerstvo příkladů", legal_form="325", nace_primary="84.11"
    ),
    CompanyRecord(
        country="SK",
        national_id=SUB,
        name="Dcéra Energia s.r.o.",
        legal_form="112",
        nace_primary="35.11",
        employees=12,
        financials=[fin(2023, "EUR", 3 * M, 3 * M, 12)],
        roles=[
            RoleRecord(
                role="shareholder",
                holder_name="Západoslovenská distribučná, a.s.",
                holder_company=CompanyKey("SK", ENERGY),
                share_pct=100.0,
            )
        ],
    ),
    CompanyRecord(country="SK", national_id=UNKNOWN, name="Nevieme s.r.o.", legal_form="112"),
]


def run_due(engine, settings, worker_id: str) -> int:
    """Run the due jobs of this area the way the worker does; jobs other areas queue when companies are
    loaded (peer-group refreshes, ...) are left alone."""
    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        claimed = jobs_db.claim(
            conn, worker_id, 10, datetime.now(UTC), LEASE, kinds=["nis2.refresh", "nis2.sweep"]
        )
    for job in claimed:
        run_one(engine, settings, worker_id, job)
    return len(claimed)


@pytest.fixture
def data(engine):
    load_companies(engine, *RECORDS)


def get(client, auth, ico, path="nis2", **params):
    return client.get(f"/api/v1/companies/{ico}/{path}", params=params, headers=auth)


def test_energy_utility_is_essential_with_its_reasons(client, auth, data):
    resp = get(client, auth, ENERGY)
    d = assert_envelope(resp)
    assert (d["category"], d["certainty"], d["in_scope"]) == ("essential", "certain", True)
    assert d["sectors"][0]["nace"] == "35130" and d["sectors"][0]["subsector"] == "electricity"
    assert d["sectors"][0]["annex_ref"] == "Annex I, 1(a)"
    assert any("Art. 3(1)(a)" in r["legal_reference"] for r in d["reasons"])
    assert d["size"]["class"] == "large" and d["size"]["own"]["headcount"]["value"] == 1200
    assert d["national_transposition"]["authority"].startswith("Národný bezpečnostný úrad")
    assert d["ruleset_version"] and resp.json()["meta"]["country"] == "SK"


def test_hospital_headcount_band_and_statement(client, auth, data):
    d = assert_envelope(get(client, auth, HOSPITAL))
    assert (d["category"], d["certainty"]) == ("important", "certain")
    assert d["size"]["own"]["headcount"] == {"band": "100-199", "source": "register band"}


def test_cloud_provider_czk_statement_converted_at_the_dated_rate(client, auth, data):
    d = assert_envelope(get(client, auth, CLOUD, country="cz"))
    assert (d["category"], d["certainty"]) == ("essential", "likely")
    turnover = d["size"]["own"]["turnover"]
    assert turnover["currency"] == "CZK" and turnover["rate_date"] == "2024-12-31"
    assert turnover["eur"] == pytest.approx(2_000 * M / 25.185, abs=0.01)
    assert d["national_transposition"]["act"].startswith("Act No. 264/2025")


def test_food_manufacturer_band_only_is_likely_important(client, auth, data):
    d = assert_envelope(get(client, auth, FOOD))
    assert (d["category"], d["certainty"], d["in_scope"]) == ("important", "likely", None)
    assert {"turnover_eur", "balance_sheet_eur"} <= {m["input"] for m in d["missing"]}


def test_small_it_firm_out_of_scope(client, auth, data):
    d = assert_envelope(get(client, auth, SMALL_IT))
    assert (d["category"], d["certainty"], d["in_scope"]) == ("out-of-scope", "certain", False)


def test_public_body_central_government(client, auth, data):
    d = assert_envelope(get(client, auth, PUBLIC, country="cz"))
    assert d["category"] == "essential" and d["sectors"][0]["level"] == "central"


def test_linked_enterprise_makes_a_small_subsidiary_large(client, auth, data):
    d = assert_envelope(get(client, auth, SUB))
    assert d["size"]["lowest"] == "large" and d["category"] == "essential"
    rel = d["size"]["relations"][0]
    assert rel["kind"] == "linked" and rel["company"]["national_id"] == ENERGY


def test_rec_2003_361_annex_art_3_3_gleif_consolidation_edge_is_a_linked_enterprise(
    client, auth, engine, data
):
    gleif = dataclasses.replace(TEST_SOURCE, id="gleif_rr", name="GLEIF relationship records")
    load_companies(
        engine,
        OwnershipRecord(parent=CompanyKey("SK", ENERGY), child=CompanyKey("SK", SMALL_IT)),
        source=gleif,
    )
    d = assert_envelope(get(client, auth, SMALL_IT))
    assert d["size"]["relations"][0]["basis"].startswith("accounting consolidation")
    assert d["size"]["relations"][0]["kind"] == "linked"
    assert d["size"]["lowest"] == "large"  # but 62.01 is only a possible cloud provider
    assert d["category"] == "out-of-scope" and "essential" in d["possible_categories"]


def test_unknown_company_data_is_possible_never_silent(client, auth, data):
    d = assert_envelope(get(client, auth, UNKNOWN))
    assert (d["category"], d["certainty"]) == ("out-of-scope", "possible")
    assert set(d["possible_categories"]) == {"essential", "important", "out-of-scope"}
    assert "nace" in {m["input"] for m in d["missing"]}


def test_designation_from_a_register_is_size_independent(client, auth, engine, data):
    with engine.begin() as conn:
        cid = conn.execute(select(companies.c.id).where(companies.c.national_id == SMALL_IT)).scalar_one()
        conn.execute(
            insert(nis2_designations).values(
                company_id=cid,
                kind="qualified_trust_service_provider",
                source="eu_trusted_list",
                reference="SK/TSP/1",
                loaded_at=date(2025, 1, 1),
            )
        )
    d = assert_envelope(get(client, auth, SMALL_IT))
    assert (d["category"], d["certainty"]) == ("essential", "certain")
    assert d["designations"] == [
        {"kind": "qualified_trust_service_provider", "source": "eu_trusted_list", "reference": "SK/TSP/1"}
    ]


def test_obligations_apply_by_category(client, auth, data):
    d = assert_envelope(get(client, auth, ENERGY, "nis2-obligations"))
    assert len(d["obligations"]) == 18 and d["applicable_count"] == 18 and d["applies_from"] == "2025-01-01"
    sup = next(o for o in d["obligations"] if o["id"] == "supervision")
    assert sup["regime"] == "ex ante (Art. 32)"
    d = assert_envelope(get(client, auth, SMALL_IT, "nis2-obligations"))
    assert d["applicable_count"] == 0 and not any(o["applies"] for o in d["obligations"])


def test_priority_scores_and_tiers(client, auth, data):
    hot = assert_envelope(get(client, auth, ENERGY, "nis2-priority"))
    assert hot["tier"] == "hot" and hot["score"] >= 70 and hot["factors"][0]["factor"] == "scope"
    cold = assert_envelope(get(client, auth, SMALL_IT, "nis2-priority"))
    assert cold["tier"] == "cold"


PATHS = ["nis2", "nis2-obligations", "nis2-priority"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    "ico, params, status, code",
    [
        ("35757442", {}, 404, "NOT_FOUND"),
        (ENERGY, {"country": "cz"}, 404, "NOT_FOUND"),
        ("35760002", {"country": "sk"}, 422, "VALIDATION_ERROR"),
        ("1" * 41, {}, 422, "VALIDATION_ERROR"),
        ("%C5%BDilina'%20OR%201=1", {}, 422, "VALIDATION_ERROR"),
        (ENERGY, {"country": "xyz"}, 422, "VALIDATION_ERROR"),
        (ENERGY, {"sector": "energy"}, 422, "VALIDATION_ERROR"),
    ],
)
def test_bad_requests(client, auth, data, path, ico, params, status, code):
    assert_error(get(client, auth, ico, path, **params), status, code)


@pytest.mark.parametrize("path", PATHS)
def test_ambiguous_and_keyless(client, auth, engine, data, path):
    load_companies(engine, CompanyRecord(country="CZ", national_id=ENERGY, name="Česká energie s.r.o."))
    assert_error(get(client, auth, ENERGY, path), 409, "AMBIGUOUS_IDENTIFIER")
    assert assert_envelope(get(client, auth, ENERGY, path, country="sk"))["country"] == "SK"
    assert_error(client.get(f"/api/v1/companies/{ENERGY}/{path}"), 401, "UNAUTHORIZED")


# -- sweep ---------------------------------------------------------------------------------------------

SWEEP = "/api/v1/compliance/nis2-sweep"


def ids(*pairs):
    return [{"country": c, "national_id": n} for c, n in pairs]


def test_sweep_inline_counts_and_entities(client, auth, engine, data):
    body = {
        "identifiers": ids(
            ("SK", ENERGY),
            ("sk", HOSPITAL),
            ("CZ", CLOUD),
            ("SK", SMALL_IT),
            ("SK", "35757442"),
            ("SK", "35760002"),
            ("SK", ENERGY),
        )
    }
    d = assert_envelope(client.post(SWEEP, json=body, headers=auth))
    assert d["requested"] == 7 and d["processed"] == 4
    assert d["counts"] == {"essential": 2, "important": 1, "out-of-scope": 1} and d["in_scope"] == 3
    assert d["by_country"] == {
        "SK": {"essential": 1, "important": 1, "out-of-scope": 1},
        "CZ": {"essential": 1, "important": 0, "out-of-scope": 0},
    }
    assert {e["national_id"] for e in d["entities"]} == {ENERGY, HOSPITAL, CLOUD}
    assert d["not_found"] == [{"country": "SK", "national_id": "35757442"}]
    assert [i["index"] for i in d["invalid"]] == [5]
    with engine.connect() as conn:  # the filter's table got the assessments
        assert conn.execute(select(nis2_assessments.c.category)).scalars().all().count("essential") == 2


def test_sweep_large_list_runs_as_a_job_with_a_status_url(client, auth, make_key, engine, settings, data):
    body = {"identifiers": ids(*([("SK", ENERGY), ("SK", FOOD)] * 600))}
    resp = client.post(SWEEP, json=body, headers=auth)
    queued = assert_envelope(resp, 202)
    assert queued["status"] == "queued" and resp.headers["location"] == queued["status_url"]
    assert assert_envelope(client.get(queued["status_url"], headers=auth))["status"] == "queued"
    other = {"Authorization": f"Bearer {make_key('business', name='other')}"}
    assert_error(client.get(queued["status_url"], headers=other), 404, "NOT_FOUND")
    assert run_due(engine, settings, "w1") == 1
    done = assert_envelope(client.get(queued["status_url"], headers=auth))
    assert done["status"] == "done" and done["result"]["counts"]["essential"] == 1
    assert done["result"]["counts"]["important"] == 1 and done["result"]["requested"] == 1200


def test_sweep_by_filter_continues_across_jobs(client, auth, engine, settings, data, monkeypatch):
    from regintel.areas.nis2 import sweep

    monkeypatch.setattr(sweep, "SLICE", 2)
    monkeypatch.setattr(sweep, "BATCH", 2)
    resp = client.post(SWEEP, json={"filter": {"country": ["SK"]}}, headers=auth)
    url = assert_envelope(resp, 202)["status_url"]
    while run_due(engine, settings, "w1"):
        pass
    done = assert_envelope(client.get(url, headers=auth))
    assert done["status"] == "done" and done["current_job_id"] != done["job_id"]
    result = done["result"]
    assert result["processed"] == 6 and set(result["by_country"]) == {"SK"}
    assert result["counts"]["essential"] == 2  # the utility and its linked subsidiary
    # the filter now answers from the stored assessments
    found = assert_envelope(
        client.get("/api/v1/companies/advanced-search", params={"nis2_scope": "essential"}, headers=auth)
    )
    assert {c["nationalId"] if "nationalId" in c else c["national_id"] for c in found} == {ENERGY, SUB}


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"identifiers": [], "filter": None},
        {"identifiers": ids(("SK", ENERGY)), "filter": {"country": ["SK"]}},
        {"identifiers": [{"country": "SK", "national_id": ENERGY, "x": 1}]},
        {"identifiers": [{"country": "SK", "national_id": 36000001}]},
        {"identifiers": [{"country": "SKK", "national_id": ENERGY}]},
        {"identifiers": ids(*([("SK", ENERGY)] * 10_001))},
        {"filter": {"colour": "red"}},
        {"filter": {"nace": ["QQ"]}},
        {"extra": 1},
    ],
)
def test_sweep_bad_bodies(client, auth, data, body):
    assert_error(client.post(SWEEP, json=body, headers=auth), 422, "VALIDATION_ERROR")


def test_sweep_needs_a_key_and_unknown_job_is_404(client, auth, data):
    assert_error(client.post(SWEEP, json={"identifiers": ids(("SK", ENERGY))}), 401, "UNAUTHORIZED")
    assert_error(client.get(f"{SWEEP}/999999", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(f"{SWEEP}/abc", headers=auth), 422, "VALIDATION_ERROR")


def test_sweep_unicode_and_empty_results(client, auth, data):
    d = assert_envelope(client.post(SWEEP, json={"identifiers": ids(("SK", "Žilina"))}, headers=auth))
    assert d["processed"] == 0 and d["invalid"][0]["national_id"] == "Žilina" and d["entities"] == []


def test_designations_csv_loads_and_reports_rejects(client, auth, engine, data):
    from regintel.areas.nis2.designations import load

    text = (
        "country,national_id,kind,source,reference\n"
        f"SK,{SMALL_IT},tld_registry,iana_root_zone,.sk\n"
        f"sk,{SMALL_IT},tld_registry,iana_root_zone,.sk\n"  # again: replaced, not doubled
        "SK,35757442,dns_service_provider,test,\n"  # no such company
        f"SK,{SMALL_IT},space_station,test,\n"  # unknown kind
        "SK,35760002,tld_registry,test,\n"
    )  # bad check digit
    result = load(engine, text)
    assert result["loaded"] == 2 and [r["line"] for r in result["rejected"]] == [4, 5, 6]
    d = assert_envelope(get(client, auth, SMALL_IT))
    assert (d["category"], d["certainty"]) == ("essential", "certain")
    assert d["designations"] == [{"kind": "tld_registry", "source": "iana_root_zone", "reference": ".sk"}]
    with pytest.raises(ValidationFailed):
        load(engine, "a,b\n1,2\n")


def test_refresh_job_stores_every_company_for_the_filter(client, auth, engine, settings, data):
    from datetime import UTC, datetime

    from regintel.db import jobs as jobs_db

    with engine.begin() as conn:
        jobs_db.enqueue(conn, "nis2.refresh", {"country": "SK"}, now=datetime.now(UTC))
    assert run_due(engine, settings, "w1") == 1
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                nis2_assessments.c.country, nis2_assessments.c.category, nis2_assessments.c.ruleset_version
            )
        ).all()
    assert len(rows) == 6 and {r.country for r in rows} == {"SK"} and all(r.ruleset_version for r in rows)
    found = assert_envelope(
        client.get(
            "/api/v1/companies/advanced-search",
            params={"nis2_scope": "important", "country": "sk"},
            headers=auth,
        )
    )
    assert len(found) == 2  # the hospital and the food manufacturer


def test_a_failed_sweep_job_reports_its_error(client, auth, engine, settings, data):
    from regintel.areas.nis2 import sweep
    from regintel.db.schema import jobs

    resp = client.post(SWEEP, json={"filter": {"country": ["SK"]}}, headers=auth)
    job_id = assert_envelope(resp, 202)["job_id"]
    with engine.begin() as conn:  # corrupt its payload: the handler refuses it for good
        conn.execute(jobs.update().where(jobs.c.id == job_id).values(payload={"owner": 1}))
    run_due(engine, settings, "w1")
    state = assert_envelope(client.get(f"{SWEEP}/{job_id}", headers=auth))
    assert state["status"] == "failed" and "identifiers" in state["error"] and state["result"] is None
    assert sweep.KIND == "nis2.sweep"


def test_rec_2003_361_annex_art_4_2_two_statements_through_http(client, auth, engine, data):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=SMALL_IT,
            nace_primary="35.11",
            financials=[fin(2022, "EUR", 300_000, 150_000, 4), fin(2023, "EUR", 60 * M, 50 * M, 4)],
        ),
    )
    d = assert_envelope(get(client, auth, SMALL_IT))
    assert (d["size"]["class"], d["size"]["lowest"], d["size"]["highest"]) == ("micro", "micro", "large")
    assert "earlier_accounts" in {m["input"] for m in d["missing"]} and d["category"] == "out-of-scope"


def test_rec_2003_361_annex_art_3_2_ownership_edge_with_a_share_is_a_partner(client, auth, engine, data):
    load_companies(
        engine,
        OwnershipRecord(parent=CompanyKey("SK", HOSPITAL), child=CompanyKey("SK", SMALL_IT), share_pct=40.0),
    )
    d = assert_envelope(get(client, auth, SMALL_IT))
    rel = d["size"]["relations"][0]
    assert (rel["kind"], rel["share_pct"]) == ("partner", 40.0) and rel["basis"].startswith("ownership")


def test_rec_2003_361_annex_art_3_3_linked_through_another_enterprise(client, auth, engine, data):
    holding, sister, child = "36000086", "36000094", "36000108"
    owner = [
        RoleRecord(
            role="shareholder",
            holder_name="Holding a.s.",
            holder_company=CompanyKey("SK", holding),
            share_pct=100.0,
        )
    ]
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=holding,
            name="Holding a.s.",
            nace_primary="64.20",
            employees=2,
            financials=[fin(2023, "EUR", 100_000, 900_000, 2)],
        ),
        CompanyRecord(
            country="SK",
            national_id=sister,
            name="Sestra Výroba a.s.",
            nace_primary="29.10",
            employees=900,
            financials=[fin(2023, "EUR", 200 * M, 150 * M, 900)],
            roles=owner,
        ),
        CompanyRecord(
            country="SK",
            national_id=child,
            name="Malá Energia s.r.o.",
            nace_primary="35.11",
            employees=5,
            financials=[fin(2023, "EUR", 1 * M, 1 * M, 5)],
            roles=owner,
        ),
    )
    d = assert_envelope(get(client, auth, child))
    bases = {r["company"]["national_id"]: r["basis"] for r in d["size"]["relations"]}
    assert (
        set(bases) == {holding, sister}
        and bases[sister] == "linked through Holding a.s. (Annex Art. 3(3), 6(2))"
    )
    assert d["size"]["lowest"] == "large" and (d["category"], d["certainty"]) == ("essential", "certain")
