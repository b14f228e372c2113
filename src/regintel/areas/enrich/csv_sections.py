"""The main columns each section adds to a job's CSV result (the JSON lines hold the whole section).

Every section adds `<section>Reason` (empty when the section is present) after its own columns, so an
absent section is told apart from a present one whose values are empty."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Data = Mapping[str, Any]


def _credit(d: Data) -> dict[str, Any]:
    return {"creditScore": d["score"], "creditGrade": d["grade"], "creditConfidence": d["confidence"]}


def _risk(d: Data) -> dict[str, Any]:
    return {
        "riskScore": d["score"],
        "riskLevel": d["level"],
        "riskDrivers": " ".join(x["code"] for x in d["drivers"]),
    }


def _sanctions(d: Data) -> dict[str, Any]:
    v = d["value"] or {}
    return {
        "sanctionsStatus": d["status"],
        "sanctionsHits": v.get("hits"),
        "sanctionsConfirmed": v.get("confirmed"),
    }


def _nis2(d: Data) -> dict[str, Any]:
    return {"nis2InScope": d["in_scope"], "nis2Category": d["category"], "nis2Certainty": d["certainty"]}


def _ownership(d: Data) -> dict[str, Any]:
    names = [d["entities"][e]["name"] for e in d["beneficialOwners25"] if e in d["entities"]]
    return {
        "ownerKnown": d["ownerKnown"],
        "beneficialOwners25": "; ".join(names),
        "ownershipTruncated": d["truncated"],
    }


def _compliance(d: Data) -> dict[str, Any]:
    return {
        f"compliance{k[0].upper()}{k[1:]}": d[k]["status"]
        for k in ("sanctions", "beneficialOwnership", "taxReliability", "nis2", "creditGrade", "debtors")
    }


def _financials(d: Data) -> dict[str, Any]:
    lines = d["lines"]
    return {
        "financialsYear": d["year"],
        "financialsCurrency": d["currency"],
        "revenue": lines["revenue"],
        "profit": lines["profit"],
        "totalAssets": lines["total_assets"],
        "equity": lines["equity"],
        "financialsEmployees": d["employees"],
    }


COLUMNS: dict[str, tuple[list[str], Callable[[Data], dict[str, Any]]]] = {
    "credit": (["creditScore", "creditGrade", "creditConfidence"], _credit),
    "risk": (["riskScore", "riskLevel", "riskDrivers"], _risk),
    "sanctions": (["sanctionsStatus", "sanctionsHits", "sanctionsConfirmed"], _sanctions),
    "nis2": (["nis2InScope", "nis2Category", "nis2Certainty"], _nis2),
    "ownership": (["ownerKnown", "beneficialOwners25", "ownershipTruncated"], _ownership),
    "compliance": (
        [
            "complianceSanctions",
            "complianceBeneficialOwnership",
            "complianceTaxReliability",
            "complianceNis2",
            "complianceCreditGrade",
            "complianceDebtors",
        ],
        _compliance,
    ),
    "financials": (
        [
            "financialsYear",
            "financialsCurrency",
            "revenue",
            "profit",
            "totalAssets",
            "equity",
            "financialsEmployees",
        ],
        _financials,
    ),
}


def columns(names: list[str]) -> list[str]:
    return [c for n in names for c in [*COLUMNS[n][0], f"{n}Reason"]]


def cells(answer: Mapping[str, Any], names: list[str]) -> dict[str, Any]:
    """The section columns of one answer line (empty for a line without a company)."""
    out: dict[str, Any] = {}
    for name in names:
        section = (answer.get("sections") or {}).get(name)
        if section is None:
            continue
        if section["present"]:
            out |= COLUMNS[name][1](section["data"])
        else:
            out[f"{name}Reason"] = section["reason"]
    return out
