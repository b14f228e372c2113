"""bench/gen_ee_ariregister.py past a million entities: the registry codes and VAT numbers stay valid
and distinct (index 1,000,000 used to make a 9-digit code no check digit fits, and a 1M file never
finished)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from stdnum.ee import registrikood
from stdnum.eu import vat

sys.path.insert(0, str(Path(__file__).parent.parent.parent / "bench"))
import gen_ee_ariregister as gen  # noqa: E402

AROUND = [*range(999_990, 1_000_010), *range(1_999_990, 2_000_010), 2_999_999]


def test_codes_across_the_million_boundaries():
    codes = [gen.code(i) for i in AROUND]
    assert all(c is not None and len(c) == 8 and registrikood.is_valid(c) for c in codes)
    assert len(set(codes)) == len(codes)
    assert (codes[0][0], codes[10][0], codes[30][0], codes[-1][0]) == ("1", "8", "9", "9")


def test_vat_numbers_across_the_million_boundaries():
    numbers = [gen.vat(i) for i in AROUND]
    assert all(len(n) == 11 and vat.is_valid(n) for n in numbers)
    assert len(set(numbers)) == len(numbers)
    assert gen.vat(1) == "EE100000010"  # the first million as before the fix


@pytest.mark.parametrize("index", [0, 3_000_000])
def test_no_code_outside_the_range(index):
    with pytest.raises(ValueError, match="at most 2,999,999"):
        gen.code(index)
