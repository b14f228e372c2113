"""The ownership walk (domain.ownership): chains, diamonds, cycles, missing percentages, bands, and
random graphs checked against a brute-force enumeration of simple paths."""

from __future__ import annotations

import itertools
import random

import pytest

from regintel.domain.ownership import Edge, bands, control_rights, cycle_components, merge_edges, walk


def graph(*edges: Edge) -> dict[str, list[Edge]]:
    return merge_edges(edges)


def owner(result, node):  # type: ignore[no-untyped-def]
    return next(o for o in result.owners if o.node == node)


def test_no_owners() -> None:
    result = walk("T", {})
    assert result.owners == () and result.cycles == () and not result.has_owner_data


def test_direct_person_owner() -> None:
    result = walk("T", graph(Edge("P", "T", 30.0)))
    p = owner(result, "P")
    assert p.share == 30.0 and p.end == "no_owners" and p.meets(25) is True and p.meets(50) is False


def test_chain_multiplies_shares() -> None:
    result = walk("T", graph(Edge("A", "T", 60.0), Edge("B", "A", 50.0), Edge("P", "B", 80.0)))
    assert [o.node for o in result.owners] == ["P"]
    p = owner(result, "P")
    assert p.share == pytest.approx(24.0)
    assert p.paths[0].nodes == ("P", "B", "A", "T")
    # 24% owned, but P controls B (80%) which does not control A (50% is not a majority): no control.
    assert p.meets(25) is False and p.control is False


def test_indirect_control_through_a_chain() -> None:
    result = walk("T", graph(Edge("A", "T", 30.0), Edge("P", "A", 60.0)))
    p = owner(result, "P")
    assert p.share == pytest.approx(18.0)
    # P controls A, which holds more than 25% of T: P is a beneficial owner at 25 through control.
    assert p.meets(25) is True and p.meets(50) is False


def test_full_control_chain_meets_both() -> None:
    result = walk("T", graph(Edge("A", "T", 51.0), Edge("B", "A", 51.0), Edge("P", "B", 51.0)))
    p = owner(result, "P")
    assert p.share == pytest.approx(13.2651)
    assert p.control and p.meets(25) is True and p.meets(50) is True


def test_diamond_adds_paths() -> None:
    result = walk(
        "T", graph(Edge("A", "T", 50.0), Edge("B", "T", 50.0), Edge("P", "A", 100.0), Edge("P", "B", 40.0))
    )
    p = owner(result, "P")
    assert len(p.paths) == 2 and p.share == pytest.approx(70.0)
    assert p.meets(50) is True


def test_entities_under_common_control_add_up() -> None:
    # P controls A and B, each holds 20% of T: 40% through controlled entities (meets 25, not 50).
    result = walk(
        "T", graph(Edge("A", "T", 20.0), Edge("B", "T", 20.0), Edge("P", "A", 60.0), Edge("P", "B", 60.0))
    )
    p = owner(result, "P")
    assert p.share == pytest.approx(24.0)
    assert p.meets(25) is True and p.meets(50) is False


def test_two_company_cycle_terminates() -> None:
    result = walk("T", graph(Edge("A", "T", 100.0), Edge("B", "A", 40.0), Edge("A", "B", 30.0)))
    assert set(result.cycles) == {("A", "B")}
    b = owner(result, "B")
    assert b.end == "cycle" and b.share == pytest.approx(40.0)


def test_cycle_back_to_target() -> None:
    result = walk("T", graph(Edge("A", "T", 100.0), Edge("T", "A", 10.0), Edge("P", "A", 90.0)))
    assert result.cycles == (("T", "A"),)
    assert [o.node for o in result.owners] == ["P"]
    assert owner(result, "P").share == pytest.approx(90.0)


def test_self_holding_is_ignored() -> None:
    result = walk("T", graph(Edge("T", "T", 5.0), Edge("P", "T", 95.0)))
    assert [o.node for o in result.owners] == ["P"]


def test_missing_share_cannot_tell() -> None:
    result = walk("T", graph(Edge("A", "T", None), Edge("P", "A", 100.0)))
    p = owner(result, "P")
    assert p.share == 0 and not p.share_complete
    assert p.meets(25) is None and p.meets(50) is None


def test_missing_share_with_control_still_decides() -> None:
    result = walk("T", graph(Edge("A", "T", None, controls=True), Edge("P", "A", 100.0)))
    assert owner(result, "P").meets(50) is True


def test_known_share_decides_despite_an_unknown_path() -> None:
    result = walk("T", graph(Edge("P", "T", 30.0), Edge("A", "T", None), Edge("P", "A", 10.0)))
    p = owner(result, "P")
    assert not p.share_complete and p.meets(25) is True and p.meets(50) is None


