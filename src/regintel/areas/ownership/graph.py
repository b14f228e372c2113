"""`/companies/{ico}/graph` (people and companies around a company, breadth first, bounded by depth and
node count, loops marked) and `/network` (companies that share people with it)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from regintel.areas.ownership import queries as q
from regintel.areas.ownership.entities import Ctx, company, company_id, gleif_share, holder
from regintel.areas.ownership.schemas import (
    Band,
    Entity,
    Graph,
    GraphEdge,
    GraphNode,
    Network,
    NetworkLink,
    SharedPerson,
)
from regintel.domain.ownership import bands, cycle_components

Row = Mapping[str, Any]
OWNING = ("shareholder", "beneficial_owner", "ownership")


class Builder:
    def __init__(self, ctx: Ctx, limit: int) -> None:
        self.ctx = ctx
        self.limit = limit
        self.nodes: dict[str, tuple[Entity, int]] = {}
        self.edges: dict[tuple[str, str, str], GraphEdge] = {}
        self.truncated = False
        self.companies: dict[int, str] = {}
        self.people: dict[int, str] = {}

    def node(self, entity: Entity, depth: int) -> bool:
        """Add a node; False when the limit keeps it out."""
        if entity.id in self.nodes:
            return True
        if len(self.nodes) >= self.limit:
            self.truncated = True
            return False
        self.nodes[entity.id] = (entity, depth)
        return True

    def edge(
        self,
        source: str,
        target: str,
        kind: str,
        share: float | None,
        since: date | None,
        until: date | None,
        src: str,
        natures: list[str] | None = None,
    ) -> None:
        key = (source, target, kind)
        old = self.edges.get(key)
        if old is not None:
            if src not in old.sources:
                old.sources.append(src)
            old.sharePct = old.sharePct if old.sharePct is not None else share
            return
        self.edges[key] = GraphEdge(
            source=source,
            target=target,
            type=kind,
            sharePct=share,
            since=since,
            until=until,
            active=self.ctx.active(until),
            inCycle=False,
            sources=[src],
            bands=[Band(kind=b.kind, moreThan=b.lower, upTo=b.upper) for b in bands(natures)],
        )

    def role(self, r: Row, company_entity: Entity, depth: int, holder_side_new: bool) -> None:
        """A role row: the holder joins (at `depth` when it is the new side) and the edge is drawn."""
        held = holder(r, self.ctx.personal)
        new = held if holder_side_new else company_entity
        if not self.node(new, depth):
            return
        self.edge(
            held.id,
            company_entity.id,
            r["role"],
            r["share_pct"],
            r["since"],
            r["until"],
            r["source"],
            r["natures_of_control"],
        )
        if r["person_id"] is not None:
            self.people.setdefault(int(r["person_id"]), held.id)
        if r["holder_company_id"] is not None:
            self.companies.setdefault(int(r["holder_company_id"]), held.id)
        if not holder_side_new:
            self.companies.setdefault(int(r["company_id"]), company_entity.id)


def graph(ctx: Ctx, root: Row, depth: int, limit: int, include_ended: bool) -> Graph:
    return as_graph(build(ctx, root, depth, limit, include_ended), root, depth)


def build(ctx: Ctx, root: Row, depth: int, limit: int, include_ended: bool) -> Builder:
    """The neighbourhood, breadth first: `companies` maps the database ids of its companies to node ids."""
    b = Builder(ctx, limit)
    b.node(company(root), 0)
    b.companies[int(root["id"])] = company_id(root)
    frontier_c: set[int] = {int(root["id"])}
    frontier_p: set[int] = set()
    done_c: set[int] = set()
    done_p: set[int] = set()
    opts: q.Window = {"include_ended": include_ended, "today": ctx.today}
    for level in range(1, depth + 1):
        before_c, before_p = set(b.companies), set(b.people)
        held_in = q.roles_in(ctx.conn, frontier_c, **opts)
        held_by = q.roles_held_by_companies(ctx.conn, frontier_c, **opts)
        of_people = q.roles_of_people(ctx.conn, frontier_p, **opts)
        into = q.ownerships_into(ctx.conn, frontier_c, **opts)
        out = q.ownerships_from(ctx.conn, frontier_c, **opts)
        entity_of = {int(r["company_id"]): company(q.company_of(r, "company")) for r in held_by + of_people}
        for e in into + out:
            for side in ("parent", "child"):
                entity_of.setdefault(int(e[f"{side}_id"]), company(q.company_of(e, side)))
        for r in held_in:
            b.role(r, b.nodes[b.companies[int(r["company_id"])]][0], level, holder_side_new=True)
        for r in held_by + of_people:
            if int(r["company_id"]) in entity_of:
                b.role(r, entity_of[int(r["company_id"])], level, holder_side_new=False)
        for e in into + out:
            parent, child = entity_of.get(int(e["parent_id"])), entity_of.get(int(e["child_id"]))
            for cid, ent in ((int(e["parent_id"]), parent), (int(e["child_id"]), child)):
                if ent is not None and b.node(ent, level):
                    b.companies.setdefault(cid, ent.id)
            p_id, c_id = b.companies.get(int(e["parent_id"])), b.companies.get(int(e["child_id"]))
            if p_id in b.nodes and c_id in b.nodes:
                b.edge(p_id, c_id, "ownership", gleif_share(e), e["since"], e["until"], e["source"])
        done_c |= frontier_c
        done_p |= frontier_p
        frontier_c = set(b.companies) - before_c - done_c
        frontier_p = set(b.people) - before_p - done_p
        if not frontier_c and not frontier_p:
            break
    return b


def as_graph(b: Builder, root: Row, depth: int) -> Graph:
    loops = cycle_components((e.source, e.target) for e in b.edges.values() if e.type in OWNING)
    for e in b.edges.values():
        e.inCycle = e.type in OWNING and e.source in loops and loops.get(e.source) == loops.get(e.target)
    nodes = sorted(b.nodes.values(), key=lambda nd: (nd[1], nd[0].type, nd[0].name, nd[0].id))
    return Graph(
        root=company_id(root),
        depth=depth,
        truncated=b.truncated,
        nodes=[GraphNode(entity=ent, depth=d, inCycle=ent.id in loops) for ent, d in nodes],
        edges=sorted(b.edges.values(), key=lambda e: (e.source, e.target, e.type)),
    )


def network(ctx: Ctx, root: Row, include_ended: bool, limit: int) -> tuple[Network, int]:
    """Other companies in which this company's people (officers and owners who are natural persons)
    hold roles, most shared people first."""
    opts: q.Window = {"include_ended": include_ended, "today": ctx.today}
    here = [r for r in q.roles_in(ctx.conn, [int(root["id"])], **opts) if r["person_id"] is not None]
    roles_here: dict[int, list[str]] = {}
    people: dict[int, Entity] = {}
    for r in here:
        roles_here.setdefault(int(r["person_id"]), []).append(r["role"])
        people.setdefault(int(r["person_id"]), holder(r, ctx.personal))
    there: dict[int, dict[int, list[str]]] = {}
    rows: dict[int, Row] = {}
    for r in q.roles_of_people(ctx.conn, people, **opts):
        if int(r["company_id"]) != int(root["id"]):
            there.setdefault(int(r["company_id"]), {}).setdefault(int(r["person_id"]), []).append(r["role"])
            rows.setdefault(int(r["company_id"]), q.company_of(r, "company"))
    links = [
        NetworkLink(
            company=company(rows[cid]),
            sharedPeople=[
                SharedPerson(
                    person=people[pid], rolesHere=sorted(set(roles_here[pid])), rolesThere=sorted(set(rs))
                )
                for pid, rs in sorted(by_person.items(), key=lambda kv: people[kv[0]].name)
            ],
        )
        for cid, by_person in there.items()
        if cid in rows
    ]
    links.sort(key=lambda link: (-len(link.sharedPeople), link.company.name, link.company.id))
    return Network(company=company(root), links=links[:limit]), len(links)
