"""Use cases of the nis2 area: gather one company's facts (or a batch's), run the rules, shape answers."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.nis2 import queries
from regintel.areas.regulated import service as regulated_service
from regintel.areas.security import service as security_service
from regintel.db.prepared import Read
from regintel.domain.entity_types import entity_type
from regintel.domain.nis2 import fx
from regintel.domain.nis2.obligations import obligations_for
from regintel.domain.nis2.priority import priority
from regintel.domain.nis2.registers import RegisteredActivity
from regintel.domain.nis2.scope import (
    DIRECTIVE,
    RULESET_VERSION,
    Assessment,
    Designation,
    Facts,
    Figures,
    Relation,
    assess,
)
from regintel.domain.nis2.size import Interval
from regintel.domain.nis2.transposition import transposition

_BAND = re.compile(r"\s*(\d+)\s*(?:-\s*(\d+)|(\+))?\s*")
_CLASS_BANDS = {"micro": (0, 9), "small": (10, 49), "medium": (50, 249), "large": (250, None)}
_STRENGTH = {"linked": 2, "partner": 1, "unknown": 0}
CHAIN_DEPTH = 3  # steps through linked enterprises (the company's own links are the first)
CHAIN_CAP = 200  # members of a group added per company


def headcount(row: Mapping[str, Any]) -> tuple[Interval, dict[str, Any]]:
    """The staff headcount: the latest statement's, else the register's number, else its band."""
    if row.get("fin_employees") is not None:
        return Interval.exact(row["fin_employees"]), {
            "value": row["fin_employees"],
            "source": f"financial statement {row['fin_year']}",
        }
    if row.get("employees") is not None:
        return Interval.exact(row["employees"]), {"value": row["employees"], "source": "register headcount"}
    band = (row.get("size_class") or "").strip()
    if band.lower() in _CLASS_BANDS:
        low, high = _CLASS_BANDS[band.lower()]
        return Interval(Decimal(low), None if high is None else Decimal(high)), {
            "band": band,
            "source": "register band",
        }
    match = _BAND.fullmatch(band)
    if match:
        floor = Decimal(match.group(1))
        top = None if match.group(3) else Decimal(match.group(2) or match.group(1))
        return Interval(floor, top), {"band": band, "source": "register band"}
    return Interval(), {"value": None, "source": None}


def _amount(row: Mapping[str, Any], column: str) -> tuple[Interval, dict[str, Any]]:
    amount, currency = row.get(column), row.get("fin_currency")
    if amount is None:
        return Interval(), {"amount": None}
    detail: dict[str, Any] = {
        "amount": amount,
        "currency": currency,
        "year": row.get("fin_year"),
        "source": row.get("fin_source"),
    }
    conv = fx.conversion(currency)
    if conv is None:
        return Interval(), detail | {
            "eur": None,
            "note": f"no EUR rate for {currency} in the rule set's table",
        }
    eur = amount if conv.currency == "EUR" else fx.to_eur(amount, currency)
    assert eur is not None
    if conv.currency != "EUR":
        detail |= {"rate_per_eur": conv.rate, "rate_date": conv.rate_date, "rate_source": conv.source}
    return Interval(max(eur, Decimal(0)), max(eur, Decimal(0))), detail | {"eur": eur}


def figures(row: Mapping[str, Any]) -> Figures:
    head, head_detail = headcount(row)
    turn, turn_detail = _amount(row, "fin_revenue")
    bal, bal_detail = _amount(row, "fin_total_assets")
    return Figures(
        head,
        turn,
        bal,
        {"headcount": head_detail, "turnover": turn_detail, "balance_sheet_total": bal_detail},
    )


def _relation_kind(edge: Mapping[str, Any]) -> str | None:
    """Rec. 2003/361/EC Annex Art. 3: linked above 50% (or consolidated), partner from 25%, else neither."""
    if edge["consolidation"]:
        return "linked"
    share = edge["share_pct"]
    if share is None:
        return "unknown"
    if share > 50:
        return "linked"
    return "partner" if share >= 25 else None


def facts_for(
    conn: Connection, ids: Sequence[int], rows: Mapping[int, Mapping[str, Any]] | None = None
) -> dict[int, Facts]:
    """The rules' inputs for many companies at once (a handful of queries per 500 companies); `rows`:
    the companies' rows when the caller has read them already."""
    today = datetime.now(UTC).date()
    rows = queries.companies_with_financials(conn, ids) if rows is None else rows
    edges = queries.relation_edges(conn, list(rows), today)
    chains = _linked_chains(conn, edges, today)
    wanted = {e["other"] for e in edges} | {m for members in chains.values() for m, _ in members}
    others = dict(queries.companies_with_financials(conn, sorted(wanted - set(rows))))
    others |= rows
    found = queries.designations(conn, list(rows))
    licensed = regulated_service.regulated_activities_of(conn, list(rows))
    earlier = queries.previous_statements(
        conn, {cid: r["fin_year"] for cid, r in rows.items() if r["fin_year"] is not None}
    )
    relations: dict[int, dict[int, Relation]] = {}
    for edge in edges:
        kind = _relation_kind(edge)
        other = others.get(edge["other"])
        if kind is None or other is None:
            continue
        share = None if edge["share_pct"] is None else Decimal(str(edge["share_pct"]))
        rel = Relation(
            kind,
            share,
            figures(other),
            edge["basis"],
            {
                "country": other["country"],
                "national_id": other["national_id"],
                "name": other["name"],
                "direction": edge["direction"],
            },
        )
        current = relations.setdefault(edge["subject"], {}).get(edge["other"])
        if current is None or _STRENGTH[kind] > _STRENGTH[current.kind]:
            relations[edge["subject"]][edge["other"]] = rel
    for subject, members in chains.items():
        for member, via in members:
            other = others.get(member)
            if other is None or member == subject or member in relations.get(subject, {}):
                continue
            through = others.get(via, {}).get("name", via)
            relations.setdefault(subject, {})[member] = Relation(
                "linked",
                None,
                figures(other),
                f"linked through {through} (Annex Art. 3(3), 6(2))",
                {
                    "country": other["country"],
                    "national_id": other["national_id"],
                    "name": other["name"],
                    "direction": "group",
                },
            )
    out = {}
    for cid, row in rows.items():
        out[cid] = Facts(
            country=row["country"],
            status=row["status"],
            legal_form=row["legal_form"],
            entity_type=entity_type(row["country"], row["legal_form"]),
            nace_primary=row["nace_primary"],
            nace_codes=row["nace_codes"] if isinstance(row["nace_codes"], list) else None,
            own=figures(row),
            relations=list(relations.get(cid, {}).values()),
            designations=[Designation(d["kind"], d["source"], d["reference"]) for d in found.get(cid, [])],
            previous=_previous(row, earlier.get(cid)),
            activities=[_registered(a) for a in licensed.get(cid, [])],
        )
    return out