def test_band_lower_bound_is_exclusive() -> None:
    assert walk("T", graph(Edge("P", "T", 25.0, more_than=True))).owners[0].meets(25) is True
    assert walk("T", graph(Edge("P", "T", 25.0))).owners[0].meets(25) is False
    assert walk("T", graph(Edge("P", "T", 50.0))).owners[0].meets(50) is False
    assert walk("T", graph(Edge("P", "T", 50.0, more_than=True))).owners[0].meets(50) is True


def test_votes_and_influence() -> None:
    assert (
        walk("T", graph(Edge("P", "T", None, votes=50.0, votes_more_than=True))).owners[0].meets(50) is True
    )
    influence = walk("T", graph(Edge("P", "T", None, significant=True))).owners[0]
    assert influence.meets(25) is True and influence.meets(50) is None


def test_depth_limit_ends_paths() -> None:
    edges = [Edge(f"N{i + 1}", f"N{i}", 100.0) for i in range(10)]
    result = walk("N0", graph(*edges), max_depth=3)
    assert [(o.node, o.end) for o in result.owners] == [("N3", "depth_limit")]
    assert result.depth == 3
    with pytest.raises(ValueError):
        walk("N0", {}, max_depth=0)


def test_path_budget_truncates() -> None:
    # 2^10 paths through ten diamonds in a row.
    edges = []
    for i in range(10):
        edges += [
            Edge(f"a{i}", f"m{i}", 50.0),
            Edge(f"b{i}", f"m{i}", 50.0),
            Edge(f"m{i + 1}", f"a{i}", 100.0),
            Edge(f"m{i + 1}", f"b{i}", 100.0),
        ]
    result = walk("m0", graph(*edges), max_depth=20, max_paths=100)
    assert result.truncated and sum(len(o.paths) for o in result.owners) == 100
    full = walk("m0", graph(*edges), max_depth=20, max_paths=5000)
    assert not full.truncated and owner(full, "m10").share == pytest.approx(100.0)


def test_merge_keeps_first_share_and_all_sources() -> None:
    merged = merge_edges(
        [
            Edge("A", "T", None, sources=("gleif_rr",), controls=True),
            Edge("A", "T", 60.0, sources=("sk_rpo",)),
            Edge("A", "T", 70.0, sources=("x",)),
        ]
    )
    (edge,) = merged["T"]
    assert edge.share == 60.0 and edge.controls and edge.sources == ("gleif_rr", "sk_rpo", "x")


def test_cycle_components() -> None:
    found = cycle_components(
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("e", "e"), ("d", "x"), ("x", "d")]
    )
    assert set(found) == {"a", "b", "c", "e", "d", "x"}
    assert found["a"] == found["b"] == found["c"] and found["d"] == found["x"] != found["a"] != found["e"]
    assert cycle_components([("a", "b"), ("b", "c")]) == {}
    long = [(str(i), str(i + 1)) for i in range(5000)] + [("5000", "0")]
    assert len(set(cycle_components(long).values())) == 1 and len(cycle_components(long)) == 5001


def test_psc_bands_and_rights() -> None:
    got = bands(
        [
            "ownership-of-shares-25-to-50-percent",
            "voting-rights-more-than-75-percent",
            "right-to-share-surplus-assets-50-to-75-percent-as-trust",
            "significant-influence-or-control",
        ]
    )
    assert [(b.kind, b.lower, b.upper) for b in got] == [
        ("shares", 25, 50),
        ("votes", 75, None),
        ("surplus", 50, 75),
    ]
    assert control_rights(["right-to-appoint-and-remove-directors"]) == (True, False)
    assert control_rights(["significant-influence-or-control-as-firm"]) == (False, True)
    assert control_rights(None) == (False, False)


def _brute_paths(target: str, edges: list[Edge]) -> dict[str, float]:
    """Every simple path from a node with no owners (or owned only from the path) down to target."""
    by_owned: dict[str, list[Edge]] = {}
    for e in edges:
        by_owned.setdefault(e.owned, []).append(e)
    totals: dict[str, float] = {}

    def up(node: str, seen: list[str], share: float) -> None:
        onward = [e for e in by_owned.get(node, []) if e.owner not in seen and e.owner != node]
        if node != target and not onward:
            totals[node] = totals.get(node, 0.0) + share
            return
        for e in onward:
            up(e.owner, [*seen, e.owner], share * (e.share or 0) / 100)

    up(target, [target], 100.0)
    return totals


@pytest.mark.parametrize("seed", range(200))
def test_random_graphs_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(rng.randint(2, 7))]
    pairs = [p for p in itertools.permutations(nodes, 2) if rng.random() < 0.35]
    edges = [Edge(a, b, float(rng.choice([10, 25, 40, 51, 60, 100]))) for a, b in pairs]
    result = walk("n0", merge_edges(edges), max_depth=20, max_paths=100_000)
    expected = _brute_paths("n0", edges)
    assert {o.node: pytest.approx(o.share) for o in result.owners} == expected
    for o in result.owners:
        for p in o.paths:
            assert len(set(p.nodes)) == len(p.nodes) and p.nodes[-1] == "n0" and p.nodes[0] == o.node
