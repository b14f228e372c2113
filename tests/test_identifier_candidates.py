"""`national_id_candidates`: the unchecked forms a country-less lookup asks the database for. The
shortcut is only sound if every successful `parse_national_id` gives exactly the candidate form."""

from __future__ import annotations

import random

import pytest

from regintel.domain.identifiers import NATIONAL_IDS, national_id_candidates, parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.synth.ids import NATIONAL, national_id


def _spellings(value: str) -> list[str]:
    """The ways people write a register number: as is, spaced, dotted, dashed, padded, lower case."""
    spaced = " ".join(value[i : i + 3] for i in range(0, len(value), 3))
    return [
        value,
        spaced,
        value.replace("-", ""),
        "-".join(value[i : i + 4] for i in range(0, len(value), 4)),
        ".".join(value[i : i + 3] for i in range(0, len(value), 3)),
        f"  {value}\t",
        value.lower(),
        value.lstrip("0") or value,
    ]


def _values() -> list[str]:
    rnd = random.Random(7)
    out = []
    for country, (space, _) in NATIONAL.items():
        for _ in range(40):
            out.extend(_spellings(national_id(country, rnd.randrange(space), rnd.randrange(1000), "A")))
    junk = [
        "",
        " ",
        "0",
        "1" * 41,
        "abc!",
        "čšž",
        "' OR 1=1 --",
        "%00",
        "12345678",
        "CHE-123.456.788",
        "FN 12345a",
        "SC123456",
        "NI000001",
        "B12345678",
        "HE12345",
        "123456789",
        "1234567-8",
    ]
    return out + junk + [str(rnd.randrange(10**n)) for n in range(1, 13) for _ in range(30)]


@pytest.mark.parametrize("country", sorted(NATIONAL_IDS))
def test_every_valid_parse_is_its_candidate(country):
    checked = 0
    for value in _values():
        try:
            canonical = parse_national_id(country, value)
        except InvalidIdentifier:
            continue
        checked += 1
        assert national_id_candidates(value).get(country) == canonical, (country, value)
    assert checked >= 40  # every market's own synthetic ids parse


def test_no_candidates_for_empty_or_oversized():
    assert national_id_candidates("") == {} and national_id_candidates("   ") == {}
    assert national_id_candidates("1" * 41) == {}
    assert set(national_id_candidates("31322832")) == set(NATIONAL_IDS)
