"""Where each generated entity sits: entity g lives in block g // 1000, and every block holds each
market's fixed quota (FR 130, GB 120, ... CY 15) in a seeded random order.

So the country of any entity and its index among its country's entities ("local index") are known
in O(1) without counting, which lets worker processes generate blocks independently and still give
every company a distinct register number: the number is a fixed bijection of the local index.
"""

from __future__ import annotations

import random
from datetime import date
from functools import lru_cache

from regintel.synth.ids import scramble
from regintel.synth.markets import MARKETS
from regintel.synth.vat import capacity

BLOCK = 1_000
QUOTA = {c: m.share for c, m in MARKETS.items()}
SLOTS = 4  # person slots per company: slot 0 is always its first director
BIRTH_FIRST = date(1940, 1, 1)
BIRTH_DAYS = (date(2002, 12, 31) - BIRTH_FIRST).days + 1

_M64 = (1 << 64) - 1

# Dates travel as proleptic ordinals (cheap integer arithmetic) and are written as ISO text from a
# table: date objects and isoformat() are a measurable share of generation time at ten million.
DAY0 = date(1890, 1, 1).toordinal()
ISO = tuple(date.fromordinal(d).isoformat() for d in range(DAY0, date(2101, 1, 1).toordinal()))


def iso(ordinal: int) -> str:
    return ISO[ordinal - DAY0]


def mix(*values: int) -> int:
    """SplitMix64 over the values: a fast, well-spread 64-bit hash of small integers."""
    x = 0x9E3779B97F4A7C15
    for value in values:
        x = (x ^ (value & _M64)) + 0x9E3779B97F4A7C15 & _M64
        x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9 & _M64
        x = (x ^ (x >> 27)) * 0x94D049BB133111EB & _M64
        x ^= x >> 31
    return x


@lru_cache(maxsize=256)
def block_layout(seed: int, block: int) -> tuple[tuple[str, int], ...]:
    """(country, local index) of the 1,000 positions of `block`."""
    labels = [country for country, quota in QUOTA.items() for _ in range(quota)]
    random.Random(mix(seed, block, 1)).shuffle(labels)
    seen: dict[str, int] = {}
    out = []
    for country in labels:
        rank = seen.get(country, 0)
        seen[country] = rank + 1
        out.append((country, block * QUOTA[country] + rank))
    return tuple(out)


def position(seed: int, g: int) -> tuple[str, int]:
    """(country, local index) of entity g."""
    return block_layout(seed, g // BLOCK)[g % BLOCK]


def value(seed: int, country: str, local: int) -> int:
    """The identifier value of a company: a seeded bijection of its local index."""
    space, salt = _space(seed, country)
    return scramble(local, space, salt)


@lru_cache(maxsize=256)
def _space(seed: int, country: str) -> tuple[int, int]:
    return capacity(country), 1 + mix(seed, ord(country[0]), ord(country[1])) % 999_983


def max_entities() -> int:
    """The largest build the identifier spaces allow (the tightest market decides)."""
    return min(capacity(c) // q * BLOCK for c, q in QUOTA.items())
