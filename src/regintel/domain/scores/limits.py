"""The credit limit rule and the grade history (docs/scores.md, "Credit limit" and "Grade history")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal

from regintel.domain.scores.credit import CreditScore, credit_score
from regintel.domain.scores.facts import CompanyFacts, facts_on
from regintel.domain.scores.figures import Statement, latest_per_year

# Share of the base amount a grade may be granted.
GRADE_SHARE = {
    "A+": Decimal("1.0"),
    "A": Decimal("0.8"),
    "B": Decimal("0.6"),
    "C": Decimal("0.4"),
    "D": Decimal("0.2"),
    "E": Decimal("0.1"),
    "F": Decimal("0"),
}
MONTHS_OF_REVENUE = 12  # the base is one month of revenue …
EQUITY_SHARE = Decimal("0.5")  # … but never more than half the equity


@dataclass(frozen=True)
class CreditLimit:
    amount: Decimal | None
    currency: str | None
    base: Decimal | None  # min(revenue / 12, equity / 2)
    share: Decimal | None  # of the base, by grade
    reason: str


def round_down(amount: Decimal) -> Decimal:
    """Two significant digits, rounded down (12,345 → 12,000): a limit is not precise to the euro."""
    if amount <= 0:
        return Decimal(0)
    exp = amount.adjusted() - 1
    return (amount.scaleb(-exp).to_integral_value(ROUND_DOWN)).scaleb(exp).quantize(Decimal(1))


def credit_limit(result: CreditScore) -> CreditLimit:
    """min(one month of revenue, half the equity) times the grade's share; zero with negative equity."""
    s = result.statement
    if result.grade is None or s is None:
        return CreditLimit(None, None, None, None, "no grade: " + (result.withheld_reason or "no statement"))
    share = GRADE_SHARE[result.grade]
    if s.revenue is None or s.equity is None:
        return CreditLimit(None, s.currency, None, share, "the latest statement lacks revenue or equity")
    base = max(Decimal(0), min(s.revenue / MONTHS_OF_REVENUE, s.equity * EQUITY_SHARE))
    return CreditLimit(
        round_down(base * share),
        s.currency,
        base.quantize(Decimal("0.01")),
        share,
        f"min(revenue/12, equity/2) of {s.year} x {share} for grade {result.grade}",
    )


@dataclass(frozen=True)
class HistoryPoint:
    year: int
    as_of: date
    result: CreditScore


def grade_history(facts: CompanyFacts, statements: list[Statement]) -> list[HistoryPoint]:
    """The grade each statement year earned: the model run the day after the period ended, on the
    statements up to then and the company's dated state on that day. Newest first."""
    out = []
    for s in latest_per_year(statements):
        as_of = s.period_end + timedelta(days=1) if s.period_end < date.max else s.period_end
        seen = [x for x in statements if x.period_end <= s.period_end]
        out.append(HistoryPoint(s.year, as_of, credit_score(facts_on(facts, s.period_end), seen, as_of)))
    return out[::-1]
