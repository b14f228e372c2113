"""The rule-based due-diligence writer: findings, with their evidence and source, from a report snapshot.

Pure: it reads the JSON snapshot `areas/reports/facts.py` gathers (record, financial history, credit and
risk scores, ownership, sanctions screening, NIS2 scoping, timeline) and returns sections of findings.
Every finding states one fact or one rule's conclusion, carries the figures it rests on (`evidence`) and
the section and source it came from, so a reader (or a model asked to rewrite it) can trace each
sentence. Natural persons are never named: they are counted (the report carries no declared purpose).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SEVERITIES = ("info", "low", "medium", "high")
RULESET_VERSION = "dd-2026.11"
# The order of the report; the preview is the first PREVIEW_SECTIONS of them.
SECTION_TITLES = {
    "identity": "Identity and legal status",
    "financials": "Financial position",
    "credit": "Credit assessment",
    "risk": "Risk indicators",
    "ownership": "Ownership and control",
    "sanctions": "Sanctions screening",
    "nis2": "NIS2 regulatory scope",
    "events": "Recent events",
}
PREVIEW_SECTIONS = 3

Facts = dict[str, Any]
Finding = dict[str, Any]


def finding(
    section: str, severity: str, statement: str, source: str | None, evidence: dict[str, Any] | None = None
) -> Finding:
    assert severity in SEVERITIES
    return {
        "section": section,
        "severity": severity,
        "statement": statement,
        "evidence": evidence or {},
        "source": source,
    }


def _register_source(f: Facts) -> str | None:
    sources = f["company"].get("sources") or []
    return sources[0]["id"] if sources else None


def _money(value: float | int | None, currency: str | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:,.0f} {currency or ''}".strip()


def identity(f: Facts) -> list[Finding]:
    c = f["company"]
    src = _register_source(f)
    form = (
        (c.get("legalForm") or {}).get("name")
        or (c.get("legalForm") or {}).get("code")
        or "unknown legal form"
    )
    city = (c.get("address") or {}).get("city")
    out = [
        finding(
            "identity",
            "info",
            f"{c['name']} is registered in {c['country']} under national identifier "
            f"{c['nationalId']} as {form}" + (f", seated in {city}" if city else "") + ".",
            src,
            {"country": c["country"], "nationalId": c["nationalId"], "legalForm": c.get("legalForm")},
        )
    ]
    if c.get("foundedOn"):
        out.append(
            finding("identity", "info", f"Founded on {c['foundedOn']}.", src, {"foundedOn": c["foundedOn"]})
        )
    status = c.get("status") or "active"
    if status == "dissolved":
        out.append(
            finding(
                "identity",
                "high",
                "The register lists the company as dissolved"
                + (f" on {c['dissolvedOn']}" if c.get("dissolvedOn") else "")
                + ".",
                src,
                {"status": status, "dissolvedOn": c.get("dissolvedOn")},
            )
        )
    elif status != "active":
        out.append(
            finding(
                "identity",
                "medium",
                f"The register status is '{status}', not active.",
                src,
                {"status": status},
            )
        )
    for flag, label in (
        ("inBankruptcy", "in bankruptcy"),
        ("inRestructuring", "in restructuring"),
        ("inLiquidation", "in liquidation"),
    ):
        if c.get(flag):
            out.append(finding("identity", "high", f"The company is {label}.", src, {flag: True}))
    ids = [i for i in ("vatId", "lei") if c.get(i)]
    if ids:
        out.append(
            finding(
                "identity",
                "info",
                "Further identifiers on record: " + ", ".join(f"{i} {c[i]}" for i in ids) + ".",
                src,
                {i: c[i] for i in ids},
            )
        )
    return out


def financials(f: Facts) -> list[Finding]:
    years = (f.get("financials") or {}).get("years") or []
    if not years:
        return [
            finding(
                "financials",
                "medium",
                "No financial statement is on record, so the financial position cannot be assessed.",
                None,
                {"statements": 0},
            )
        ]
    latest = years[0]
    lines, cur, src = latest["lines"], latest["currency"], latest["source"]
    out = [
        finding(
            "financials",
            "info",
            f"Latest statement: {latest['year']}, revenue "
            f"{_money(lines.get('revenue'), cur)}, profit {_money(lines.get('profit'), cur)}, equity "
            f"{_money(lines.get('equity'), cur)}; {len(years)} year(s) on record.",
            src,
            {"year": latest["year"], "currency": cur, **lines},
        )
    ]
    if lines.get("profit") is not None and lines["profit"] < 0:
        losses = sum(1 for y in years[:3] if (y["lines"].get("profit") or 0) < 0)
        out.append(
            finding(
                "financials",
                "high" if losses >= 2 else "medium",
                f"Loss of {_money(lines['profit'], cur)} in {latest['year']}"
                + (f"; {losses} loss-making years among the last three." if losses >= 2 else "."),
                src,
                {"profit": lines["profit"], "lossYearsOfLastThree": losses},
            )
        )
    if lines.get("equity") is not None and lines["equity"] < 0:
        out.append(
            finding(
                "financials",
                "high",
                f"Negative equity of {_money(lines['equity'], cur)}.",
                src,
                {"equity": lines["equity"]},
            )
        )
    growth = (latest.get("ratios") or {}).get("revenue_growth")
    if growth is not None and growth <= -0.2:
        out.append(
            finding(
                "financials",
                "medium",
                f"Revenue fell by {-growth:.0%} against the year before.",
                src,
                {"revenue_growth": growth},
            )
        )
    elif growth is not None and growth >= 0.2:
        out.append(
            finding(
                "financials",
                "info",
                f"Revenue grew by {growth:.0%} against the year before.",
                src,
                {"revenue_growth": growth},
            )
        )
    return out


def credit(f: Facts) -> list[Finding]:
    c = f["credit"]
    src = "regintel credit model " + str(c.get("model_version"))
    if c.get("grade") is None:
        return [
            finding(
                "credit",
                "medium",
                f"No credit grade: {c.get('withheld_reason')}.",
                src,
                {"withheld_reason": c.get("withheld_reason")},
            )
        ]
    severity = {"A+": "info", "A": "info", "B": "info", "C": "low", "D": "medium", "E": "high", "F": "high"}
    out = [
        finding(
            "credit",
            severity.get(c["grade"], "medium"),
            f"Credit grade {c['grade']} (score {c['score']} of 100, confidence {c['confidence']:.0%}).",
            src,
            {"grade": c["grade"], "score": c["score"], "confidence": c["confidence"]},
        )
    ]
    if c.get("caps"):
        out.append(
            finding(
                "credit",
                "high",
                "The grade is capped by: " + ", ".join(c["caps"]) + ".",
                src,
                {"caps": c["caps"]},
            )
        )
    weak = [
        x
        for x in c.get("factors") or []
        if x["available"] and x["points"] is not None and x["points"] < 0.3 * x["weight"]
    ]
    if weak:
        out.append(
            finding(
                "credit",
                "low",
                "Weakest factors: "
                + ", ".join(f"{x['code'].replace('_', ' ')} ({x['points']}/{x['weight']})" for x in weak)
                + ".",
                src,
                {x["code"]: x["points"] for x in weak},
            )
        )
    return out


def risk(f: Facts) -> list[Finding]:
    r = f["risk"]
    src = "regintel risk model " + str(r.get("model_version"))
    level = {"low": "info", "moderate": "low", "high": "medium", "severe": "high"}.get(r["level"], "medium")
    out = [
        finding(
            "risk",
            level,
            f"Risk level {r['level']} (score {r['score']} of 100).",
            src,
            {"score": r["score"], "level": r["level"]},
        )
    ]
    for d in r.get("drivers") or []:
        ev = d["evidence"][0] if d.get("evidence") else {}
        out.append(
            finding(
                "risk",
                "medium" if d["points"] >= 15 else "low",
                f"{d['description']} (+{d['points']} points).",
                ev.get("source") or src,
                {"driver": d["code"], "points": d["points"], "value": ev.get("value")},
            )
        )
    if r.get("missing_inputs"):
        out.append(
            finding(
                "risk",
                "info",
                "Not evaluated for lack of data: "
                + ", ".join(i.replace("_", " ") for i in r["missing_inputs"])
                + ".",
                src,
                {"missing_inputs": r["missing_inputs"]},
            )
        )
    return out


def ownership(f: Facts) -> list[Finding]:
    o = f["ownership"]
    n = o["counts"]
    out = []
    companies = [s for s in o["shareholders"] if s["type"] == "company"]
    persons = sum(1 for s in o["shareholders"] if s["type"] == "person")
    if not n["shareholders"] and not n["beneficialOwners"]:
        out.append(
            finding(
                "ownership",
                "medium",
                "No shareholder or beneficial owner is on record: ownership "
                "must be established from the company itself.",
                None,
                dict(n),
            )
        )
    for s in companies:
        share = f" ({s['sharePct']:g}%)" if s.get("sharePct") is not None else ""
        out.append(
            finding(
                "ownership",
                "info",
                f"Shareholder: {s['name']}{share}" + (f", {s['country']}" if s.get("country") else "") + ".",
                s["source"],
                {"name": s["name"], "country": s.get("country"), "sharePct": s.get("sharePct")},
            )
        )
    if persons:
        out.append(
            finding(
                "ownership",
                "info",
                f"{persons} natural person(s) hold shares.",
                o["shareholders"][0]["source"],
                {"naturalPersonShareholders": persons},
            )
        )
    if n["beneficialOwners"]:
        out.append(
            finding(
                "ownership",
                "info",
                f"{n['beneficialOwners']} beneficial owner(s) declared.",
                o["beneficialOwners"][0]["source"],
                {"beneficialOwners": n["beneficialOwners"]},
            )
        )
    if n["directors"]:
        out.append(
            finding(
                "ownership",
                "info",
                f"{n['directors']} current director(s) or statutory body member(s).",
                o["directors"][0]["source"],
                {"directors": n["directors"]},
            )
        )
    foreign = sorted(
        {s["country"] for s in companies if s.get("country") and s["country"] != f["company"]["country"]}
    )
    if foreign:
        out.append(
            finding(
                "ownership",
                "low",
                "Owned in part from abroad: " + ", ".join(foreign) + ".",
                companies[0]["source"],
                {"countries": foreign},
            )
        )
    return out


def sanctions(f: Facts) -> list[Finding]:
    s = f["sanctions"]
    if not s["screened"]:
        return [
            finding(
                "sanctions",
                "medium",
                "Not screened: no sanctions list is imported on this server.",
                None,
                {"screened": False},
            )
        ]
    lists = ", ".join(f"{v['name']} ({v['version']})" for v in s["lists"])
    if not s["hit_count"]:
        return [
            finding(
                "sanctions",
                "info",
                f"No match at threshold {s['threshold']} against {lists}; the company "
                "and its company owners and officers were screened.",
                "sanctions lists",
                {"hit_count": 0, "threshold": s["threshold"]},
            )
        ]
    out = []
    for subj in s["subjects"]:
        for h in subj["hits"]:
            who = "the company" if subj["subject"] == "company" else f"a {subj['subject']} ({subj['role']})"
            out.append(
                finding(
                    "sanctions",
                    "high",
                    f"Possible match of {who} with '{h['name']}' on {h['list']} "
                    f"(score {h['score']:.2f}): to be reviewed.",
                    h["list"],
                    {"entry": h["id"], "score": h["score"]},
                )
            )
    return out


def nis2(f: Facts) -> list[Finding]:
    n = f["nis2"]
    src = "regintel NIS2 rules " + str(n.get("ruleset_version"))
    cat = n.get("category")
    if n.get("in_scope") is None:
        return [
            finding(
                "nis2",
                "low",
                "NIS2 scope is undecided: possible categories "
                + ", ".join(n.get("possible_categories") or [])
                + ".",
                src,
                {"missing": n.get("missing")},
            )
        ]
    if n["in_scope"]:
        return [
            finding(
                "nis2",
                "low",
                f"Falls under NIS2 as an {cat} entity ({n.get('certainty')}).",
                src,
                {"category": cat, "sectors": n.get("sectors")},
            )
        ]
    return [finding("nis2", "info", f"Outside NIS2 scope ({n.get('certainty')}).", src, {"category": cat})]


INSOLVENCY = {"bankruptcy", "restructuring", "liquidation"}


def events(f: Facts) -> list[Finding]:
    out = []
    for e in f.get("timeline") or []:
        sev = "high" if e["event_type"] in INSOLVENCY else "info"
        out.append(
            finding(
                "events",
                sev,
                f"{e['date']}: {e['title']}.",
                e["source"],
                {"event_type": e["event_type"], "link": e.get("link")},
            )
        )
    if not out:
        out.append(finding("events", "info", "No event on record.", None, {}))
    return out


RULES: dict[str, Callable[[Facts], list[Finding]]] = {
    "identity": identity,
    "financials": financials,
    "credit": credit,
    "risk": risk,
    "ownership": ownership,
    "sanctions": sanctions,
    "nis2": nis2,
    "events": events,
}


def conclusion(findings: list[Finding]) -> dict[str, Any]:
    counts = {s: sum(1 for x in findings if x["severity"] == s) for s in SEVERITIES}
    if counts["high"]:
        verdict, text = "escalate", "Enhanced due diligence is advised: there are high-severity findings."
    elif counts["medium"]:
        verdict, text = "review", "Review the medium-severity findings before relying on this counterparty."
    else:
        verdict, text = "standard", "No finding above low severity: standard due diligence suffices."
    return {"verdict": verdict, "text": text, "counts": counts}


def write(facts: Facts, sections: int | None = None) -> dict[str, Any]:
    """The report: sections in order (the first `sections` of them, or all), each finding numbered, and
    a conclusion over the sections written."""
    names = list(RULES)[:sections] if sections else list(RULES)
    out: list[dict[str, Any]] = []
    n = 0
    for name in names:
        items = RULES[name](facts)
        for item in items:
            n += 1
            item["ref"] = n
        out.append({"id": name, "title": SECTION_TITLES[name], "findings": items})
    every = [x for s in out for x in s["findings"]]
    return {
        "sections": out,
        "conclusion": conclusion(every),
        "ruleset_version": RULESET_VERSION,
        "complete": len(names) == len(RULES),
    }
