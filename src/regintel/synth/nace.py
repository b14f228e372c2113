"""NACE Rev. 2 classes (python-stdnum's copy of the Eurostat list) and how often each is drawn."""

from __future__ import annotations

import random
from functools import cache
from importlib.resources import files

from stdnum.eu import nace

# Activities that dominate real registers (retail, trade, construction, consulting, real estate,
# restaurants, IT, transport): half of all companies draw from these, the rest from every class.
COMMON = (
    "47.11",
    "47.19",
    "47.71",
    "46.90",
    "46.19",
    "41.20",
    "43.21",
    "43.32",
    "43.39",
    "70.22",
    "69.20",
    "68.20",
    "68.10",
    "56.10",
    "62.01",
    "62.02",
    "49.41",
    "45.20",
    "74.90",
    "82.99",
    "96.02",
    "85.59",
    "86.23",
    "01.11",
    "10.71",
    "25.62",
    "71.12",
    "73.11",
    "55.10",
    "64.20",
)
HOLDING = "64.20"  # activities of holding companies


@cache
def classes() -> tuple[str, ...]:
    """All 615 four-digit classes, written "62.01", each checked with stdnum (revision 2.0)."""
    text = files("stdnum").joinpath("eu/nace20.dat").read_text(encoding="utf-8")
    stack: list[str] = []
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        depth = len(line) - len(line.lstrip(" "))
        stack[depth:] = [line.split()[0]]
        code = "".join(stack)  # sections and divisions sit at depth 0, groups at 1, classes at 2
        if len(code) == 4 and code.isdigit():
            out.append(f"{code[:2]}.{code[2:]}")
    assert all(nace.is_valid(c, revision="2.0") for c in out)
    return tuple(out)


def draw(rng: random.Random, holding: bool = False) -> list[str]:
    """A primary class and zero to two secondary ones."""
    primary = HOLDING if holding else rng.choice(COMMON if rng.random() < 0.5 else classes())
    codes = [primary]
    for _ in range(rng.choice((0, 0, 1, 2))):
        extra = rng.choice(classes())
        if extra not in codes:
            codes.append(extra)
    return codes
