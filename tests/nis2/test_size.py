"""Size class by Commission Recommendation 2003/361/EC, Annex Art. 2, with unknown inputs, and the EUR
conversion of non-EUR statements."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given
from hypothesis import strategies as st

from regintel.domain.nis2 import fx
from regintel.domain.nis2.size import CLASSES, Interval, size_range

M = D(1_000_000)
U = Interval()


def cls(h=None, t=None, b=None):
    e = lambda v: U if v is None else Interval.exact(D(v))  # noqa: E731
    return size_range(e(h), e(t), e(b))


@pytest.mark.parametrize(
    "h, t, b, expected",
    [
        (249, 50 * M, 43 * M, "medium"),  # at every ceiling: still medium
        (250, 0, 0, "large"),  # 250 persons: large whatever the money
        (10, 50 * M + 1, 43 * M + 1, "large"),  # both financial ceilings exceeded
        (10, 50 * M + 1, 43 * M, "medium"),  # one financial ceiling kept ("and/or"): not large
        (10, 60 * M, 5 * M, "small"),  # turnover 60M but balance sheet 5M: not even medium (Art. 2(2))
    ],
)
def test_rec_2003_361_annex_art_2_1_large_needs_headcount_or_both_financial_ceilings(h, t, b, expected):
    assert cls(h, t, b).estimate == expected and cls(h, t, b).determined


@pytest.mark.parametrize(
    "h, t, b, expected",
    [
        (49, 10 * M, 10 * M, "small"),
        (50, 0, 0, "medium"),
        (9, 10 * M + 1, 10 * M + 1, "medium"),
        (9, 10 * M + 1, 2 * M, "micro"),  # balance sheet not above 2M: micro keeps (Art. 2(3) "and/or")
    ],
)
def test_rec_2003_361_annex_art_2_2_medium_from_50_persons_or_both_above_10m(h, t, b, expected):
    assert cls(h, t, b).estimate == expected


@pytest.mark.parametrize(
    "h, t, b, expected",
    [
        (9, 2 * M, 2 * M, "micro"),
        (10, 0, 0, "small"),
        (0, 2 * M + 1, 2 * M + 1, "small"),
        (0, 2 * M + 1, 0, "micro"),
    ],
)
def test_rec_2003_361_annex_art_2_3_micro_below_10_persons_and_2m(h, t, b, expected):
    assert cls(h, t, b).estimate == expected


def test_rec_2003_361_annex_art_2_unknown_inputs_give_a_range():
    r = cls(80)  # 80 persons, no statement
    assert (r.lowest, r.highest, r.estimate) == ("medium", "large", "medium")
    r = cls(None, 60 * M, 50 * M)  # large by money alone: the headcount cannot lower it
    assert r.determined and r.estimate == "large"
    r = cls()
    assert (r.lowest, r.highest, r.estimate) == ("micro", "large", "micro")
    r = size_range(Interval(D(50), D(99)), U, U)  # a headcount band
    assert (r.lowest, r.highest) == ("medium", "large")
    r = size_range(Interval(D(10), D(19)), Interval.exact(D(1)), Interval.exact(D(1)))
    assert r.determined and r.estimate == "small"


values = st.one_of(st.none(), st.integers(min_value=0, max_value=10**9))


@given(values, values, values, values, values, values)
def test_rec_2003_361_annex_art_2_range_contains_every_completion(h, t, b, h2, t2, b2):
    """Whatever the unknown inputs turn out to be, the class lies in the range computed without them."""
    r = cls(h, t, b)
    full = cls(
        h if h is not None else h2 or 0, t if t is not None else t2 or 0, b if b is not None else b2 or 0
    )
    assert full.determined
    assert CLASSES.index(r.lowest) <= CLASSES.index(full.estimate) <= CLASSES.index(r.highest)
    assert CLASSES.index(r.lowest) <= CLASSES.index(r.estimate) <= CLASSES.index(r.highest)


def test_fx_non_eur_statements_convert_at_the_dated_ecb_rate():
    assert fx.to_eur(D("25185000"), "CZK") == D("1000000.00")
    assert fx.to_eur(D("100"), "eur") == D("100.00")
    assert fx.to_eur(D("100"), "UAH") is None  # no rate: unknown, never taken as EUR
    assert fx.to_eur(None, "EUR") is None
    conv = fx.conversion("GBP")
    assert (
        conv is not None
        and conv.rate_date == fx.RATES_DATE == "2024-12-31"
        and "European Central Bank" in conv.source
    )
