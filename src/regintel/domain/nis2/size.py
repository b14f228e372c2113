"""Enterprise size class for NIS2 (Art. 2(1) and 3(1)(a) of Directive (EU) 2022/2555 refer to the
Annex of Commission Recommendation 2003/361/EC).

Annex, Art. 2 (staff headcount and financial ceilings):
- (1) medium-sized (and smaller) enterprises employ fewer than 250 persons and have an annual turnover
  not exceeding EUR 50 million, and/or an annual balance sheet total not exceeding EUR 43 million;
- (2) small enterprises employ fewer than 50 persons and have an annual turnover and/or annual balance
  sheet total not exceeding EUR 10 million;
- (3) micro enterprises employ fewer than 10 persons and have an annual turnover and/or annual balance
  sheet total not exceeding EUR 2 million.

So an enterprise is above a ceiling when its headcount reaches it, or when BOTH turnover and balance
sheet exceed theirs ("and/or": either financial test suffices to stay below). Figures are in EUR.

Inputs may be unknown or known only as a range (a headcount band `50-99`): each is an interval, the
tests are three-valued (True, False, None for unknown), and the result is the range of classes the
inputs allow, with a point estimate from what is known.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

CLASSES = ("micro", "small", "medium", "large")
M = Decimal(1_000_000)
# (class reached, headcount at least, turnover above, balance sheet above): Annex Art. 2(3), 2(2), 2(1).
CEILINGS = (("small", 10, 2 * M, 2 * M), ("medium", 50, 10 * M, 10 * M), ("large", 250, 50 * M, 43 * M))
REFERENCES = {
    "micro": "Rec. 2003/361/EC Annex Art. 2(3)",
    "small": "Rec. 2003/361/EC Annex Art. 2(2)",
    "medium": "Rec. 2003/361/EC Annex Art. 2(1)",
    "large": "Rec. 2003/361/EC Annex Art. 2(1)",
}


@dataclass(frozen=True)
class Interval:
    """A value known to lie in [lo, hi]; hi None: no upper bound. Unknown is Interval(0, None)."""

    lo: Decimal = Decimal(0)
    hi: Decimal | None = None

    @classmethod
    def exact(cls, value: Decimal | int) -> Interval:
        return cls(Decimal(value), Decimal(value))

    @property
    def known(self) -> bool:
        return self.hi is not None and self.lo == self.hi

    @property
    def unknown(self) -> bool:
        return self.lo == 0 and self.hi is None

    def at_least(self, k: Decimal | int) -> bool | None:
        if self.lo >= k:
            return True
        if self.hi is not None and self.hi < k:
            return False
        return None

    def above(self, k: Decimal | int) -> bool | None:
        if self.lo > k:
            return True
        if self.hi is not None and self.hi <= k:
            return False
        return None

    def __add__(self, other: Interval) -> Interval:
        hi = None if self.hi is None or other.hi is None else self.hi + other.hi
        return Interval(self.lo + other.lo, hi)

    def scaled(self, low: Decimal, high: Decimal) -> Interval:
        """This value times a fraction known to lie in [low, high] (a partner's share)."""
        return Interval(self.lo * low, None if self.hi is None else self.hi * high)


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is False or b is False:
        return False
    return True if a is True and b is True else None


def _or(a: bool | None, b: bool | None) -> bool | None:
    if a is True or b is True:
        return True
    return False if a is False and b is False else None


def exceeds(ceiling: str, headcount: Interval, turnover: Interval, balance: Interval) -> bool | None:
    """Whether the enterprise reaches class `ceiling` (`small`, `medium` or `large`), three-valued."""
    for name, staff, turnover_cap, balance_cap in CEILINGS:
        if name == ceiling:
            return _or(
                headcount.at_least(staff), _and(turnover.above(turnover_cap), balance.above(balance_cap))
            )
    raise ValueError(ceiling)


def _point(value: Interval) -> Interval:
    """The estimate of a value: its known lower bound (an unknown figure counts as not exceeding)."""
    return Interval(value.lo, value.lo)


@dataclass(frozen=True)
class SizeRange:
    lowest: str
    highest: str
    estimate: str

    @property
    def determined(self) -> bool:
        return self.lowest == self.highest

    def classes(self) -> tuple[str, ...]:
        return CLASSES[CLASSES.index(self.lowest) : CLASSES.index(self.highest) + 1]


def size_range(headcount: Interval, turnover: Interval, balance: Interval) -> SizeRange:
    lowest, highest = "micro", "micro"
    for name, *_ in CEILINGS:
        reached = exceeds(name, headcount, turnover, balance)
        if reached is True:
            lowest = name
        if reached is not False:
            highest = name
    estimate = "micro"
    for name, *_ in CEILINGS:
        if exceeds(name, _point(headcount), _point(turnover), _point(balance)):
            estimate = name
    return SizeRange(lowest, highest, estimate)


def at_least(size_class: str, other: str) -> bool:
    return CLASSES.index(size_class) >= CLASSES.index(other)
