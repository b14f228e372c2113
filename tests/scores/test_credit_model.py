"""The credit model of docs/scores.md: each factor at its band boundaries (golden), and properties:
bounded, monotone in each positive input, independent of statement order, unknown never counted as good."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regintel.domain.scores import credit as model
from regintel.domain.scores.facts import CompanyFacts, InsolvencyEvent, facts_on
from regintel.domain.scores.figures import Statement, altman_z2

AS_OF = date(2026, 6, 30)
D = Decimal


def stmt(
    year: int = 2025,
    *,
    revenue: float | None = 1000,
    profit: float | None = 50,
    assets: float | None = 1000,
    equity: float | None = 400,
    liabilities: float | None = 600,
    employees: int | None = 12,
    **extra: object,
) -> Statement:
    def dec(v: float | None) -> Decimal | None:
        return None if v is None else D(str(v))

    return Statement(
        year=year,
        currency="EUR",
        period_end=date(year, 12, 31),
        source="test",
        revenue=dec(revenue),
        profit=dec(profit),
        total_assets=dec(assets),
        equity=dec(equity),
        liabilities=dec(liabilities),
        employees=employees,
        **extra,
    )  # type: ignore[arg-type]


FACTS = CompanyFacts(source="test", founded_on=date(2000, 1, 1), employees=12)


@pytest.mark.parametrize(
    "equity, fraction",
    [
        (-1, 0.0),
        (0, 0.25),
        (99.9, 0.25),
        (100, 0.5),
        (199.9, 0.5),
        (200, 0.75),
        (349.9, 0.75),
        (350, 0.9),
        (499.9, 0.9),
        (500, 1.0),
        (1000, 1.0),
    ],
)
def test_financial_strength_bands(equity, fraction):
    f = model.financial_strength(stmt(equity=equity, assets=1000))
    assert (f.fraction, f.points) == (fraction, round(fraction * 20, 2))


def test_financial_strength_uses_the_z2_zone_when_the_statement_has_its_inputs():
    # X1 = 0.2, X2 = 0.1, X3 = 0.1, X4 = 400/600: Z'' = 1.312 + 0.326 + 0.672 + 0.7 = 3.01 (safe zone)
    s = stmt(current_assets=D(500), current_liabilities=D(300), retained_earnings=D(100), ebit=D(100))
    assert altman_z2(s) == pytest.approx(3.01)
    f = model.financial_strength(s)
    assert (f.fraction, f.missing) == ((0.9 + 1.0) / 2, ())  # equity ratio 0.4: 0.9
    assert model.financial_strength(stmt()).missing == (
        "altman_z2.current_assets",
        "altman_z2.current_liabilities",
        "altman_z2.retained_earnings",
        "altman_z2.ebit",
    )


@pytest.mark.parametrize("z2, fraction", [(1.0999, 0.0), (1.1, 0.5), (2.5999, 0.5), (2.6, 1.0)])
def test_z2_zones(z2, fraction):
    assert model.Z2_ZONES.fraction(z2) == fraction


@pytest.mark.parametrize(
    "profit, fraction",
    [
        (-101, 0.0),
        (-100, (0.2 + 0.0) / 2),
        (-51, (0.2 + 0.0) / 2),
        (-50, 0.2),
        (-1, 0.2),
        (0, 0.5),
        (20, 0.7),
        (50, 0.85),
        (100, 1.0),
    ],
)
def test_profitability_bands(profit, fraction):
    # revenue = assets = 1000, so the return on assets and the net margin are equal
    assert model.profitability(stmt(profit=profit)).fraction == pytest.approx(fraction)


@pytest.mark.parametrize("ratio, fraction", [(0.79, 0.0), (0.8, 0.3), (1.0, 0.6), (1.5, 0.85), (2.0, 1.0)])
def test_liquidity_bands(ratio, fraction):
    s = stmt(current_assets=D(str(ratio * 100)), current_liabilities=D(100))
    assert model.liquidity(s).fraction == fraction
    assert model.liquidity(stmt()).fraction is None


@pytest.mark.parametrize(
    "days, fraction",
    [
        (365, 0.1),
        (366, 0.3),
        (3 * 365 + 1, 0.5),
        (5 * 365 + 2, 0.7),
        (10 * 365 + 3, 0.9),
        (20 * 365 + 5, 1.0),
    ],
)
def test_age_bands(days, fraction):
    facts = replace(FACTS, founded_on=AS_OF - timedelta(days=days))
    assert model.age(facts, AS_OF).fraction == fraction


@pytest.mark.parametrize(
    "employees, size, fraction",
    [(9, "micro", 0.4), (10, "small", 0.6), (49, "small", 0.6), (50, "medium", 0.8), (250, "large", 1.0)],
)
def test_size_bands(employees, size, fraction):
    f = model.size(FACTS, stmt(employees=employees))
    assert (f.value, f.fraction) == (size, fraction)


def test_size_falls_back_to_the_register():
    assert (
        model.size(replace(FACTS, employees=None, size_class="250-499"), stmt(employees=None)).value
        == "large"
    )
    assert model.size(replace(FACTS, employees=None), None).fraction is None


@pytest.mark.parametrize("years_ago, fraction", [(4.99, 0.4), (5.01, 0.7), (9.99, 0.7), (10.01, 1.0)])
def test_legal_events_after_an_insolvency(years_ago, fraction):
    ended = AS_OF - timedelta(days=round(years_ago * 365.25))
    facts = replace(FACTS, events=(InsolvencyEvent("bankruptcy", "end", ended, "gazette"),))
    assert model.legal_events(facts, AS_OF).fraction == fraction


@pytest.mark.parametrize(
    "facts, score, grade, caps",
    [
        (replace(FACTS, in_bankruptcy=True), 15.0, "F", ("in_bankruptcy",)),
        (replace(FACTS, status="dissolved"), 15.0, "F", ("dissolved",)),
        (replace(FACTS, in_liquidation=True), 30.0, "F", ("in_liquidation",)),
        (replace(FACTS, in_restructuring=True), 45.0, "E", ("in_restructuring",)),
        (replace(FACTS, sanctions_hits=1), 15.0, "F", ("sanctioned",)),
    ],
)
def test_knock_outs_cap_the_score(facts, score, grade, caps):
    r = model.credit_score(facts, [stmt(equity=900, profit=200)], AS_OF)
    assert (r.score, r.grade, r.caps) == (score, grade, caps)


@pytest.mark.parametrize(
    "score, grade",
    [
        (100, "A+"),
        (90, "A+"),
        (89.9, "A"),
        (80, "A"),
        (79.9, "B"),
        (70, "B"),
        (60, "C"),
        (59.9, "D"),
        (50, "D"),
        (49.9, "E"),
        (35, "E"),
        (34.9, "F"),
        (0, "F"),
    ],
)
def test_grade_boundaries(score, grade):
    assert model.grade_of(score) == grade


def test_a_healthy_company_and_what_is_missing():
    r = model.credit_score(FACTS, [stmt(2024), stmt(2025, equity=500, profit=100)], AS_OF)
    # known: strength 20 + profitability 15 + age 10 + size 3 + legal 10 + insolvency 10 = 68 of 70
    assert r.score == round(100 * (20 + 15 + 10 + 0.6 * 5 + 10 + 10) / 70, 1)
    assert (r.grade, r.confidence, r.statement.year) == ("A+", 0.7, 2025)
    assert {f.code for f in r.factors if f.fraction is None} == {
        "liquidity",
        "payment_discipline",
        "sanctions",
        "tax_reliability",
    }
    assert (
        "sanctions.sanctions_screening" in r.missing_inputs and "liquidity.current_assets" in r.missing_inputs
    )


def test_no_statement_withholds_the_grade_and_a_stale_one_lowers_confidence():
    r = model.credit_score(FACTS, [], AS_OF)
    assert (r.score, r.grade) == (None, None) and r.withheld_reason
    assert model.credit_score(replace(FACTS, in_bankruptcy=True), [], AS_OF).grade == "F"
    old = model.credit_score(FACTS, [stmt(2022)], AS_OF)
    assert old.confidence == round(0.7 * model.STALE_CONFIDENCE, 2)
    # a statement whose period has not ended by the day of the score is not read
    assert model.credit_score(FACTS, [stmt(2026)], AS_OF).statement is None
    # revenue and profit without a balance sheet: profitability is known, the grade still withheld
    income_only = model.credit_score(FACTS, [stmt(assets=None, equity=None, liabilities=None)], AS_OF)
    assert (income_only.grade, income_only.factors[1].fraction, income_only.statement.year) == (
        None,
        0.85,
        2025,
    )


def test_known_clean_inputs_raise_confidence_and_bad_ones_lower_the_score():
    clean = replace(FACTS, sanctions_hits=0, tax_reliable=True, payment_defaults=0)
    base = model.credit_score(FACTS, [stmt()], AS_OF)
    full = model.credit_score(clean, [stmt()], AS_OF)
    assert full.confidence == 0.9 > base.confidence
    worse = model.credit_score(replace(clean, tax_reliable=False, payment_defaults=2), [stmt()], AS_OF)
    assert worse.score < full.score


def test_facts_on_a_past_day_follow_the_dated_notices():
    facts = replace(
        FACTS,
        in_bankruptcy=True,
        events=(
            InsolvencyEvent("restructuring", "start", date(2020, 3, 1), "g"),
            InsolvencyEvent("bankruptcy", "start", date(2021, 5, 1), "g"),
        ),
        dissolved_on=date(2025, 1, 1),
    )
    assert (
        facts_on(facts, date(2019, 1, 1)).in_restructuring,
        facts_on(facts, date(2020, 6, 1)).in_restructuring,
        facts_on(facts, date(2021, 6, 1)).in_bankruptcy,
        facts_on(facts, date(2021, 6, 1)).in_restructuring,
    ) == (False, True, True, False)
    assert facts_on(facts, date(2025, 6, 1)).status == "dissolved"
    assert facts_on(facts, date(2024, 6, 1)).status == "active"


# -- properties ------------------------------------------------------------------------------------

money = st.integers(min_value=-(10**9), max_value=10**9)
positive = st.integers(min_value=1, max_value=10**9)
maybe = st.one_of(st.none(), money)


@st.composite
def statements(draw: st.DrawFn) -> Statement:
    return stmt(
        draw(st.integers(2015, 2025)),
        statement_id=draw(st.integers(1, 10**9)),
        revenue=draw(maybe),
        profit=draw(maybe),
        assets=draw(st.one_of(st.none(), positive)),
        equity=draw(maybe),
        liabilities=draw(maybe),
        employees=draw(st.one_of(st.none(), st.integers(0, 100_000))),
    )


@st.composite
def company_facts(draw: st.DrawFn) -> CompanyFacts:
    bankrupt = draw(st.booleans())
    return CompanyFacts(
        source="test",
        status=draw(st.sampled_from(["active", "dissolved", "inactive"])),
        founded_on=draw(st.one_of(st.none(), st.dates(date(1900, 1, 1), AS_OF))),
        in_bankruptcy=bankrupt,
        in_restructuring=not bankrupt and draw(st.booleans()),
        in_liquidation=draw(st.booleans()),
        employees=draw(st.one_of(st.none(), st.integers(0, 10**5))),
        sanctions_hits=draw(st.one_of(st.none(), st.integers(0, 3))),
        tax_reliable=draw(st.one_of(st.none(), st.booleans())),
        payment_defaults=draw(st.one_of(st.none(), st.integers(0, 5))),
    )


@settings(max_examples=300, deadline=None)
@given(company_facts(), st.lists(statements(), max_size=4))
def test_score_is_bounded_and_order_free(facts, stmts):
    stmts = list({s.statement_id: s for s in stmts}.values())  # ids are unique, as in the table
    r = model.credit_score(facts, stmts, AS_OF)
    assert r.score is None or 0 <= r.score <= 100
    assert 0 <= r.confidence <= 1
    assert (r.score is None) == (r.grade is None)
    assert model.credit_score(facts, stmts[::-1], AS_OF) == r  # the same data in another order, re-imported


@settings(max_examples=300, deadline=None)
@given(company_facts(), money, money, positive, st.integers(0, 10**8))
def test_monotone_in_equity_and_profit(facts, equity, profit, assets, more):
    s = stmt(equity=equity, profit=profit, assets=assets, revenue=assets)
    base = model.credit_score(facts, [s], AS_OF).score
    assert model.credit_score(facts, [replace(s, equity=D(equity + more))], AS_OF).score >= base
    assert model.credit_score(facts, [replace(s, profit=D(profit + more))], AS_OF).score >= base


@settings(max_examples=300, deadline=None)
@given(
    company_facts(),
    st.dates(date(1900, 1, 1), AS_OF),
    st.integers(0, 20_000),
    st.integers(0, 10**5),
    st.integers(0, 10**5),
)
def test_monotone_in_age_and_size(facts, founded, older, employees, more):
    s = stmt(employees=employees)
    base = model.credit_score(replace(facts, founded_on=founded), [s], AS_OF).score
    earlier = max(date(1800, 1, 1), founded - timedelta(days=older))
    assert model.credit_score(replace(facts, founded_on=earlier), [s], AS_OF).score >= base
    assert (
        model.credit_score(
            replace(facts, founded_on=founded), [replace(s, employees=employees + more)], AS_OF
        ).score
        >= base
    )


@settings(max_examples=200, deadline=None)
@given(company_facts(), st.lists(statements(), min_size=1, max_size=3))
def test_unknown_inputs_never_score_better_than_clean_ones_lower_confidence(facts, stmts):
    unknown = replace(facts, sanctions_hits=None, tax_reliable=None, payment_defaults=None)
    clean = replace(facts, sanctions_hits=0, tax_reliable=True, payment_defaults=0)
    a, b = model.credit_score(unknown, stmts, AS_OF), model.credit_score(clean, stmts, AS_OF)
    assert a.confidence < b.confidence


@settings(max_examples=300, deadline=None)
@given(
    company_facts(),
    st.lists(statements(), min_size=1, max_size=3),
    st.integers(0, 5),
    st.integers(0, 5),
    st.integers(0, 3),
    st.dates(date(1990, 1, 1), AS_OF),
    st.integers(0, 5000),
)
def test_monotone_in_the_register_inputs(facts, stmts, defaults, fewer, hits, ended, earlier):
    """Fewer payment defaults, no sanctions hit, a reliable tax status, an insolvency that ended longer
    ago: each never lowers the score."""

    def at_least(better: CompanyFacts, worse: CompanyFacts) -> bool:
        a, b = model.credit_score(better, stmts, AS_OF).score, model.credit_score(worse, stmts, AS_OF).score
        return a is None or b is None or a >= b  # withheld (no balance sheet) is no score to compare

    assert at_least(
        replace(facts, payment_defaults=max(0, defaults - fewer)), replace(facts, payment_defaults=defaults)
    )
    assert at_least(replace(facts, sanctions_hits=0), replace(facts, sanctions_hits=hits))
    assert at_least(replace(facts, tax_reliable=True), replace(facts, tax_reliable=False))
    event = InsolvencyEvent("bankruptcy", "end", ended, "g")
    older = replace(event, on=max(date(1900, 1, 1), ended - timedelta(days=earlier)))
    assert at_least(replace(facts, events=(older,)), replace(facts, events=(event,)))
