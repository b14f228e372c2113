"""Ownership walk: who ultimately owns or controls a company, over an edge list (no I/O).

Nodes are opaque strings (the service uses `c:<company id>`, `p:<person id>`, `n:<holder key>`).
An `Edge` says that `owner` holds a stake in `owned`: a share of the capital (`share`, a percentage,
`None` when not published), voting rights, and whether it gives majority control without the numbers
(accounting consolidation, the right to appoint the board) or significant influence.

The rules, after the EU AML directive (2015/849 art. 3(6)) and the UK PSC regime:

- a path's share is the product of its edges' shares (`None` when one is unknown); an owner's share is
  the sum over all its simple paths (a diamond adds up);
- an owner *controls* the company along a path when every edge of the path gives control (more than
  50%, or control rights); the stake an owner holds *through controlled entities* is the last edge's
  share on each path whose other edges all give control, summed (the directive's "multiple corporate
  entities under the control of the same natural person");
- an owner meets threshold `t` (25 or 50) when its share, or its stake through controlled entities, is
  more than `t`, or it controls the company; significant influence on a direct edge meets 25.
  `None` means the published data cannot tell (a share on a path is unknown);
- published bands are lower bounds ("more than 25%"): `more_than` keeps that a band's bound is
  exclusive, so a PSC band 25-50% meets 25 while a plain 25.0 does not;
- cycles are walked once: a path never visits a node twice; the edge that closes a loop is reported as a
  cycle and not followed. A company owned only from inside a loop ends its paths (a cross-holding).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

THRESHOLDS = (25, 50)
MAX_DEPTH = 20
MAX_PATHS = 2_000

WalkEnd = Literal["no_owners", "cycle", "depth_limit"]
BandKind = Literal["shares", "votes", "surplus"]


@dataclass(frozen=True)
class Edge:
    owner: str
    owned: str
    share: float | None = None
    more_than: bool = False  # `share` is an exclusive lower bound (a published band)
    votes: float | None = None
    votes_more_than: bool = False
    controls: bool = False  # majority control without numbers: consolidation, right to appoint the board
    significant: bool = False  # significant influence or control (PSC), meets 25 only
    sources: tuple[str, ...] = ()

    @property
    def control(self) -> bool:
        return (
            self.controls
            or _over(self.share, self.more_than, 50)
            or _over(self.votes, self.votes_more_than, 50)
        )


def _over(value: float | None, more_than: bool, t: float) -> bool:
    return value is not None and (value > t or (value == t and more_than))


@dataclass(frozen=True)
class Path:
    """Owner first, the company walked from last; `edges[i]` links `nodes[i]` to `nodes[i + 1]`."""

    nodes: tuple[str, ...]
    edges: tuple[Edge, ...]

    @property
    def share(self) -> float | None:
        product = 100.0
        for e in self.edges:
            if e.share is None:
                return None
            product *= e.share / 100
        return product

    @property
    def more_than(self) -> bool:
        return any(e.more_than for e in self.edges)

    @property
    def control(self) -> bool:
        return all(e.control for e in self.edges)

    @property
    def via_control(self) -> bool:
        """Every edge but the last gives control: the owner holds the last edge's stake through
        entities it controls."""
        return all(e.control for e in self.edges[:-1])


@dataclass(frozen=True)
class Owner:
    node: str
    end: WalkEnd  # why the walk stopped here
    paths: tuple[Path, ...]

    @property
    def share(self) -> float:
        """The sum of the known path shares (a lower bound when `share_complete` is false)."""
        return sum(s for p in self.paths if (s := p.share) is not None)

    @property
    def share_complete(self) -> bool:
        return all(p.share is not None for p in self.paths)

    @property
    def control(self) -> bool:
        return any(p.control for p in self.paths)

    def meets(self, threshold: float) -> bool | None:
        """True when the owner meets `threshold`, False when it does not, None when the published data
        cannot tell (a share on one of its paths is unknown)."""
        if self.control or _over(self.share, any(p.more_than for p in self.paths), threshold):
            return True
        held = [p.edges[-1] for p in self.paths if p.via_control]
        for value, more in (("share", "more_than"), ("votes", "votes_more_than")):
            known = [e for e in held if getattr(e, value) is not None]
            if _over(sum(getattr(e, value) for e in known), any(getattr(e, more) for e in known), threshold):
                return True
        if threshold <= 25 and any(e.significant for e in held):
            return True
        return None if not self.share_complete else False


@dataclass(frozen=True)
class Walk:
    target: str
    owners: tuple[Owner, ...]  # the ends of the paths: ultimate owners, or where the data stops
    cycles: tuple[tuple[str, ...], ...]  # each loop once, as the nodes of the loop
    truncated: bool  # the path budget ran out
    depth: int = 0  # the longest path walked

    @property
    def has_owner_data(self) -> bool:
        return bool(self.owners) or bool(self.cycles)


@dataclass
class _State:
    owners_of: Mapping[str, Sequence[Edge]]
    max_depth: int
    max_paths: int
    found: dict[str, tuple[WalkEnd, list[Path]]] = field(default_factory=dict)
    cycles: dict[frozenset[str], tuple[str, ...]] = field(default_factory=dict)
    paths: int = 0
    depth: int = 0
    truncated: bool = False


def walk(
    target: str, owners_of: Mapping[str, Sequence[Edge]], *, max_depth: int = 10, max_paths: int = MAX_PATHS
) -> Walk:
    """Every simple ownership path up from `target`, ending at owners who have no owners themselves
    (or are owned only from inside a loop, or sit at `max_depth`). `owners_of[node]` lists the edges
    whose `owned` is `node`. At most `max_paths` paths are kept (`truncated` says when more exist)."""
    if not 1 <= max_depth <= MAX_DEPTH:
        raise ValueError(f"max_depth must be 1 to {MAX_DEPTH}")
    state = _State(owners_of, max_depth, max_paths)
    _up(state, [target], [])
    owners = tuple(Owner(node, end, tuple(paths)) for node, (end, paths) in state.found.items())
    owners = tuple(sorted(owners, key=lambda o: (-o.control, -o.share, o.node)))
    return Walk(target, owners, tuple(state.cycles.values()), state.truncated, state.depth)


def _up(state: _State, chain: list[str], edges: list[Edge]) -> None:
    """Iterative depth-first walk; `chain` runs from the target up to the current node."""
    stack: list[tuple[list[str], list[Edge]]] = [(chain, edges)]
    while stack:
        chain, edges = stack.pop()
        node = chain[-1]
        incoming = [e for e in state.owners_of.get(node, ()) if e.owner != node]
        onward = [e for e in incoming if e.owner not in chain]
        for e in incoming:
            if e.owner in chain:
                loop = tuple(chain[chain.index(e.owner) :])
                state.cycles.setdefault(frozenset(loop), loop)
        if len(chain) == 1:
            for e in reversed(onward):
                stack.append(([*chain, e.owner], [e]))
            continue
        if not onward or len(edges) >= state.max_depth:
            end: WalkEnd = "no_owners" if not incoming else "cycle" if not onward else "depth_limit"
            if state.paths >= state.max_paths:
                state.truncated = True
                return
            state.paths += 1
            state.depth = max(state.depth, len(edges))
            path = Path(tuple(reversed(chain)), tuple(reversed(edges)))
            state.found.setdefault(node, (end, []))[1].append(path)
            continue
        for e in reversed(onward):
            stack.append(([*chain, e.owner], [*edges, e]))


def merge_edges(edges: Iterable[Edge]) -> dict[str, list[Edge]]:
    """Edges by owned node, one per (owner, owned): sources that report the same stake (a register's
    shareholder and a GLEIF consolidation) become one edge. The first known share wins, in the order
    given (the caller lists its preferred sources first); control flags and sources add up."""
    merged: dict[tuple[str, str], Edge] = {}
    for e in edges:
        old = merged.get((e.owner, e.owned))
        if old is None:
            merged[(e.owner, e.owned)] = e
            continue
        share, more = (old.share, old.more_than) if old.share is not None else (e.share, e.more_than)
        votes, vmore = (
            (old.votes, old.votes_more_than) if old.votes is not None else (e.votes, e.votes_more_than)
        )
        merged[(e.owner, e.owned)] = Edge(
            old.owner,
            old.owned,
            share,
            more,
            votes,
            vmore,
            old.controls or e.controls,
            old.significant or e.significant,
            tuple(dict.fromkeys(old.sources + e.sources)),
        )
    out: dict[str, list[Edge]] = {}
    for e in merged.values():
        out.setdefault(e.owned, []).append(e)
    return out


def cycle_components(edges: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Nodes that lie on a directed cycle, each with the number of its loop (the strongly connected
    component of more than one node, or a self-loop), by Tarjan's algorithm without recursion. An edge
    lies on a cycle when both its ends have the same number."""
    graph: dict[str, list[str]] = {}
    loops: set[str] = set()
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
        if a == b:
            loops.add(a)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out = {node: n for n, node in enumerate(sorted(loops))}
    counter = components = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for nxt in children:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    out.update(dict.fromkeys(component, len(loops) + components))
                    components += 1
    return out


