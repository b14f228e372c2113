"""Size classes, head counts and annual statements with plausible year-on-year movement.

Sizes follow the EU SME definition by head count (micro < 10, small < 50, medium < 250, large).
Amounts are whole units of the market's currency, converted from euro figures at rough rates;
Croatian statements before 2023, when Croatia adopted the euro, are in kuna.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import NamedTuple

SIZES = (
    ("micro", 0.88, 0, 9),
    ("small", 0.09, 10, 49),
    ("medium", 0.024, 50, 249),
    ("large", 0.006, 250, 20_000),
)
EUR_RATE = {
    "EUR": 1.0,
    "GBP": 0.85,
    "CZK": 25.0,
    "PLN": 4.3,
    "NOK": 11.5,
    "CHF": 0.95,
    "RON": 5.0,
    "UAH": 45.0,
    "HRK": 7.53,
}


class Statement(NamedTuple):  # a NamedTuple: built millions of times, and far cheaper than a frozen dataclass
    year: int
    currency: str
    revenue: int
    profit: int
    total_assets: int
    equity: int
    liabilities: int
    employees: int


def size_class(rng: random.Random, boost: int = 0) -> tuple[str, int]:
    """A size class and a head count; `boost` moves group parents up one or two classes."""
    x = rng.random()
    index = 0
    for i, (_, share, _, _) in enumerate(SIZES):
        if x < share:
            index = i
            break
        x -= share
    name, _, low, high = SIZES[min(index + boost, len(SIZES) - 1)]
    if name == "micro":
        return name, rng.choice((0, 0, 1, 1, 1, 2, 2, 3, 4, 5, 6, 8))
    if name == "large":
        return name, min(high, int(low * math.exp(rng.expovariate(1.3))))
    return name, rng.randint(low, high)


def _noise(rnd: Callable[[], float]) -> float:
    """Roughly normal with mean 0 and standard deviation 1 (sum of three uniforms; cheaper than gauss)."""
    return (rnd() + rnd() + rnd() - 1.5) * 2.0


def statements(
    rng: random.Random, country: str, currency: str, employees: int, years: list[int], failing: bool
) -> list[Statement]:
    """Statements for `years` (ascending): growth drifts around a company trend; a failing company
    shrinks and ends with negative equity."""
    rnd = rng.random
    trend = 0.04 + 0.06 * _noise(rnd)
    revenue = max(15_000.0, (employees + 0.5) * 90_000 * math.exp(0.6 * _noise(rnd)))
    margin = min(0.35, max(-0.4, 0.05 + 0.08 * _noise(rnd)))
    leverage = 0.05 + 0.6 * rnd()
    out = []
    n = len(years)
    for i, year in enumerate(years):
        late = failing and i >= n - 2
        growth = (-0.25 if late else trend) + 0.12 * _noise(rnd)
        if i:
            revenue *= math.exp(growth)
        profit = revenue * (margin - (0.25 if late else 0.0) + 0.03 * (rnd() - 0.5))
        assets = revenue * (0.4 + 1.1 * rnd())
        equity = assets * (-0.05 - 0.35 * rnd() if late else leverage + 0.05 * (rnd() - 0.5))
        heads = max(0, round(employees * math.exp(growth / 2 * (i - n + 1))))
        cur = currency_for(country, currency, year)
        rate = EUR_RATE[cur]
        out.append(
            Statement(
                year,
                cur,
                round(revenue * rate),
                round(profit * rate),
                round(assets * rate),
                round(equity * rate),
                round((assets - equity) * rate),
                heads,
            )
        )
    return out


def currency_for(country: str, currency: str, year: int) -> str:
    """The currency a statement of `year` is in (Croatia reported in kuna until 2022)."""
    return "HRK" if country == "HR" and year < 2023 else currency
