"""Competitor ranking: same activity, comparable size, nearest first, each with the reasons."""

from __future__ import annotations

import math
from dataclasses import dataclass

SIZE_SPAN = 3.0  # revenue within a third and three times the company's counts as comparable
DIVISION_PENALTY = 0.5  # a company of the same division but another class ranks as if 1.6x farther in size
REGION_PENALTY = 0.25  # in wider scopes, another region or country ranks a little lower


@dataclass(frozen=True)
class Profile:
    company_id: int
    nace_digits: str | None
    country: str
    region: str | None  # NUTS 3 when known, else the national region code
    employees: int | None
    revenue_eur: float | None


@dataclass(frozen=True)
class Match:
    profile: Profile
    distance: float
    reasons: tuple[str, ...]


def comparable(target: Profile, other: Profile) -> bool:
    """Within the size span by revenue in euro, else by headcount when revenue is unknown."""
    ratio = _ratio(target, other)
    return ratio is not None and 1 / SIZE_SPAN <= ratio <= SIZE_SPAN


def _ratio(target: Profile, other: Profile) -> float | None:
    if target.revenue_eur and other.revenue_eur and target.revenue_eur > 0 and other.revenue_eur > 0:
        return other.revenue_eur / target.revenue_eur
    if target.employees is not None and other.employees is not None:
        return (other.employees + 1) / (target.employees + 1)
    return None


def rank(target: Profile, candidates: list[Profile], limit: int) -> list[Match]:
    """Comparable candidates, nearest in size first (ties: same class, same region, lower id)."""
    out = []
    for c in candidates:
        if c.company_id == target.company_id or not comparable(target, c):
            continue
        ratio = _ratio(target, c)
        assert ratio is not None
        by_revenue = bool(target.revenue_eur and c.revenue_eur)
        reasons = []
        same_class = bool(
            target.nace_digits and c.nace_digits and target.nace_digits[:4] == c.nace_digits[:4]
        )
        reasons.append(
            f"same NACE class {c.nace_digits[:2]}.{c.nace_digits[2:4]}"
            if same_class and c.nace_digits
            else f"same NACE division {(c.nace_digits or '')[:2]}"
        )
        reasons.append(f"{'revenue' if by_revenue else 'headcount'} {ratio:.2f}x this company's")
        distance = abs(math.log(ratio)) + (0.0 if same_class else DIVISION_PENALTY)
        if c.region and c.region == target.region:
            reasons.append(f"same region {c.region}")
        elif c.country == target.country:
            reasons.append(f"same country {c.country}")
            distance += REGION_PENALTY
        else:
            distance += 2 * REGION_PENALTY
        out.append(Match(c, round(distance, 4), tuple(reasons)))
    out.sort(key=lambda m: (m.distance, m.profile.company_id))
    return out[:limit]