def _registered(a: regulated_service.RegulatedActivity) -> RegisteredActivity:
    return RegisteredActivity(
        a.register, a.sector, a.category, a.licence_type, a.dora.applies if a.dora is not None else None
    )


def _linked_chains(
    conn: Connection, edges: Sequence[Mapping[str, Any]], today: Any
) -> dict[int, list[tuple[int, int]]]:
    """Enterprises linked to a company through its linked enterprises (the parent's parent, a sister
    company: Annex Art. 3(3) "through one or more other enterprises"), up to CHAIN_DEPTH steps and
    CHAIN_CAP members per company; each with the id of the linked enterprise it was reached through."""
    linked: dict[int, set[int]] = {}

    def note(found: Sequence[Mapping[str, Any]]) -> None:
        for e in found:
            if _relation_kind(e) == "linked":
                linked.setdefault(e["subject"], set()).add(e["other"])
                linked.setdefault(e["other"], set()).add(e["subject"])

    note(edges)
    seen = {e["subject"] for e in edges}
    frontier = {e["other"] for e in edges if _relation_kind(e) == "linked"} - seen
    for _ in range(CHAIN_DEPTH - 1):
        if not frontier or len(seen) > 50 * CHAIN_CAP:
            break
        seen |= frontier
        found = queries.relation_edges(conn, sorted(frontier), today)
        note(found)
        frontier = {e["other"] for e in found if _relation_kind(e) == "linked"} - seen
    out: dict[int, list[tuple[int, int]]] = {}
    for subject in {e["subject"] for e in edges}:
        direct = linked.get(subject, set())
        members: list[tuple[int, int]] = []
        queue = [(d, d, 1) for d in sorted(direct)]
        reached = {subject, *direct}
        while queue and len(members) < CHAIN_CAP:
            node, via, depth = queue.pop(0)
            if depth >= CHAIN_DEPTH:
                continue
            for nxt in sorted(linked.get(node, set()) - reached):
                reached.add(nxt)
                members.append((nxt, via))
                queue.append((nxt, via, depth + 1))
        if members:
            out[subject] = members[:CHAIN_CAP]
    return out


