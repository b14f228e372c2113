"""Peer benchmarks: the ratios compared across companies, their quartiles, and where a company stands."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from regintel.domain.company_size import category

# metric → True when higher is better (the debt ratio is better lower; revenue is size, not quality).
METRICS: dict[str, bool | None] = {
    "net_margin": True,
    "return_on_assets": True,
    "equity_ratio": True,
    "debt_ratio": False,
    "asset_turnover": True,
    "revenue": None,
    "revenue_per_employee": True,
}
MIN_PEERS = 5  # fewer peers than this in a NACE class: compare with the division instead


def _div(a: Decimal | float | None, b: Decimal | float | None) -> float | None:
    return None if a is None or b is None or b <= 0 else float(a) / float(b)


def metrics(
    revenue: Decimal | None,
    profit: Decimal | None,
    total_assets: Decimal | None,
    equity: Decimal | None,
    liabilities: Decimal | None,
    employees: int | None,
) -> dict[str, float | None]:
    """The benchmark metrics of one statement (amounts in its currency)."""
    return {
        "net_margin": _div(profit, revenue),
        "return_on_assets": _div(profit, total_assets),
        "equity_ratio": _div(equity, total_assets),
        "debt_ratio": _div(liabilities, total_assets),
        "asset_turnover": _div(revenue, total_assets),
        "revenue": None if revenue is None else float(revenue),
        "revenue_per_employee": _div(revenue, employees),
    }


@dataclass(frozen=True)
class Quartiles:
    count: int
    p25: float
    p50: float
    p75: float


def _at(sorted_values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (PostgreSQL's percentile_cont)."""
    pos = q * (len(sorted_values) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def quartiles(values: Iterable[float | None]) -> Quartiles | None:
    known = sorted(v for v in values if v is not None)
    if not known:
        return None
    return Quartiles(len(known), _at(known, 0.25), _at(known, 0.5), _at(known, 0.75))


def quartile_of(value: float | None, q: Quartiles | None) -> int | None:
    """1 (lowest quarter) to 4 (highest) of the peer distribution; None when either is unknown."""
    if value is None or q is None:
        return None
    if value < q.p25:
        return 1
    if value < q.p50:
        return 2
    return 3 if value < q.p75 else 4


def assessment(metric: str, quartile: int | None) -> str | None:
    """`top quartile` … `bottom quartile` in the metric's good direction (None for a size metric)."""
    better = METRICS[metric]
    if quartile is None or better is None:
        return None
    rank = quartile if better else 5 - quartile
    return {4: "top quartile", 3: "above median", 2: "below median", 1: "bottom quartile"}[rank]


def size_of(size_class: str | None, employees: int | None, statement_employees: int | None) -> str | None:
    """A company's EU size class for grouping: the statement's headcount, else the register's count,
    else its headcount band (`regintel.domain.company_size`)."""
    count = statement_employees if statement_employees is not None else employees
    return category(str(count)) if count is not None else category(size_class)
