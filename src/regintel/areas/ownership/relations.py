"""`/companies/{ico}/relations`: officers, shareholders, beneficial owners and holdings of one company."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.ownership import queries as q
from regintel.areas.ownership.entities import Ctx, company, ownership_relation, relation
from regintel.areas.ownership.schemas import Relation, Relations

DIRECTOR_ROLES = ("director", "statutory_body")


def relations(ctx: Ctx, row: Mapping[str, Any], include_ended: bool) -> Relations:
    cid = int(row["id"])
    held = q.roles_in(ctx.conn, [cid], include_ended=include_ended, today=ctx.today)
    groups: dict[str, list[Relation]] = {
        "director": [],
        "shareholder": [],
        "beneficial_owner": [],
        "other": [],
    }
    role_holders = set()
    for r in held:
        group = "director" if r["role"] in DIRECTOR_ROLES else r["role"] if r["role"] in groups else "other"
        groups[group].append(relation(ctx, r))
        if r["holder_company_id"] is not None:
            role_holders.add((int(r["holder_company_id"]), r["source"]))
    parents = q.ownerships_into(
        ctx.conn, [cid], include_ended=include_ended, today=ctx.today, kinds=("direct", "ultimate")
    )
    children = q.ownerships_from(ctx.conn, [cid], include_ended=include_ended, today=ctx.today)
    holding_roles = q.roles_held_by_companies(ctx.conn, [cid], include_ended=include_ended, today=ctx.today)
    others = {int(p["parent_id"]): q.company_of(p, "parent") for p in parents}
    others |= {int(c["child_id"]): q.company_of(c, "child") for c in children}
    others |= {int(r["company_id"]): q.company_of(r, "company") for r in holding_roles}
    for p in parents:
        # A register's shareholder role and the same source's edge are one fact: listed once.
        if (int(p["parent_id"]), p["source"]) not in role_holders and int(p["parent_id"]) in others:
            groups["shareholder"].append(ownership_relation(ctx, p, others[int(p["parent_id"])]))
    holdings = [
        relation(ctx, r, company(others[int(r["company_id"])]))
        for r in holding_roles
        if int(r["company_id"]) in others
    ]
    seen = {(int(r["company_id"]), r["source"]) for r in holding_roles}
    holdings += [
        ownership_relation(ctx, c, others[int(c["child_id"])], held=True)
        for c in children
        if (int(c["child_id"]), c["source"]) not in seen and int(c["child_id"]) in others
    ]
    return Relations(
        company=company(row),
        directors=groups["director"],
        shareholders=groups["shareholder"],
        beneficialOwners=groups["beneficial_owner"],
        otherRoles=groups["other"],
        holdings=holdings,
    )
