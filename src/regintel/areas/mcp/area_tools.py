"""MCP tools over the areas (issue 22): the credit score, NIS2 scoping, ownership and the ultimate owner,
and sanctions screening.

Each is a thin call into the service function its REST route calls (named in the description), so its
structured result is that route's `data` (a list answer is wrapped as `items` with `total`). Arguments
mirror the route's parameters, with the same bounds; `purpose` unlocks natural persons exactly as the
REST `purpose` parameter does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field
from sqlalchemy.engine import Connection

from regintel.areas.mcp.toolkit import CompanyArgs, Purpose, Tool, ToolContext, company_row, personal
from regintel.areas.nis2 import service as nis2_svc
from regintel.areas.ownership import relations as relations_svc
from regintel.areas.ownership import ultimate as ultimate_svc
from regintel.areas.ownership.entities import Ctx
from regintel.areas.scores import views as scores_views
from regintel.areas.screening import service as screening_svc
from regintel.domain.ownership import MAX_DEPTH, MAX_PATHS
from regintel.domain.screening import DEFAULT_THRESHOLD


def _who(r: Mapping[str, Any]) -> str:
    return f"{r.get('name') or '?'} ({r.get('country')} {r.get('national_id') or r.get('nationalId')})"


# -- scores ------------------------------------------------------------------------------------------------


def _credit(conn: Connection, ctx: ToolContext, a: CompanyArgs) -> dict[str, Any]:
    return scores_views.credit_score(conn, company_row(conn, a))


def _credit_text(r: dict[str, Any]) -> str:
    if r.get("grade") is None:
        return f"No credit grade: {r.get('withheld_reason')}"
    missing = [f["code"] for f in r.get("factors", []) if f.get("points") is None]
    return (
        f"Credit grade {r['grade']}, score {r['score']} of 100, confidence {r['confidence']:.0%} (model "
        f"{r['model_version']})" + (f"; no data for: {', '.join(missing)}" if missing else "")
    )


# -- NIS2 --------------------------------------------------------------------------------


def _nis2(conn: Connection, ctx: ToolContext, a: CompanyArgs) -> dict[str, Any]:
    return nis2_svc.scope(conn, company_row(conn, a))


def _nis2_text(r: dict[str, Any]) -> str:
    scope = {True: "in scope", False: "out of scope", None: "undecided"}[r.get("in_scope")]
    text = (
        f"NIS2: {scope}, category {r.get('category')}, certainty {r.get('certainty')} "
        f"({r.get('ruleset_version')})"
    )
    missing = [m.get("input") for m in r.get("missing") or [] if isinstance(m, dict)]
    return text + (f"; missing: {', '.join(str(m) for m in missing)}" if missing else "")


# -- ownership -------------------------------------------------------------------------------------------


class RelationsArgs(CompanyArgs):
    purpose: Purpose
    include_ended: bool = Field(default=False, description="Also roles and stakes that have ended")


def _relations(conn: Connection, ctx: ToolContext, a: RelationsArgs) -> dict[str, Any]:
    lens = Ctx(conn, personal(ctx, a.purpose))
    return relations_svc.relations(lens, company_row(conn, a), a.include_ended).model_dump(mode="json")


def _relations_text(r: dict[str, Any]) -> str:
    lines = []
    for key in ("shareholders", "beneficialOwners", "directors", "holdings"):
        items = r.get(key) or []
        lines.append(f"{key}: {len(items)}")
        lines += [
            f"- {i['holder']['name']} ({i.get('title') or i['role']}"
            + (f", {i['sharePct']:g}%" if i.get("sharePct") is not None else "")
            + ")"
            for i in items[:10]
        ]
    return "\n".join(lines)


class UltimateArgs(CompanyArgs):
    purpose: Purpose
    max_depth: int = Field(default=10, ge=1, le=MAX_DEPTH, description="Levels walked up")
    max_paths: int = Field(default=500, ge=1, le=MAX_PATHS, description="Path budget")


def _ultimate(conn: Connection, ctx: ToolContext, a: UltimateArgs) -> dict[str, Any]:
    lens = Ctx(conn, personal(ctx, a.purpose))
    return ultimate_svc.ultimate_owner(lens, company_row(conn, a), a.max_depth, a.max_paths).model_dump(
        mode="json"
    )


def _ultimate_text(r: dict[str, Any]) -> str:
    names = {key: e.get("name") for key, e in r["entities"].items()}
    if r["ownerKnown"]:
        head = "Beneficial owners (25%): " + ", ".join(str(names.get(k, k)) for k in r["beneficialOwners25"])
    else:
        head = "Ultimate owner not known: " + (
            "; ".join(u["message"] for u in r["unknownReasons"]) or "no natural person is known to hold 25%"
        )
    control = [str(names.get(k, k)) for k in r["beneficialOwners50"]]
    return (
        head
        + (f"\nControl (50%): {', '.join(control)}" if control else "")
        + (f"\n{len(r['cycles'])} ownership loop(s)" if r["cycles"] else "")
    )


# -- sanctions ---------------------------------------------------------------------------------------------


class SanctionsArgs(CompanyArgs):
    purpose: Purpose
    threshold: float = Field(
        default=DEFAULT_THRESHOLD, ge=0.0, le=1.0, description="Hits scoring at least this (0-1)"
    )


def _sanctions(conn: Connection, ctx: ToolContext, a: SanctionsArgs) -> dict[str, Any]:
    return screening_svc.company_sanctions(conn, company_row(conn, a), a.threshold, personal(ctx, a.purpose))


def _sanctions_text(r: dict[str, Any]) -> str:
    lists = ", ".join(f"{v['name']} ({v['version']})" for v in r["lists"])
    if not r["hit_count"]:
        return (
            f"No match at threshold {r['threshold']} for the company and its owners and officers. "
            f"Lists: {lists}"
        )
    lines = [
        f"{r['hit_count']} possible match(es) at threshold {r['threshold']}; review each. Lists: {lists}"
    ]
    lines += [
        f"- {s['name']} ({s['subject']}): {h['caption']} on {h['list']['name']}, score {h['score']:.2f}"
        for s in r["subjects"]
        for h in s["hits"]
    ][:20]
    return "\n".join(lines)


AREA_TOOLS: list[Tool] = [
    Tool(
        "credit_score",
        "Credit score",
        "GET /companies/{ico}/credit-score: the open credit model's 0-100 score and A-F grade with each of "
        "its ten factors (weight, points, evidence with source and date). Factors without data are listed in "
        "`missing_inputs` and lower `confidence`; without any statement the grade is withheld "
        "(`withheld_reason`), never guessed.",
        CompanyArgs,
        _credit,
        _credit_text,
    ),
    Tool(
        "nis2_scope",
        "NIS2 scoping",
        "GET /companies/{ico}/nis2: essential, important or out of scope under Directive (EU) 2022/2555, "
        "with the sector (Annex I/II) and NACE code behind it, the size class and its inputs, designations, "
        "the national transposition, `certainty` and what is `missing` for a certain answer.",
        CompanyArgs,
        _nis2,
        _nis2_text,
    ),
    Tool(
        "company_relations",
        "Owners, officers and holdings",
        "GET /companies/{ico}/relations: directors and statutory bodies, shareholders, beneficial owners and "
        "the stakes the company holds, with role, dates, share and source. Natural persons' birth date, "
        "nationality and residence only with a declared `purpose`.",
        RelationsArgs,
        _relations,
        _relations_text,
    ),
    Tool(
        "ultimate_owner",
        "Ultimate owner",
        "GET /companies/{ico}/ultimate-owner: walks the ownership graph up (register shareholders, "
        "beneficial owners, GLEIF parents) to where every path ends, with multiplied shares at the 25% (AMLD "
        "beneficial owner) and 50% (control) thresholds, loops reported once, and `unknownReasons` when no "
        "owner is known.",
        UltimateArgs,
        _ultimate,
        _ultimate_text,
    ),
    Tool(
        "sanctions_screening",
        "Sanctions screening of a company",
        "GET /companies/{ico}/sanctions: sanctions and debarment hits for the company, its current officers "
        "and its owners, each hit with its list, programmes, listed names, score and matched features. "
        "Natural persons are screened only with a declared `purpose`. NOT_IMPLEMENTED when no list is "
        "imported (never a clean answer without lists).",
        SanctionsArgs,
        _sanctions,
        _sanctions_text,
    ),
]
