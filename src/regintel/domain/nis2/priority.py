"""NIS2 priority (spec 2.7: 0-100 with tier hot, warm, cool or cold): how urgently an entity needs to act
or be approached about NIS2. A transparent sum of factors, each reported with its points and inputs:

- scope (up to 45): essential 45, important 32; out of scope but possibly in scope 12; scaled by the
  certainty (certain 1.0, likely 0.8, possible 0.5);
- size (up to 20): large 20, medium 14, small 6, micro 0 (the estimated class);
- sector criticality (up to 20): Annex I 20, Annex II 12, halved when the NACE match is only possible;
  0 when the entity is certainly out of scope;
- recent changes (up to 15): 3 points per register change in the last 180 days;
- posture findings (up to 15): the stored passive security posture (docs/security-posture.md), 15 points
  times the share of the 100 posture points lost (a score of 40 gives 9); 0 when no domain could be
  scored (every check refused or failed) and "not assessed" when no check is stored; 0 when the entity
  is certainly out of scope (a weak posture makes NIS2 duties urgent only for an entity that has them).

The sum is capped at 100.

Tiers: hot >= 70, warm >= 45, cool >= 20, cold below. A dissolved entity scores 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.domain.nis2.scope import CERTAIN, ESSENTIAL, IMPORTANT, LIKELY, OUT, Assessment

PRIORITY_VERSION = "nis2-priority-2026.12.1"
POSTURE_MAX = 15
TIERS = ((70, "hot"), (45, "warm"), (20, "cool"), (0, "cold"))
_CERTAINTY = {CERTAIN: 1.0, LIKELY: 0.8}
_SIZE = {"large": 20, "medium": 14, "small": 6, "micro": 0}


def tier(score: int) -> str:
    return next(name for floor, name in TIERS if score >= floor)


def posture_factor(posture: Mapping[str, Any] | None, in_scope_possible: bool) -> dict[str, Any]:
    """`posture`: the stored summary (`score` 0-100 or None, `findings`, `by_severity`, `checked_at`), None
    when no check is stored."""
    if posture is None:
        return {
            "factor": "posture_findings",
            "points": 0,
            "max": POSTURE_MAX,
            "inputs": {"assessed": False},
            "note": "no passive security check is stored for the company's domains",
        }
    inputs = {
        "assessed": True,
        "score": posture.get("score"),
        "findings": posture.get("findings"),
        "by_severity": posture.get("by_severity"),
        "checked_at": posture.get("checked_at"),
    }
    if posture.get("score") is None:
        return {
            "factor": "posture_findings",
            "points": 0,
            "max": POSTURE_MAX,
            "inputs": inputs,
            "note": "no domain could be scored (checks refused or failed)",
        }
    points = round(POSTURE_MAX * (100 - int(posture["score"])) / 100) if in_scope_possible else 0
    out = {"factor": "posture_findings", "points": points, "max": POSTURE_MAX, "inputs": inputs}
    if not in_scope_possible:
        out["note"] = "the entity is certainly out of scope: its posture does not weigh"
    return out


def priority(
    a: Assessment, recent_changes: int, dissolved: bool, posture: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    factors: list[dict[str, Any]] = []
    if a.category == ESSENTIAL:
        base = 45
    elif a.category == IMPORTANT:
        base = 32
    else:
        base = 12 if any(c != OUT for c in a.possible_categories) else 0
    scope = round(base * _CERTAINTY.get(a.certainty, 0.5))
    factors.append(
        {
            "factor": "scope",
            "points": scope,
            "max": 45,
            "inputs": {
                "category": a.category,
                "certainty": a.certainty,
                "possible_categories": a.possible_categories,
            },
        }
    )
    size = _SIZE[a.size["class"]]
    factors.append({"factor": "size", "points": size, "max": 20, "inputs": {"class": a.size["class"]}})
    # A sector only weighs while the entity can be in scope at all.
    annexes = [(b.get("annex"), b["match"]) for b in a.bases if b.get("annex")] if base else []
    sector = 0
    for annex, match in annexes:
        points = 20 if annex == "I" else 12
        sector = max(sector, points if match != "possible" else points // 2)
    factors.append(
        {
            "factor": "sector_criticality",
            "points": sector,
            "max": 20,
            "inputs": {"annexes": sorted({x for x, _ in annexes})},
        }
    )
    changes = min(15, 3 * recent_changes)
    factors.append(
        {
            "factor": "recent_changes",
            "points": changes,
            "max": 15,
            "inputs": {"changes_last_180_days": recent_changes},
        }
    )
    factors.append(posture_factor(posture, base > 0))
    score = 0 if dissolved else min(100, sum(f["points"] for f in factors))
    return {
        "score": score,
        "tier": tier(score),
        "factors": factors,
        "version": PRIORITY_VERSION,
        "dissolved": dissolved,
    }
