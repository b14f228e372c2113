"""Generation: deterministic, distinct people, the invariants of the data, groups with cycles."""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC, datetime

import pytest
from rapidfuzz import fuzz, process

from regintel.synth.bulk import chunks
from regintel.synth.encode import Stamp
from regintel.synth.generator import COMPANY_COLUMNS, ROLE_COLUMNS, Chunk, Params, generate
from regintel.synth.layout import BIRTH_DAYS
from regintel.synth.naming import sanctioned_names
from regintel.synth.people import COUNTRIES, name_space, person
from regintel.synth.pools import all_pools

FLAGS = COMPANY_COLUMNS.index("in_bankruptcy")


@pytest.fixture(scope="module")
def sample() -> Chunk:
    return generate(Params(21, 0, 20_000), all_pools(), range(20))


def test_same_seed_same_rows_other_seed_other_rows() -> None:
    pools = all_pools()
    first = generate(Params(5, 0, 2_500), pools, range(3))
    assert generate(Params(5, 0, 2_500), pools, range(3)) == first
    other = generate(Params(6, 0, 2_500), pools, range(3))
    assert {r[2] for r in other.companies} != {r[2] for r in first.companies}


def test_worker_processes_give_the_same_rows() -> None:
    params = Params(9, 0, 4_000)
    stamp = Stamp(datetime(2026, 1, 1, tzinfo=UTC), 1)
    inline = list(chunks(params, stamp, sqlite=True, workers=0, chunk_blocks=1))
    assert list(chunks(params, stamp, sqlite=True, workers=2, chunk_blocks=1)) == inline


def test_people_never_share_a_person_key() -> None:
    # Slots d + m * D share a birth day, so only their names keep them apart: cover the day groups a
    # build of over a million companies fills (m up to 4 * entities / D).
    slots = dict.fromkeys([day + m * BIRTH_DAYS for m in range(200) for day in range(150)])
    slots.update(dict.fromkeys(range(0, 100_000, 3)))
    keys = [person(1, slot).key for slot in slots]
    assert len(set(keys)) == len(keys)
    # Regression: Matija is a Croatian man's and woman's name, Glasnović either's surname.
    assert person(42, 2_444_761).key != person(42, 2_559_816).key


@pytest.mark.parametrize("country", COUNTRIES)
def test_name_space_spells_each_pair_once(country: str) -> None:
    space = name_space(country)
    assert not {n for _, n in space.first_m} & {n for _, n in space.first_f}
    assert len({n for _, n in space.last_m}) == len(space.last_m) and space.size > 7_000


def test_invariants_and_shares(sample: Chunk) -> None:
    chunk = sample
    flags = [r[FLAGS : FLAGS + 3] for r in chunk.companies]
    assert not any(b and r for b, r, _ in flags)
    n = len(flags)
    assert 0.008 < sum(b for b, _, _ in flags) / n < 0.025
    assert 0.002 < sum(r for _, r, _ in flags) / n < 0.01
    assert 0.015 < sum(liq for _, _, liq in flags) / n < 0.045
    assert 0.04 < Counter(r[7] for r in chunk.companies)["dissolved"] / n < 0.1
    held: dict[int, float] = defaultdict(float)
    seen = set()
    for row in chunk.roles:
        role = dict(zip(ROLE_COLUMNS, row, strict=True))
        key = (role["company_id"], role["role"], role["holder_key"])
        assert key not in seen  # the loader keys roles by (company, role, holder)
        seen.add(key)
        if role["role"] == "shareholder":
            held[role["company_id"]] += role["share_pct"]
    assert max(held.values()) <= 100.0 + 1e-6


def test_groups_have_deep_chains_and_cycles(sample: Chunk) -> None:
    chunk = sample
    children: dict[int, list[int]] = defaultdict(list)
    for parent, child, *_ in chunk.ownerships:
        children[parent].append(child)

    def depth(node: int, path: tuple[int, ...]) -> int:
        return 1 + max((depth(c, (*path, c)) for c in children.get(node, []) if c not in path), default=0)

    assert max(depth(p, (p,)) for p in children) >= 7  # six or more ownership levels
    assert _cycles(children) >= 3


def _cycles(children: dict[int, list[int]]) -> int:
    found = 0
    for start in children:
        stack, seen = [start], set()
        while stack:
            node = stack.pop()
            for child in children.get(node, []):
                if child == start:
                    found += 1
                elif child not in seen:
                    seen.add(child)
                    stack.append(child)
    return found


def test_some_names_resemble_sanctioned_entities(sample: Chunk) -> None:
    chunk = sample
    listed = [n.lower() for n in sanctioned_names()]
    close = [
        r[3]
        for r in chunk.companies
        if process.extractOne(r[4], listed, scorer=fuzz.token_set_ratio, score_cutoff=85)
    ]
    assert 5 <= len(close) <= 80
