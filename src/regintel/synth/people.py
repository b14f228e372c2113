"""Natural persons: person slot k (company k // 4, slot k % 4) is a pure function of (seed, k).

The loader identifies a person by name + birth date + nationality (`ingest.sections.person_key`), so
two generated people must never agree on all three. Slot k is born on day (s * k + 17) mod D of
1940-2002 (s coprime with D) and takes name combination (a * (k div D) + offset(day)) mod M from its
nationality's pool of M (first, last) pairs. Slots with the same day differ in k div D, and for a
fixed day the name map is injective, so no two slots collide as long as k div D < M, which
`max_people_entities` guards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from math import gcd
from typing import NamedTuple

from regintel.synth.layout import BIRTH_DAYS, BIRTH_FIRST, QUOTA, SLOTS, iso, mix, position
from regintel.synth.normal import normalise_name, person_key
from regintel.synth.pools import all_pools

COUNTRIES = tuple(QUOTA)


class Person(NamedTuple):  # a NamedTuple: built millions of times, and far cheaper than a frozen dataclass
    slot: int
    name: str
    name_norm: str
    birth: int  # day ordinal
    birth_date: str
    nationality: str
    residence: str
    key: str


@dataclass(frozen=True)
class NameSpace:
    """All (first, last) pairs of a nationality, male pairs first, with each name's normal form."""

    first_m: tuple[tuple[str, str], ...]  # (name, normalised)
    last_m: tuple[tuple[str, str], ...]
    first_f: tuple[tuple[str, str], ...]
    last_f: tuple[tuple[str, str], ...]
    male: int
    size: int
    multiplier: int

    def pair(self, c: int) -> tuple[tuple[str, str], tuple[str, str]]:
        if c < self.male:
            return self.first_m[c % len(self.first_m)], self.last_m[c // len(self.first_m)]
        c -= self.male
        return self.first_f[c % len(self.first_f)], self.last_f[c // len(self.first_f)]


@cache
def name_space(country: str) -> NameSpace:
    """The union of the market's language pools (Belgium: Dutch and French names together)."""
    pools = [vp.names for vp in all_pools()[country].variants]

    def merged(pick: int, female: int) -> tuple[tuple[str, str], ...]:
        out: dict[str, str] = {}
        for names in pools:
            for value in (names.first, names.last)[pick][female]:
                out.setdefault(normalise_name(value), value)
        return tuple((value, norm) for norm, value in out.items())

    fm, lm, ff, lf = merged(0, 0), merged(1, 0), merged(0, 1), merged(1, 1)
    # A first name listed for both sexes (Andrea, Kim) stays male only: with an ungendered surname,
    # a female pair would otherwise spell a male pair.
    male_first = {norm for _, norm in fm}
    ff = tuple(pair for pair in ff if pair[1] not in male_first)
    male = len(fm) * len(lm)
    size = male + len(ff) * len(lf)
    multiplier = 2_654_435_761 % size or 1
    while gcd(multiplier, size) != 1:
        multiplier += 1
    return NameSpace(fm, lm, ff, lf, male, size, multiplier)


# Birth day of slot k: (step * k + 17) mod D. The step is coprime with D, so slots that share
# k div D (and so could share a name) never share a day; consecutive slots are not born on consecutive days.
_DAY_STEP = 7_919
_FIRST = BIRTH_FIRST.toordinal()


@cache
def _day_offsets(seed: int) -> tuple[int, ...]:
    return tuple(mix(seed, day, 3) for day in range(BIRTH_DAYS))


def person(seed: int, slot: int) -> Person:
    """Person slot `slot`: one in 25 comes from another market than the company's, one in 30 lives
    outside their own country."""
    own = position(seed, slot // SLOTS)[0]
    h = mix(seed, slot, 7)
    nat = COUNTRIES[(h >> 8) % len(COUNTRIES)] if h % 25 == 0 else own
    residence = own if (h >> 32) % 30 == 0 else nat
    space = name_space(nat)
    day = (_DAY_STEP * slot + 17) % BIRTH_DAYS
    c = (space.multiplier * (slot // BIRTH_DAYS) + _day_offsets(seed)[day]) % space.size
    (first, first_norm), (last, last_norm) = space.pair(c)
    # Pool names are single tokens that no legal form strips (pools._single_tokens), so the
    # normal form of the full name is the two normal forms joined.
    norm = f"{first_norm} {last_norm}"
    birth = iso(_FIRST + day)
    return Person(
        slot,
        f"{first} {last}",
        norm,
        _FIRST + day,
        birth,
        nat,
        residence,
        person_key(f"{first} {last}", norm, birth, nat),
    )


def max_people_entities() -> int:
    """The largest build whose person slots the name spaces can keep distinct."""
    return min(name_space(c).size for c in COUNTRIES) * BIRTH_DAYS // SLOTS
