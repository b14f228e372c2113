"""Ratios, euro conversion, the credit limit, the grade history, the risk score, peers and competitors."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regintel.areas.scores.fx import rate_table
from regintel.domain.scores import peers, risk, similar
from regintel.domain.scores.credit import credit_score
from regintel.domain.scores.facts import InsolvencyEvent
from regintel.domain.scores.figures import period_end, ratios
from regintel.domain.scores.fx import to_eur
from regintel.domain.scores.limits import credit_limit, grade_history, round_down
from tests.scores.test_credit_model import AS_OF, FACTS, stmt

D = Decimal


@pytest.mark.parametrize(
    "period_to, year, end",
    [
        ("2023-12", 2023, date(2023, 12, 31)),
        ("2024-02", 2024, date(2024, 2, 29)),
        ("2023-06-30", 2023, date(2023, 6, 30)),
        (None, 2021, date(2021, 12, 31)),
        ("2023-13", 2023, date(2023, 12, 31)),
        ("junk", 2020, date(2020, 12, 31)),
        ("0000-12", 0, date(1, 12, 31)),
        (None, 99999, date(9999, 12, 31)),
    ],
)
def test_period_end(period_to, year, end):
    assert period_end(period_to, year) == end


def test_ratios_and_growth():
    r = ratios(
        stmt(2025, revenue=1200, profit=60, assets=1000, equity=-10, liabilities=1010, employees=11),
        stmt(2024, revenue=1000, profit=-30, employees=10),
    )
    assert (r.net_margin, r.return_on_assets, r.equity_ratio, r.debt_ratio, r.leverage, r.asset_turnover) == (
        0.05,
        0.06,
        -0.01,
        1.01,
        None,
        1.2,
    )
    assert (r.revenue_growth, r.profit_growth, r.employee_growth) == pytest.approx((0.2, 3.0, 0.1))
    assert (r.current_ratio, r.altman_z2) == (None, None)
    assert ratios(stmt(2025), stmt(2023)).revenue_growth is None  # not the year before
    assert ratios(stmt(revenue=0)).net_margin is None


def test_ecb_rates_of_the_bundled_table():
    table = rate_table()
    dec = table.find("czk", date(2023, 12, 31))
    assert (dec.currency, dec.rate, dec.on) == ("CZK", D("24.724"), date(2023, 12, 29))
    assert table.find("GBP", date(2024, 6, 30)).on == date(2024, 6, 28)
    assert table.find("GBP", date(2024, 6, 15)).on == date(2024, 5, 31)  # the last month end before
    assert table.find("EUR", date(2020, 1, 1)).rate == 1
    assert table.find("UAH", date(2024, 1, 1)) is None  # not an ECB reference currency
    assert table.find("HRK", date(2022, 12, 31)).rate == D("7.5365")
    assert table.find("NOK", date(1999, 1, 1)) is None
    assert to_eur(D("24724"), dec) == D("1000.00") and to_eur(None, dec) is None


@pytest.mark.parametrize(
    "amount, out",
    [
        (D("12345.6"), D("12000")),
        (D("987"), D("980")),
        (D("5"), D("5")),
        (D("0"), D("0")),
        (D("-5"), D("0")),
        (D("1999999"), D("1900000")),
    ],
)
def test_round_down(amount, out):
    assert round_down(amount) == out


def test_credit_limit_rule():
    r = credit_score(
        FACTS, [stmt(revenue=1_200_000, equity=500_000, assets=1_000_000, profit=100_000)], AS_OF
    )
    lim = credit_limit(r)
    assert r.grade == "A+" and (lim.base, lim.share, lim.amount, lim.currency) == (
        D("100000.00"),
        D("1.0"),
        D("100000"),
        "EUR",
    )
    equity_bound = credit_limit(
        credit_score(FACTS, [stmt(revenue=1_200_000, equity=60_000, assets=100_000, profit=10_000)], AS_OF)
    )
    assert equity_bound.base == D("30000.00")
    assert credit_limit(credit_score(FACTS, [], AS_OF)).amount is None
    bankrupt = credit_limit(credit_score(replace(FACTS, in_bankruptcy=True), [stmt()], AS_OF))
    assert bankrupt.amount == 0


def test_grade_history_runs_the_model_on_each_year():
    facts = replace(
        FACTS,
        in_bankruptcy=True,
        events=(InsolvencyEvent("bankruptcy", "start", date(2024, 3, 1), "gazette"),),
    )
    history = grade_history(facts, [stmt(2022, profit=100), stmt(2023, profit=100), stmt(2024, profit=-300)])
    assert [(h.year, h.as_of) for h in history] == [
        (2024, date(2025, 1, 1)),
        (2023, date(2024, 1, 1)),
        (2022, date(2023, 1, 1)),
    ]
    assert history[0].result.grade == "F" and history[0].result.caps == ("in_bankruptcy",)
    assert history[1].result.caps == () and history[1].result.grade in ("A+", "A")
    assert history[2].result.factors[4].value == pytest.approx(23.0, abs=0.01)  # age on 2023-01-01
    assert (
        grade_history(FACTS, [replace(stmt(9999), period_end=date.max)])[0].as_of == date.max
    )  # no overflow


def test_risk_drivers():
    facts = replace(FACTS, founded_on=AS_OF - timedelta(days=200), in_liquidation=True)
    r = risk.risk_score(
        facts, [stmt(2024, profit=-5, revenue=1000), stmt(2025, profit=-10, revenue=700, equity=-1)], AS_OF
    )
    assert [(d.code, d.points) for d in r.drivers] == [
        ("in_liquidation", 40),
        ("young_company", 10),
        ("negative_equity", 20),
        ("loss", 10),
        ("repeated_losses", 5),
        ("revenue_decline", 10),
    ]
    assert (r.score, r.level) == (95, "severe")
    assert r.missing_inputs == ("sanctions_screening", "tax_reliability_lists", "debtor_lists")
    assert "sanctioned" not in r.checked and r.confidence == pytest.approx(1 - 105 / 385, abs=0.01)
    clean = risk.risk_score(FACTS, [stmt()], AS_OF)
    assert (clean.score, clean.level, clean.drivers) == (0, "low", ())
    none = risk.risk_score(FACTS, [], AS_OF)
    assert [d.code for d in none.drivers] == ["no_recent_statement"] and "statement" in none.missing_inputs
    assert (
        risk.risk_score(FACTS, [stmt(equity=10, liabilities=950)], AS_OF).drivers[0].code == "high_debt_ratio"
    )


@pytest.mark.parametrize(
    "score, level", [(0, "low"), (14, "low"), (15, "moderate"), (30, "high"), (50, "severe")]
)
def test_risk_levels(score, level):
    assert risk.level_of(score) == level


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-(10**6), 10**6),
    st.integers(-(10**6), 10**6),
    st.integers(0, 10**6),
    st.booleans(),
    st.booleans(),
)
def test_risk_is_bounded_and_falls_as_equity_and_profit_rise(equity, profit, more, bankrupt, liquidation):
    facts = replace(FACTS, in_bankruptcy=bankrupt, in_liquidation=liquidation)
    s = stmt(equity=equity, profit=profit)
    base = risk.risk_score(facts, [s], AS_OF).score
    assert 0 <= base <= 100
    assert risk.risk_score(facts, [replace(s, equity=D(equity + more))], AS_OF).score <= base
    assert risk.risk_score(facts, [replace(s, profit=D(profit + more))], AS_OF).score <= base


def test_quartiles_and_positions():
    q = peers.quartiles([4.0, 1.0, None, 3.0, 2.0, 5.0])
    assert q == peers.Quartiles(5, 2.0, 3.0, 4.0)
    assert peers.quartiles([None]) is None and peers.quartiles([7.0]) == peers.Quartiles(1, 7.0, 7.0, 7.0)
    assert [peers.quartile_of(v, q) for v in (1.9, 2.0, 3.0, 4.0, None)] == [1, 2, 3, 4, None]
    assert peers.assessment("debt_ratio", 4) == "bottom quartile"
    assert peers.assessment("net_margin", 4) == "top quartile" and peers.assessment("revenue", 4) is None
    assert peers.size_of("250-499", None, None) == "large" and peers.size_of("1", 60, None) == "medium"
    assert peers.size_of(None, None, 3) == "micro" and peers.size_of(None, None, None) is None


def test_similar_ranking():
    me = similar.Profile(1, "62010", "SK", "SK010", 10, 1_000_000.0)
    others = [
        similar.Profile(2, "62020", "SK", "SK010", 11, 1_100_000.0),  # same division, near
        similar.Profile(3, "62011", "CZ", "CZ010", 9, 1_000_000.0),  # same class, another country
        similar.Profile(4, "62010", "SK", "SK010", 500, 9_000_000.0),  # too big
        similar.Profile(5, "62010", "SK", "SK021", 12, 1_500_000.0),
        similar.Profile(1, "62010", "SK", "SK010", 10, 1_000_000.0),
    ]  # itself
    out = similar.rank(me, others, 10)
    # distances: 3 at 0 + 0.5 (another country), 2 at ln 1.1 + 0.5 (division), 5 at ln 1.5 + 0.25 (region)
    assert [m.profile.company_id for m in out] == [3, 2, 5]
    assert out[0].reasons == ("same NACE class 62.01", "revenue 1.00x this company's")
    assert out[2].reasons[-1] == "same country SK" and out[1].reasons[0] == "same NACE division 62"
    by_heads = similar.rank(replace(me, revenue_eur=None), [replace(others[0], revenue_eur=None)], 10)
    assert by_heads[0].reasons[1] == "headcount 1.09x this company's"
