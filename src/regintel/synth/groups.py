"""Company groups inside a block: ownership chains 1 to 8 levels deep, side subsidiaries, and cycles
(a bottom company holding a stake in the top, or two companies holding each other).

Members of a group are consecutive positions of a block, so a worker that generates the block
knows every company a group refers to; consecutive positions belong to random markets, so groups
cross borders the way real ones do.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from regintel.synth.layout import mix

_DEPTHS = (1, 2, 3, 4, 5, 6, 7, 8)
_DEPTH_WEIGHTS = (35, 22, 15, 10, 7, 5, 3, 3)
_CONTROL_SHARES = (100.0, 100.0, 100.0, 100.0, 90.0, 75.0, 60.0, 51.0, 50.0)


@dataclass(frozen=True)
class Edge:
    parent: int  # positions within the block
    child: int
    share: float


@dataclass
class Groups:
    edges: list[Edge] = field(default_factory=list)
    top: dict[int, int] = field(default_factory=dict)  # member -> the group's top company
    parents: set[int] = field(default_factory=set)  # companies that own another company

    def owners(self, child: int) -> list[Edge]:
        return [e for e in self.edges if e.child == child] if child in self.top else []


def plan(seed: int, block: int, lo: int, hi: int) -> Groups:
    """The groups among positions [lo, hi) of `block` (about one company in eight belongs to one)."""
    rng = random.Random(mix(seed, block, 2))
    groups = Groups()
    p = lo
    while p < hi:
        if rng.random() >= 0.035:
            p += 1
            continue
        depth = rng.choices(_DEPTHS, _DEPTH_WEIGHTS)[0]
        members = list(range(p, min(p + depth + 1, hi)))
        if len(members) >= 2:
            _chain(rng, groups, members, hi)
        p = max(members) + 1
    return groups


def _chain(rng: random.Random, groups: Groups, members: list[int], hi: int) -> None:
    first = len(groups.edges)
    for parent, child in zip(members, members[1:], strict=False):
        groups.edges.append(Edge(parent, child, rng.choice(_CONTROL_SHARES)))
    if len(members) >= 3 and rng.random() < 0.3 and members[-1] + 1 < hi:
        extra = members[-1] + 1  # a second subsidiary of the first intermediate holding
        groups.edges.append(Edge(members[1], extra, 100.0))
        members.append(extra)
    if len(members) >= 3 and rng.random() < 0.12:
        groups.edges.append(Edge(members[-1], members[0], round(rng.uniform(5, 20), 2)))
    elif len(members) == 2 and rng.random() < 0.1:
        groups.edges.append(Edge(members[1], members[0], round(rng.uniform(5, 15), 2)))
    for m in members:
        groups.top[m] = members[0]
    groups.parents.update(e.parent for e in groups.edges[first:])
