"""`/uk-connections` (Companies House PSC entries that name this company or its people) and
`/offshore-links` (entities around the company registered or resident in an offshore jurisdiction)."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any, Literal

import pycountry

from regintel.areas.ownership import queries as q
from regintel.areas.ownership.entities import Ctx, company, company_id, holder, relation
from regintel.areas.ownership.graph import Builder, build
from regintel.areas.ownership.psc_match import decide
from regintel.areas.ownership.schemas import (
    Entity,
    OffshoreLink,
    OffshoreLinks,
    PscMatchBasis,
    UkConnection,
    UkConnections,
)
from regintel.domain.names import normalise_name, spelling_key
from regintel.domain.offshore import SOURCE as OFFSHORE_SOURCE
from regintel.domain.offshore import Jurisdiction, offshore
from regintel.domain.ownership import dates_agree

Row = Mapping[str, Any]
PSC = "gb_psc"


def uk_connections(ctx: Ctx, root: Row) -> UkConnections:
    cid = int(root["id"])
    out: list[UkConnection] = []
    if root["country"] == "GB":
        for r in q.roles_in(ctx.conn, [cid], include_ended=True, today=ctx.today):
            if r["source"] == PSC:
                out.append(
                    UkConnection(
                        kind="psc_of_this_company",
                        match="identifier",
                        ukCompany=company(root),
                        psc=relation(ctx, r),
                        via=None,
                    )
                )
    held = [
        r
        for r in q.roles_held_by_companies(ctx.conn, [cid], include_ended=True, today=ctx.today)
        if r["source"] == PSC
    ]
    uk = {int(r["company_id"]): q.company_of(r, "company") for r in held}
    out += [
        UkConnection(
            kind="this_company_is_psc",
            match="identifier",
            ukCompany=company(uk[int(r["company_id"])]),
            psc=relation(ctx, r),
            via=None,
        )
        for r in held
        if int(r["company_id"]) in uk
    ]
    out += _named_as_psc(ctx, root)
    out += _people_as_psc(ctx, root)
    return UkConnections(company=company(root), connections=out)


def _named_as_psc(ctx: Ctx, root: Row) -> list[UkConnection]:
    """Corporate PSCs with no UK company key (companies registered abroad) that are this company by
    name, country and registration number (`psc_match.decide`, which states the basis)."""
    if root["country"] == "GB":
        return []  # a UK company is a PSC by its company key (above)
    name_norm = spelling_key(root.get("name_norm") or normalise_name(str(root["name"])))
    out = []
    for r in q.roles_naming_company(ctx.conn, PSC, root["country"], root["national_id"], name_norm):
        if r["person_id"] is not None or r["holder_company_id"] is not None:
            continue
        basis = decide(
            root["country"],
            root["national_id"],
            name_norm,
            r["holder_name_norm"],
            r["holder_reg_country"],
            r["holder_reg_number"],
        )
        if basis is None:
            continue
        out.append(
            UkConnection(
                kind="this_company_is_psc",
                match=basis.match,
                basis=PscMatchBasis(
                    name=basis.name,
                    country=basis.country,
                    registrationNumber=basis.registration_number,
                    pscCountry=basis.psc_country,
                    pscRegistrationNumber=basis.psc_registration_number,
                ),
                ukCompany=company(q.company_of(r, "company")),
                psc=relation(ctx, r),
                via=None,
            )
        )
    return out


def _people_as_psc(ctx: Ctx, root: Row) -> list[UkConnection]:
    """PSC entries of this company's people: the same person record, or (a lead, not a finding) a PSC
    person of the same normalised name whose birth date does not contradict."""
    ours = {
        int(r["person_id"]): r
        for r in q.roles_in(ctx.conn, [int(root["id"])], include_ended=True, today=ctx.today)
        if r["person_id"] is not None
    }
    if not ours:
        return []
    people = q.people_by_id(ctx.conn, ours)
    by_name: dict[str, list[int]] = {}
    for pid, p in people.items():
        by_name.setdefault(p["name_norm"], []).append(pid)
    namesakes = {int(p["id"]): p for p in q.people_named(ctx.conn, by_name, PSC) if int(p["id"]) not in ours}
    rows = [
        r
        for r in q.roles_of_people(ctx.conn, set(ours) | set(namesakes), include_ended=True, today=ctx.today)
        if r["source"] == PSC and int(r["company_id"]) != int(root["id"])
    ]
    uk = {int(r["company_id"]): q.company_of(r, "company") for r in rows}
    out = []
    match: Literal["person_key", "name"]
    for r in rows:
        pid = int(r["person_id"])
        if pid in ours:
            via, match = ours[pid], "person_key"
        else:
            twins = [
                people[o]
                for o in by_name.get(namesakes[pid]["name_norm"], [])
                if dates_agree(people[o]["birth_date"], namesakes[pid]["birth_date"])
            ]
            if not twins:
                continue
            via, match = ours[int(twins[0]["id"])], "name"
        if int(r["company_id"]) in uk:
            out.append(
                UkConnection(
                    kind="person_is_psc",
                    match=match,
                    ukCompany=company(uk[int(r["company_id"])]),
                    psc=relation(ctx, r),
                    via=holder(via, ctx.personal),
                )
            )
    return out


def country_code(value: str | None) -> str | None:
    """An ISO code from a code or a country name as registers write them (`KY`, `Cayman Islands`)."""
    if not value or not value.strip():
        return None
    text = value.strip()
    if text.upper() == "MY-15" or normalise_name(text) == "labuan":
        return "MY-15"
    try:
        return str(pycountry.countries.lookup(text).alpha_2)
    except LookupError:
        return None


def offshore_links(ctx: Ctx, root: Row, depth: int, groups: frozenset[int]) -> OffshoreLinks:
    b = build(ctx, root, depth, limit=2000, include_ended=False)
    root_id = company_id(root)
    paths = _paths(b, root_id)
    links: list[OffshoreLink] = []
    for node_id, (entity, _) in b.nodes.items():
        for basis, code in _places(entity, ctx.personal):
            if (j := offshore(code, groups)) is not None:
                links.append(_link(entity, j, basis, paths.get(node_id, [node_id]), b))
    links += _gleif_links(ctx, b, paths, groups)
    links.sort(key=lambda link: (len(link.path), link.jurisdiction, link.entity.name))
    return OffshoreLinks(company=company(root), links=links, jurisdictions=OFFSHORE_SOURCE, depth=depth)


def _places(entity: Entity, personal: bool) -> list[tuple[str, str | None]]:
    if entity.type in ("company", "entity"):  # an entity: the country its source gives, if any
        return [("registered", entity.country)]
    if entity.type == "person" and personal and entity.personal is not None:
        return [
            ("residence", country_code(entity.personal.countryOfResidence)),
            ("nationality", country_code(entity.personal.nationality)),
        ]
    return []


def _link(entity: Entity, j: Jurisdiction, basis: str, path: list[str], b: Builder) -> OffshoreLink:
    relation_ = "self"
    if len(path) > 1:
        a, c = path[-2], path[-1]
        found = [e.type for e in b.edges.values() if {e.source, e.target} == {a, c}]
        relation_ = found[0] if found else "related"
    return OffshoreLink(
        entity=entity,
        jurisdiction=j.code,
        jurisdictionName=j.name,
        fsfGroup=j.group,
        basis=basis,
        relation=relation_,
        path=path,
    )


def _paths(b: Builder, root: str) -> dict[str, list[str]]:
    """Shortest path (over edges in either direction) from the root to every node."""
    near: dict[str, set[str]] = {}
    for e in b.edges.values():
        near.setdefault(e.source, set()).add(e.target)
        near.setdefault(e.target, set()).add(e.source)
    back: dict[str, str | None] = {root: None}
    todo = deque([root])
    while todo:
        node = todo.popleft()
        for nxt in sorted(near.get(node, ())):
            if nxt not in back:
                back[nxt] = node
                todo.append(nxt)
    out: dict[str, list[str]] = {}
    for node in back:
        chain: list[str] = []
        at: str | None = node
        while at is not None:
            chain.append(at)
            at = back[at]
        out[node] = chain[::-1]
    return out


def _gleif_links(
    ctx: Ctx, b: Builder, paths: dict[str, list[str]], groups: frozenset[int]
) -> list[OffshoreLink]:
    """GLEIF parents and children of the companies around, registered offshore, that are not companies
    of ours (those are checked as nodes)."""
    leis = q.leis_of(ctx.conn, b.companies)
    node_of = {lei: b.companies[cid] for cid, values in leis.items() for lei in values}
    out = []
    for side, rows in (
        ("parent", q.lei_parents(ctx.conn, node_of)),
        ("child", q.lei_children(ctx.conn, node_of)),
    ):
        for r in rows:
            ours = node_of[r["child_lei"] if side == "parent" else r["parent_lei"]]
            other_lei = r["parent_lei"] if side == "parent" else r["child_lei"]
            if r[f"{side}_company_id"] is not None or r["legal_name"] is None:
                continue
            place = [("lei_jurisdiction", r[f"{side}_jurisdiction"]), ("lei_country", r[f"{side}_country"])]
            found = next(((basis, j) for basis, code in place if (j := offshore(code, groups))), None)
            if found is None:
                continue
            entity = Entity(
                id=f"lei:{other_lei}",
                type="entity",
                name=r["legal_name"],
                country=r[f"{side}_country"],
                lei=other_lei,
            )
            j = found[1]
            out.append(
                OffshoreLink(
                    entity=entity,
                    jurisdiction=j.code,
                    jurisdictionName=j.name,
                    fsfGroup=j.group,
                    basis=found[0],
                    relation=f"GLEIF {r['kind']} {side}",
                    path=[*paths.get(ours, [ours]), entity.id],
                )
            )
    return out