def _previous(row: Mapping[str, Any], earlier: Mapping[str, Any] | None) -> Figures | None:
    """The period before the latest: its own figures, the register's headcount when it gives none."""
    if earlier is None:
        return None
    merged = dict(row) | dict(earlier)
    if earlier["fin_employees"] is None:
        merged["fin_employees"] = row["fin_employees"]
    return figures(merged)


def assess_company(conn: Connection, company_id: int) -> tuple[Facts, Assessment]:
    facts = facts_for(conn, [company_id])[company_id]
    return facts, assess(facts)


def scope_view(row: Mapping[str, Any], facts: Facts, a: Assessment) -> dict[str, Any]:
    national = transposition(facts.country)
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "category": a.category,
        "certainty": a.certainty,
        "possible_categories": a.possible_categories,
        "in_scope": None
        if a.certainty != "certain"
        and len(a.possible_categories) > 1
        and "out-of-scope" in a.possible_categories
        else a.category != "out-of-scope",
        "reasons": a.reasons,
        "sectors": a.bases,
        "size": a.size,
        "missing": a.missing,
        "notes": a.notes,
        "designations": [asdict(d) for d in facts.designations],
        "national_transposition": national,
        "legal_basis": DIRECTIVE,
        "ruleset_version": a.ruleset_version,
        "fx": {"rates_date": fx.RATES_DATE, "source": fx.RATES_SOURCE},
    }


def scope(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    facts, a = assess_company(conn, row["id"])
    return scope_view(row, facts, a)


def obligations(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    facts, a = assess_company(conn, row["id"])
    types = {b.get("entity_type") or "" for b in a.bases} | {d.kind for d in facts.designations}
    dora = any(act.dora_applies == "yes" for act in facts.activities)
    out = obligations_for(a.category, facts.country, types, dora)
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        "certainty": a.certainty,
        "possible_categories": a.possible_categories,
        **out,
        "ruleset_version": RULESET_VERSION,
    }


def priority_view(conn: Connection, row: Mapping[str, Any]) -> dict[str, Any]:
    facts, a = assess_company(conn, row["id"])
    since = datetime.now(UTC) - timedelta(days=180)
    posture = security_service.posture_summary(conn, row["country"], row["national_id"])
    result = priority(
        a, queries.recent_changes(conn, row["id"], since), (facts.status or "") == "dissolved", posture
    )
    return {
        "country": row["country"],
        "national_id": row["national_id"],
        "name": row["name"],
        **result,
        "category": a.category,
        "certainty": a.certainty,
        "ruleset_version": RULESET_VERSION,
    }


def _assessment_row(company_id: int, country: str, a: Assessment, now: datetime) -> dict[str, Any]:
    return {
        "company_id": company_id,
        "country": country,
        "category": a.category,
        "certainty": a.certainty,
        "ruleset_version": RULESET_VERSION,
        "computed_at": now,
    }


def assess_batch(
    conn: Connection, ids: Sequence[int], rows: Mapping[int, Mapping[str, Any]] | None = None
) -> list[tuple[int, Facts, Assessment]]:
    facts = facts_for(conn, ids, rows)
    return [(cid, f, assess(f)) for cid, f in facts.items()]


def save_batch(conn: Connection, results: Sequence[tuple[int, Facts, Assessment]]) -> None:
    now = datetime.now(UTC)
    queries.save_assessments(conn, [_assessment_row(cid, f.country, a, now) for cid, f, a in results])


def stored_read(company_id: int) -> Read:
    """What `stored_in_scope` reads, for `read_ahead`."""
    return queries.stored_assessment_read(company_id)


def stored_in_scope(conn: Connection, company_id: int) -> bool | None:
    """Whether the stored assessment puts the company in scope (`essential` or `important`): one read,
    for hot paths such as the LEI record. None when the company was never assessed, or the stored
    answer was not certain; `scope()` assesses live."""
    stored = queries.stored_assessment(conn, company_id)
    if stored is None or stored["certainty"] != "certain":
        return None
    return bool(stored["category"] in ("essential", "important"))
