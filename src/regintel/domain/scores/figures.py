"""One annual statement, its derived ratios, and the Altman Z''-score for private firms.

A ratio is None when an input is missing or its denominator is not positive: a ratio over a zero or
negative base (a margin on no revenue, leverage over negative equity) has no meaning to compare.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

_PERIOD = re.compile(r"(\d{4})-(\d{2})(?:-(\d{2}))?")


@dataclass(frozen=True)
class Statement:
    """The lines of one statement the models read. The last five are not carried by any imported
    source yet (they stay None); the models use them when a source starts to."""

    year: int
    currency: str
    period_end: date
    source: str
    revenue: Decimal | None = None
    profit: Decimal | None = None
    total_assets: Decimal | None = None
    equity: Decimal | None = None
    liabilities: Decimal | None = None
    employees: int | None = None
    current_assets: Decimal | None = None
    current_liabilities: Decimal | None = None
    retained_earnings: Decimal | None = None
    ebit: Decimal | None = None
    statement_id: int | None = None


def period_end(period_to: str | None, year: int) -> date:
    """The last day of a statement's period: `2023-12` → 2023-12-31, `2023-06-30` as is; without a
    usable period, 31 December of its year."""
    match = _PERIOD.fullmatch(period_to or "")
    if match:
        y, m = int(match.group(1)), int(match.group(2))
        if 1 <= m <= 12:
            last = calendar.monthrange(y, m)[1]
            d = int(match.group(3)) if match.group(3) else last
            return date(y, m, min(max(d, 1), last)) if y >= 1 else year_end(year)
    return year_end(year)


def year_end(year: int) -> date:
    """31 December of `year`, kept within the calendar `date` can hold (a source's stray year never
    turns into an error)."""
    return date(min(max(year, 1), 9999), 12, 31)


def _div(a: Decimal | int | None, b: Decimal | int | None) -> float | None:
    if a is None or b is None or b <= 0:
        return None
    return float(a) / float(b)


@dataclass(frozen=True)
class Ratios:
    net_margin: float | None  # profit / revenue
    return_on_assets: float | None  # profit / total assets
    equity_ratio: float | None  # equity / total assets
    debt_ratio: float | None  # liabilities / total assets
    leverage: float | None  # liabilities / equity (debt-to-equity), None when equity <= 0
    asset_turnover: float | None  # revenue / total assets
    current_ratio: float | None  # current assets / current liabilities (liquidity)
    revenue_growth: float | None  # against the previous year's statement
    profit_growth: float | None  # profit change over |previous profit|
    employee_growth: float | None
    altman_z2: float | None


RATIO_NAMES = tuple(Ratios.__dataclass_fields__)


def _growth(now: Decimal | int | None, before: Decimal | int | None) -> float | None:
    if now is None or before is None or before == 0:
        return None
    return (float(now) - float(before)) / abs(float(before))


def ratios(s: Statement, previous: Statement | None = None) -> Ratios:
    """The ratios of `s`; growth against `previous` when it is the year before."""
    prev = previous if previous is not None and previous.year == s.year - 1 else None
    return Ratios(
        net_margin=_div(s.profit, s.revenue),
        return_on_assets=_div(s.profit, s.total_assets),
        equity_ratio=_div(s.equity, s.total_assets),
        debt_ratio=_div(s.liabilities, s.total_assets),
        leverage=_div(s.liabilities, s.equity),
        asset_turnover=_div(s.revenue, s.total_assets),
        current_ratio=_div(s.current_assets, s.current_liabilities),
        revenue_growth=_growth(s.revenue, prev.revenue) if prev else None,
        profit_growth=_growth(s.profit, prev.profit) if prev else None,
        employee_growth=_growth(s.employees, prev.employees) if prev else None,
        altman_z2=altman_z2(s),
    )


# Altman (1995/2000): Z'' = 6.56 X1 + 3.26 X2 + 6.72 X3 + 1.05 X4 for private, non-manufacturing firms.
Z2_WEIGHTS = (6.56, 3.26, 6.72, 1.05)
Z2_DISTRESS, Z2_SAFE = 1.1, 2.6
Z2_INPUTS = (
    "current_assets",
    "current_liabilities",
    "retained_earnings",
    "ebit",
    "total_assets",
    "equity",
    "liabilities",
)


def z2_missing(s: Statement) -> list[str]:
    """The inputs of the Z''-score this statement lacks."""
    return [name for name in Z2_INPUTS if getattr(s, name) is None]


def altman_z2(s: Statement) -> float | None:
    """X1 working capital / TA, X2 retained earnings / TA, X3 EBIT / TA, X4 book equity / total
    liabilities; None unless every input is present and TA and liabilities are positive."""
    ta, ca, cl, re_, ebit, eq, li = (
        s.total_assets,
        s.current_assets,
        s.current_liabilities,
        s.retained_earnings,
        s.ebit,
        s.equity,
        s.liabilities,
    )
    if ta is None or ca is None or cl is None or re_ is None or ebit is None or eq is None or li is None:
        return None
    if ta <= 0 or li <= 0:
        return None
    x = (float(ca - cl) / float(ta), float(re_) / float(ta), float(ebit) / float(ta), float(eq) / float(li))
    return sum(w * v for w, v in zip(Z2_WEIGHTS, x, strict=True))


def latest_per_year(statements: list[Statement]) -> list[Statement]:
    """One statement per year (the last written, as `latest_financials` picks), oldest first."""
    by_year: dict[int, Statement] = {}
    for s in sorted(statements, key=lambda s: (s.year, s.statement_id or 0)):
        by_year[s.year] = s
    return [by_year[y] for y in sorted(by_year)]
