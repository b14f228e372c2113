"""The scores routes through HTTP: financial history, credit score, credit, risk, peers, similar and
score disputes, with the edges (unknown 404, malformed 422, ambiguous 409, no key 401, unknown parameter)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from sqlalchemy import select

from regintel.areas.scores import benchmarks
from regintel.areas.scores.jobs import enqueue_refresh_peers
from regintel.areas.scores.tables import score_disputes
from regintel.db.schema import jobs
from regintel.domain.types import CompanyRecord, FinancialRecord
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_obchodny_vestnik import SOURCE as GAZETTE
from regintel.jobs.registry import JobContext, handlers
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.ingest.gazette_export import FIXTURES

ACME = "35760001"  # SK, NACE 62.01, small, three statements
PEERS = ["35760010", "35760028", "35760036", "35760044", "35760052"]
BARE = "35760061"  # no statement
SKODA = "00177041"  # CZ, CZK statement
BANKRUPT = "35760079"


def fin(
    year: int,
    revenue: int,
    profit: int,
    assets: int,
    equity: int,
    currency: str = "EUR",
    employees: int | None = 20,
) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency=currency,
        period_from=f"{year}-01",
        period_to=f"{year}-12",
        revenue=Decimal(revenue),
        profit=Decimal(profit),
        total_assets=Decimal(assets),
        equity=Decimal(equity),
        liabilities=Decimal(assets - equity),
        employees=employees,
        statement_type="ordinary",
    )


def company(nid: str, name: str, *financials: FinancialRecord, **kw: object) -> CompanyRecord:
    base: dict[str, object] = {
        "country": "SK",
        "nace_primary": "62010",
        "nuts3": "SK010",
        "city": "Bratislava",
        "founded_on": date(2008, 4, 1),
        "employees": 20,
        "size_class": "20-49",
    }
    return CompanyRecord(national_id=nid, name=name, financials=list(financials), **(base | kw))  # type: ignore[arg-type]


@pytest.fixture
def data(engine):
    records = [
        company(
            ACME,
            "ACME Software s.r.o.",
            fin(2022, 900_000, 40_000, 600_000, 150_000),
            fin(2023, 1_000_000, 60_000, 700_000, 210_000),
            fin(2024, 1_200_000, 90_000, 800_000, 300_000),
        ),
        *[
            company(
                nid,
                f"Peer {i} s.r.o.",
                fin(2024, 800_000 + 100_000 * i, 10_000 * i - 5_000, 700_000, 50_000 + 60_000 * i),
            )
            for i, nid in enumerate(PEERS)
        ],
        company(BARE, "Bez výkazov s.r.o."),
        company(BANKRUPT, "Úpadok s.r.o.", fin(2024, 500_000, -80_000, 400_000, -20_000), in_bankruptcy=True),
        CompanyRecord(
            country="CZ",
            national_id=SKODA,
            name="ŠKODA AUTO a.s.",
            nace_primary="29100",
            founded_on=date(1991, 1, 1),
            employees=30000,
            financials=[fin(2023, 1_000_000_000, 50_000_000, 800_000_000, 300_000_000, "CZK", 30000)],
        ),
    ]
    load_companies(engine, *records)


def get(client, auth, ico, path, **params):
    return client.get(f"/api/v1/companies/{ico}/{path}", params=params, headers=auth)


def test_financial_history(client, auth, data):
    resp = get(client, auth, ACME, "financial-history")
    body = assert_envelope(resp)
    assert resp.json()["meta"]["country"] == "SK"
    assert [y["year"] for y in body["years"]] == [2024, 2023, 2022]
    latest = body["years"][0]
    assert latest["lines"] == {
        "revenue": 1_200_000,
        "profit": 90_000,
        "total_assets": 800_000,
        "equity": 300_000,
        "liabilities": 500_000,
        "current_assets": None,
        "current_liabilities": None,
        "retained_earnings": None,
        "ebit": None,
    }
    assert latest["lines_eur"] == latest["lines"] and latest["eur_rate"]["rate"] == 1
    assert (latest["period_end"], latest["currency"], latest["employees"]) == ("2024-12-31", "EUR", 20)
    r = latest["ratios"]
    assert (r["net_margin"], r["equity_ratio"], r["revenue_growth"], r["leverage"]) == (
        0.075,
        0.375,
        0.2,
        1.666667,
    )
    assert (r["current_ratio"], r["altman_z2"]) == (None, None)
    assert body["years"][-1]["ratios"]["revenue_growth"] is None
    assert body["sources"][0]["id"] == "test_register" and body["sources"][0]["licence"] == "CC0 1.0"


def test_financial_history_in_euro_at_the_ecb_rate(client, auth, data):
    year = assert_envelope(get(client, auth, SKODA, "financial-history"))["years"][0]
    assert year["eur_rate"] == {
        "currency": "CZK",
        "rate": 24.724,
        "date": "2023-12-29",
        "source": "ECB euro foreign exchange reference rates (month ends)",
    }
    assert year["lines_eur"]["revenue"] == 40446529.69
    assert assert_envelope(get(client, auth, BARE, "financial-history"))["years"] == []


def test_credit_score(client, auth, data):
    body = assert_envelope(get(client, auth, ACME, "credit-score"))
    factors = {f["code"]: f for f in body["factors"]}
    assert list(factors) == [
        "financial_strength",
        "profitability",
        "liquidity",
        "payment_discipline",
        "age",
        "size",
        "legal_events",
        "insolvency",
        "sanctions",
        "tax_reliability",
    ]
    assert sum(f["weight"] for f in body["factors"]) == 100
    assert factors["financial_strength"]["value"] == 0.375 and factors["financial_strength"]["points"] == 18.0
    assert factors["financial_strength"]["evidence"][0] == {
        "input": "equity",
        "value": 300000.0,
        "date": "2024-12-31",
        "source": "test_register",
    }
    for missing in ("liquidity", "payment_discipline", "sanctions", "tax_reliability"):
        assert (factors[missing]["available"], factors[missing]["points"]) == (False, None)
    assert "sanctions.sanctions_screening" in body["missing_inputs"]
    # (18 + 13.875 + 9 + 3 + 10 + 10) of the 70 points whose inputs exist
    assert (body["grade"], body["score"], body["confidence"], body["model_version"], body["caps"]) == (
        "A+",
        91.2,
        0.7,
        "credit-2026.12.1",
        [],
    )
    assert body["statement"]["year"] == 2024


def test_credit_score_withheld_and_capped(client, auth, data):
    bare = assert_envelope(get(client, auth, BARE, "credit-score"))
    assert (bare["score"], bare["grade"]) == (None, None) and "no financial statement" in bare[
        "withheld_reason"
    ]
    bankrupt = assert_envelope(get(client, auth, BANKRUPT, "credit-score"))
    assert (bankrupt["score"], bankrupt["grade"], bankrupt["caps"]) == (15.0, "F", ["in_bankruptcy"])


def test_credit_limit_and_history(client, auth, data):
    body = assert_envelope(get(client, auth, ACME, "credit"))
    # min(1,200,000 / 12, 300,000 / 2) = 100,000, x 1.0 for A+
    assert body["limit"] | {"rule": None, "eur_rate": None} == {
        "amount": 100_000,
        "currency": "EUR",
        "amount_eur": 100_000,
        "eur_rate": None,
        "base": 100_000,
        "share": 1.0,
        "rule": None,
        "reason": "min(revenue/12, equity/2) of 2024 x 1.0 for grade A+",
    }
    assert [(h["year"], h["as_of"]) for h in body["history"]] == [
        (2024, "2025-01-01"),
        (2023, "2024-01-01"),
        (2022, "2023-01-01"),
    ]
    assert all(h["grade"] for h in body["history"]) and body["grade"] == "A+"
    assert assert_envelope(get(client, auth, BARE, "credit"))["limit"]["amount"] is None


def test_risk(client, auth, data):
    body = assert_envelope(get(client, auth, BANKRUPT, "risk"))
    assert [d["code"] for d in body["drivers"]] == ["in_bankruptcy", "negative_equity", "loss"]
    assert (body["score"], body["level"], body["model_version"]) == (90, "severe", "risk-2026.12.1")
    assert body["missing_inputs"] == ["sanctions_screening", "tax_reliability_lists", "debtor_lists"]
    clean = assert_envelope(get(client, auth, ACME, "risk"))
    assert (clean["score"], clean["level"], clean["drivers"]) == (0, "low", [])


def test_peers_live_then_precomputed(client, auth, engine, data):
    live = assert_envelope(get(client, auth, ACME, "peers"))
    assert live["group"] | {"computed_at": None} == {
        "level": "class",
        "nace": "6201",
        "country": "SK",
        "size_class": "small",
        "currency": "EUR",
        "peer_count": 7,
        "basis": "live",
        "computed_at": None,
    }
    margin = next(m for m in live["metrics"] if m["metric"] == "net_margin")
    assert (margin["value"], margin["quartile"], margin["assessment"], margin["peer_count"]) == (
        0.075,
        4,
        "top quartile",
        7,
    )  # the company, its five peers and the bankrupt one (still active)
    # the import that wrote the statements queued the refresh, once however often it is asked for; the job
    # fills the table; the answer then reads it and agrees
    with engine.begin() as conn:
        assert enqueue_refresh_peers(conn, datetime.now(UTC)) is None
        queued = select(jobs.c.id).where(jobs.c.kind == "scores.refresh_peers", jobs.c.status == "queued")
        assert len(conn.execute(queued).all()) == 1
    result = handlers()["scores.refresh_peers"](JobContext(engine, None, 1, 1), {})  # type: ignore[arg-type]
    assert result["groups"] >= 2
    stored = assert_envelope(get(client, auth, ACME, "peers"))
    assert stored["group"]["basis"] == "precomputed" and stored["group"]["computed_at"]
    assert stored["metrics"] == live["metrics"]


def test_peers_without_enough_data(client, auth, engine, data):
    assert assert_envelope(get(client, auth, BARE, "peers"))["reason"] == "no financial statement on record"
    body = assert_envelope(get(client, auth, SKODA, "peers"))
    assert (body["group"]["level"], body["group"]["peer_count"], body["metrics"]) == ("division", 1, [])
    benchmarks.refresh(engine)
    assert assert_envelope(get(client, auth, SKODA, "peers"))["group"]["basis"] == "precomputed"


def test_similar(client, auth, data):
    body = assert_envelope(get(client, auth, ACME, "similar", scope="region"))
    assert body["size_basis"] == "revenue_eur" and body["region"] == "SK010"
    names = [i["national_id"] for i in body["items"]]
    assert ACME not in names and BANKRUPT not in names and set(names) <= set(PEERS)
    first = body["items"][0]
    assert first["reasons"][0] == "same NACE class 62.01" and first["reasons"][-1] == "same region SK010"
    assert [i["distance"] for i in body["items"]] == sorted(i["distance"] for i in body["items"])
    world = assert_envelope(get(client, auth, ACME, "similar", scope="world", limit=2))
    assert len(world["items"]) == 2
    assert assert_envelope(get(client, auth, BARE, "similar"))["size_basis"] == "employees"
    skoda = assert_envelope(get(client, auth, SKODA, "similar"))
    assert (skoda["items"], skoda["reason"]) == ([], "no comparable company found")


def test_score_dispute_is_stored_for_the_key(client, auth, engine, data):
    body = {
        "score": "credit",
        "reason": "Náš výkaz za rok 2024 ukazuje vyšší vlastné imanie 🙂",
        "factor": "financial_strength",
        "evidence_url": "https://example.org/vykaz.pdf",
    }
    resp = client.post(f"/api/v1/companies/{ACME}/score-dispute", json=body, headers=auth)
    out = assert_envelope(resp, 201)
    assert out | {"id": 0, "created_at": None, "disputed_score": None} == {
        "id": 0,
        "status": "received",
        "country": "SK",
        "national_id": ACME,
        "score_type": "credit",
        "model_version": "credit-2026.12.1",
        "disputed_score": None,
        "disputed_grade": "A+",
        "factor": "financial_strength",
        "reason": body["reason"],
        "evidence_url": body["evidence_url"],
        "contact_email": None,
        "created_at": None,
    }
    with engine.connect() as conn:
        row = conn.execute(select(score_disputes)).mappings().one()
    assert (row["id"], row["reason"], row["api_key_id"]) == (out["id"], body["reason"], row["api_key_id"])
    risk = assert_envelope(
        client.post(
            f"/api/v1/companies/{BANKRUPT}/score-dispute",
            json={"score": "risk", "reason": "x", "factor": "loss"},
            headers=auth,
        ),
        201,
    )
    assert (risk["disputed_score"], risk["model_version"]) == (90, "risk-2026.12.1")


@pytest.mark.parametrize(
    "body",
    [
        {"score": "credit"},
        {"score": "credit", "reason": ""},
        {"score": "credit", "reason": "x" * 5001},
        {"score": "fico", "reason": "x"},
        {"score": "credit", "reason": 5},
        {"score": "credit", "reason": "x", "foo": 1},
        {"score": "credit", "reason": "x", "factor": "nonsense"},
        {"score": "risk", "reason": "x", "factor": "age"},
        {"score": "credit", "reason": "x", "evidence_url": "javascript:alert(1)"},
        [],
    ],
)
def test_bad_disputes(client, auth, data, body):
    assert_error(
        client.post(f"/api/v1/companies/{ACME}/score-dispute", json=body, headers=auth),
        422,
        "VALIDATION_ERROR",
    )


PATHS = ["financial-history", "credit-score", "credit", "risk", "peers", "similar"]


@pytest.mark.parametrize(
    "ico, params, status, code",
    [
        ("35757442", {}, 404, "NOT_FOUND"),
        (ACME, {"country": "cz"}, 404, "NOT_FOUND"),
        ("35760002", {"country": "sk"}, 422, "VALIDATION_ERROR"),  # check digit
        ("1" * 41, {}, 422, "VALIDATION_ERROR"),
        ("%C5%BDilina'%20OR%201=1", {}, 422, "VALIDATION_ERROR"),
        (ACME, {"country": "xyz"}, 422, "VALIDATION_ERROR"),
        (ACME, {"scpoe": "world"}, 422, "VALIDATION_ERROR"),
    ],
)
def test_bad_requests(client, auth, data, ico, params, status, code):
    for path in PATHS:
        assert_error(get(client, auth, ico, path, **params), status, code)


def test_similar_scope_and_limit_are_checked(client, auth, data):
    assert_error(get(client, auth, ACME, "similar", scope="galaxy"), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, ACME, "similar", limit=101), 422, "VALIDATION_ERROR")


def test_ambiguous_and_keyless(client, auth, engine, data):
    load_companies(engine, CompanyRecord(country="CZ", national_id=ACME, name="Česká ACME s.r.o."))
    for path in PATHS:
        assert_error(get(client, auth, ACME, path), 409, "AMBIGUOUS_IDENTIFIER")
        assert assert_envelope(get(client, auth, ACME, path, country="sk")) is not None
        assert_error(client.get(f"/api/v1/companies/{ACME}/{path}"), 401, "UNAUTHORIZED")
    assert_error(
        client.post(
            f"/api/v1/companies/{ACME}/score-dispute", json={"score": "credit", "reason": "x"}, headers=auth
        ),
        409,
        "AMBIGUOUS_IDENTIFIER",
    )


def test_dispute_needs_a_key_and_a_company(client, auth, data):
    body = {"score": "credit", "reason": "x"}
    assert_error(client.post(f"/api/v1/companies/{ACME}/score-dispute", json=body), 401, "UNAUTHORIZED")
    assert_error(
        client.post("/api/v1/companies/35757442/score-dispute", json=body, headers=auth), 404, "NOT_FOUND"
    )


def test_reimport_changes_no_score(client, auth, engine, data):
    before = [assert_envelope(get(client, auth, ACME, p)) for p in ("credit-score", "risk", "credit")]
    load_companies(
        engine, company(ACME, "ACME Software s.r.o.", fin(2024, 1_200_000, 90_000, 800_000, 300_000))
    )
    after = [assert_envelope(get(client, auth, ACME, p)) for p in ("credit-score", "risk", "credit")]
    assert after == before


def test_gazette_notices_feed_the_models_with_their_dates(client, auth, engine, settings):
    # 12042773: restructuring from 2024-03-12 to 2024-09-10, liquidation from 2024-10-08 (real notice format)
    run_import(engine, GAZETTE, str(FIXTURES / "export_sample.xml"), settings.data_dir)
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="12042773",
            financials=[
                fin(2023, 500_000, 20_000, 400_000, 150_000),
                fin(2024, 400_000, -10_000, 380_000, 120_000),
            ],
        ),
    )
    score = assert_envelope(get(client, auth, "12042773", "credit-score"))
    legal = next(f for f in score["factors"] if f["code"] == "legal_events")
    assert (score["caps"], score["grade"], legal["value"], legal["points"]) == (
        ["in_liquidation"],
        "F",
        "in_liquidation",
        0.0,
    )
    history = assert_envelope(get(client, auth, "12042773", "credit"))["history"]
    assert [(h["year"], h["grade"]) for h in history][0] == (2024, "F")  # liquidation began 2024-10-08
    assert history[1]["grade"] not in ("E", "F")  # on 2024-01-01 no notice had been published
    drivers = {d["code"]: d for d in assert_envelope(get(client, auth, "12042773", "risk"))["drivers"]}
    assert set(drivers) >= {"in_liquidation", "recent_insolvency", "loss"}
    assert drivers["recent_insolvency"]["evidence"][0] | {"source": None} == {
        "input": "restructuring_end",
        "value": "2024-09-10",
        "date": "2024-09-10",
        "source": None,
    }