# Companies House natures of control: "ownership-of-shares-25-to-50-percent",
# "voting-rights-more-than-25-percent-registered-overseas-entity", "…-75-to-100-percent-as-trust-…".
_BAND = re.compile(
    r"^(ownership-of-shares|voting-rights|right-to-share-surplus-assets)-(?:more-than-)?(\d+)"
    r"(?:-to-(\d+))?-percent"
)
_CONTROL = (
    "right-to-appoint-and-remove-directors",
    "right-to-appoint-and-remove-members",
    "right-to-appoint-and-remove-person",
)
_SIGNIFICANT = "significant-influence-or-control"


@dataclass(frozen=True)
class Band:
    kind: BandKind
    lower: float  # exclusive: "more than `lower`"
    upper: float | None


def bands(natures: Sequence[str] | None) -> list[Band]:
    """The share and vote bands a list of PSC natures of control states."""
    kinds: dict[str, BandKind] = {
        "ownership-of-shares": "shares",
        "voting-rights": "votes",
        "right-to-share-surplus-assets": "surplus",
    }
    out = []
    for n in natures or ():
        if m := _BAND.match(n):
            out.append(Band(kinds[m[1]], float(m[2]), float(m[3]) if m[3] else None))
    return out


def control_rights(natures: Sequence[str] | None) -> tuple[bool, bool]:
    """(majority control rights, significant influence) stated by PSC natures of control."""
    natures = natures or ()
    return (any(n.startswith(_CONTROL) for n in natures), any(n.startswith(_SIGNIFICANT) for n in natures))


def dates_agree(a: str | None, b: str | None) -> bool:
    """Two published birth dates can be the same person's: one unknown, or one a prefix of the other
    (`1971-03` and `1971-03-04`: Companies House publishes month and year only)."""
    if not a or not b:
        return True
    short, long = sorted((a, b), key=len)
    return long.startswith(short)
