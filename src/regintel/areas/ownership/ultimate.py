"""`/companies/{ico}/ultimate-owner`: load the owners of a company level by level (one query per level
and table), then run the pure walk of `domain.ownership` over them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.ownership import queries as q
from regintel.areas.ownership.entities import Ctx, company, company_id, gleif_share, holder
from regintel.areas.ownership.schemas import (
    Entity,
    GleifParent,
    OwnershipPath,
    PathStep,
    UltimateOwner,
    UltimateOwnerResult,
    UnknownReason,
)
from regintel.domain.ownership import THRESHOLDS, Edge, Owner, bands, control_rights, merge_edges, walk

Row = Mapping[str, Any]


class OwnerGraph:
    """The owners above a set of companies, up to a depth: edges and the entities they join."""

    def __init__(self) -> None:
        self.edges: list[Edge] = []
        self.entities: dict[str, Entity] = {}
        self.company_ids: dict[str, int] = {}

    def add_company(self, row: Row) -> str:
        node = company_id(row)
        self.entities.setdefault(node, company(row))
        self.company_ids[node] = int(row["id"])
        return node


def role_edge(r: Row, owner: str, owned: str) -> Edge:
    natures = r["natures_of_control"]
    found = bands(natures)
    share_band = any(b.kind == "shares" and b.lower == r["share_pct"] for b in found)
    vote_band = any(b.kind == "votes" and b.lower == r["voting_pct"] for b in found)
    controls, significant = control_rights(natures)
    # A beneficial owner a register declares without saying how is one by law (25% or control).
    declared = r["role"] == "beneficial_owner" and not natures and r["share_pct"] is None
    return Edge(
        owner,
        owned,
        r["share_pct"],
        share_band,
        r["voting_pct"],
        vote_band,
        controls,
        significant or declared,
        (r["source"],),
    )


def load_owners(ctx: Ctx, root: Row, max_depth: int) -> tuple[str, OwnerGraph]:
    targets, graph = load_owners_of(ctx, [root], max_depth)
    return targets[0], graph


def load_owners_of(ctx: Ctx, roots: list[Row], max_depth: int) -> tuple[list[str], OwnerGraph]:
    """The owners above several companies in one graph, level by level: one query per level and table
    whatever the number of roots (bulk compliance reads 100 companies' owners this way)."""
    graph = OwnerGraph()
    targets = [graph.add_company(root) for root in roots]
    by_id = {int(root["id"]): target for root, target in zip(roots, targets, strict=True)}
    frontier = set(by_id)
    loaded: set[int] = set()
    for _ in range(max_depth + 1):  # one level more, so the walk knows whom the depth limit cut off
        if not frontier:
            break
        found: set[int] = set()
        for r in q.roles_in(ctx.conn, frontier, include_ended=False, today=ctx.today, only=q.OWNER_ROLES):
            entity = holder(r, ctx.personal)
            graph.entities.setdefault(entity.id, entity)
            graph.edges.append(role_edge(r, entity.id, by_id[int(r["company_id"])]))
            if r["holder_company_id"] is not None:
                hid = int(r["holder_company_id"])
                graph.company_ids[entity.id] = hid
                found.add(hid)
                by_id.setdefault(hid, entity.id)
        edges = q.ownerships_into(ctx.conn, frontier, include_ended=False, today=ctx.today)
        for e in edges:
            if int(e["parent_id"]) not in by_id:
                by_id[int(e["parent_id"])] = graph.add_company(q.company_of(e, "parent"))
        for e in edges:
            graph.edges.append(
                Edge(
                    by_id[int(e["parent_id"])],
                    by_id[int(e["child_id"])],
                    gleif_share(e),
                    controls=str(e["source"]).startswith("gleif"),
                    sources=(e["source"],),
                )
            )
            found.add(int(e["parent_id"]))
        loaded |= frontier
        frontier = found - loaded
    return targets, graph


def ultimate_owner(ctx: Ctx, root: Row, max_depth: int, max_paths: int) -> UltimateOwnerResult:
    return ultimate_owners(ctx, [root], max_depth, max_paths)[0]


def ultimate_owners(ctx: Ctx, roots: list[Row], max_depth: int, max_paths: int) -> list[UltimateOwnerResult]:
    """The ultimate owners of several companies (in their order), from one owner graph and one read of
    the LEIs, reporting exceptions and GLEIF parents for all of them."""
    targets, graph = load_owners_of(ctx, roots, max_depth)
    merged = merge_edges(graph.edges)
    walks = [walk(t, merged, max_depth=max_depth, max_paths=max_paths) for t in targets]
    nodes = {n for t, w in zip(targets, walks, strict=True) for n in [t] + [o.node for o in w.owners]}
    leis = q.leis_of(ctx.conn, {graph.company_ids[n] for n in nodes if n in graph.company_ids})
    reasons = _exception_reasons(ctx, leis, graph)
    parents = _gleif_parents_of(ctx, {int(r["id"]): leis.get(int(r["id"]), set()) for r in roots})
    return [
        _result(t, w, graph, reasons, parents[int(r["id"])], max_depth)
        for r, t, w in zip(roots, targets, walks, strict=True)
    ]


def _result(
    target: str,
    result: Any,
    graph: OwnerGraph,
    reasons: dict[str, list[UnknownReason]],
    gleif_parents: list[GleifParent],
    max_depth: int,
) -> UltimateOwnerResult:
    owners = [_owner_out(o, graph, reasons) for o in result.owners]
    used = _used(result, target)  # once: the graph may hold the owners of a whole bulk call
    persons = [o for o in owners if graph.entities[o.entity].type == "person"]
    known = any(o.meets25 for o in persons)
    unknown: list[UnknownReason] = []
    if not known:
        if not result.has_owner_data:
            unknown = reasons.get(target, []) + [
                UnknownReason(
                    code="NO_OWNER_DATA",
                    message=(
                        "No shareholder, beneficial owner or parent company of this company is on record"
                    ),
                )
            ]
        else:
            unknown = [r for o in owners for r in o.unknownReasons]
            if any(o.meets25 is None for o in owners):
                unknown.append(
                    UnknownReason(
                        code="SHARES_UNKNOWN",
                        message=(
                            "Some ownership paths have no published share, so the 25% test cannot be decided"
                        ),
                    )
                )
    return UltimateOwnerResult(
        company=graph.entities[target],
        thresholds=list(THRESHOLDS),
        owners=owners,
        beneficialOwners25=[o.entity for o in owners if o.meets25],
        beneficialOwners50=[o.entity for o in owners if o.meets50],
        undetermined=[o.entity for o in owners if o.meets25 is None],
        ownerKnown=known,
        unknownReasons=unknown,
        gleifParents=gleif_parents,
        cycles=[list(c) for c in result.cycles],
        entities={k: v for k, v in graph.entities.items() if k in used},
        maxDepth=max_depth,
        truncated=result.truncated,
    )


def _used(result: Any, target: str) -> set[str]:
    nodes = {target, *(n for c in result.cycles for n in c)}
    for o in result.owners:
        for p in o.paths:
            nodes.update(p.nodes)
    return nodes


def _owner_out(o: Owner, graph: OwnerGraph, reasons: dict[str, list[UnknownReason]]) -> UltimateOwner:
    entity = graph.entities[o.node]
    why: list[UnknownReason] = []
    if o.end == "cycle":
        why = [
            UnknownReason(code="CYCLE", message="Owned only from inside an ownership loop (cross-holding)")
        ]
    elif o.end == "depth_limit":
        why = [
            UnknownReason(code="DEPTH_LIMIT", message="The walk stopped at max_depth; owners continue above")
        ]
    elif entity.type == "entity":
        why = [
            UnknownReason(
                code="NOT_IN_DATABASE",
                message="Known only by name (a foreign or unregistered entity): its owners are not on record",
            )
        ]
    elif entity.type == "company":
        why = reasons.get(o.node) or [
            UnknownReason(
                code="NO_OWNER_DATA",
                message=("No shareholder, beneficial owner or parent company of this company is on record"),
            )
        ]
    return UltimateOwner(
        entity=o.node,
        end=o.end,
        sharePct=round(o.share, 6),
        shareComplete=o.share_complete,
        control=o.control,
        meets25=o.meets(25),
        meets50=o.meets(50),
        unknownReasons=why,
        paths=[
            OwnershipPath(
                nodes=list(p.nodes),
                sharePct=None if p.share is None else round(p.share, 6),
                control=p.control,
                steps=[
                    PathStep(
                        owner=e.owner,
                        owned=e.owned,
                        sharePct=e.share,
                        moreThan=e.more_than,
                        control=e.control,
                        sources=list(e.sources),
                    )
                    for e in p.edges
                ],
            )
            for p in o.paths
        ],
    )


def _exception_reasons(
    ctx: Ctx, leis: dict[int, set[str]], graph: OwnerGraph
) -> dict[str, list[UnknownReason]]:
    """GLEIF reporting exceptions (why an LEI reports no parent) of the company nodes with these LEIs."""
    node_at = {cid: node for node, cid in graph.company_ids.items()}
    node_of = {lei: node_at[cid] for cid, values in leis.items() for lei in values}
    out: dict[str, list[UnknownReason]] = {}
    for r in q.reporting_exceptions(ctx.conn, node_of):
        out.setdefault(node_of[r["lei"]], []).append(
            UnknownReason(
                code=r["reason"],
                category=r["category"],
                lei=r["lei"],
                reference=r["reference"],
                source=r["source"],
                message=EXCEPTION_MESSAGES.get(r["reason"], "GLEIF reporting exception"),
            )
        )
    return out


EXCEPTION_MESSAGES = {
    "NATURAL_PERSONS": "GLEIF: the entity is controlled by natural persons, who are not reported to GLEIF",
    "NON_CONSOLIDATING": "GLEIF: the parent does not prepare consolidated financial statements",
    "NO_KNOWN_PERSON": "GLEIF: no known person controls the entity",
    "NON_PUBLIC": "GLEIF: the parent's identity is withheld (legal obstacle or consent not given)",
    "LEGAL_OBSTACLES": "GLEIF: legal obstacles prevent reporting the parent",
    "CONSENT_NOT_OBTAINED": "GLEIF: the parent's consent to publish was not obtained",
    "BINDING_LEGAL_COMMITMENTS": "GLEIF: binding legal commitments prevent reporting the parent",
    "DETRIMENT_NOT_EXCLUDED": "GLEIF: publishing the parent could harm the entity or the parent",
    "DISCLOSURE_DETRIMENTAL": "GLEIF: disclosure would be detrimental to the entity or the parent",
}


def _gleif_parents_of(ctx: Ctx, leis_by_root: dict[int, set[str]]) -> dict[int, list[GleifParent]]:
    """Each root's GLEIF parents (the relationships its LEIs are the child of), read once for all roots."""
    every = {lei for leis in leis_by_root.values() for lei in leis}
    rows = [r for r in q.lei_parents(ctx.conn, every) if r["kind"] in ("direct", "ultimate")] if every else []
    linked = q.companies_by_id(
        ctx.conn, {int(r["parent_company_id"]) for r in rows if r["parent_company_id"]}
    )
    out: dict[int, list[GleifParent]] = {}
    for root, leis in leis_by_root.items():
        out[root] = [
            GleifParent(
                kind=r["kind"],
                lei=r["parent_lei"],
                name=r["legal_name"],
                country=r["parent_country"],
                entity=company_id(linked[int(r["parent_company_id"])])
                if r["parent_company_id"] and int(r["parent_company_id"]) in linked
                else None,
                status=r["status"],
                sharePct=gleif_share(r),
            )
            for r in rows
            if r["child_lei"] in leis
        ]
    return out
