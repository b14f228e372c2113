"""The rule-based due-diligence writer, tested directly on snapshots."""

from __future__ import annotations

import copy
from typing import Any

from regintel.domain import due_diligence as dd

SRC = [
    {
        "id": "sk_rpo",
        "name": "RPO",
        "publisher": "ŠÚ SR",
        "licence": "CC BY 4.0",
        "attribution": None,
        "url": None,
        "retrievedAt": None,
    }
]


def snapshot(**over: Any) -> dict[str, Any]:
    facts = {
        "generatedAt": "2026-11-25T10:00:00Z",
        "company": {
            "country": "SK",
            "nationalId": "35757442",
            "name": "Ďalšia firma s.r.o.",
            "legalForm": {"code": "112", "name": "s.r.o."},
            "status": "active",
            "foundedOn": "2005-03-01",
            "dissolvedOn": None,
            "address": {"city": "Žilina"},
            "vatId": None,
            "lei": None,
            "inBankruptcy": False,
            "inRestructuring": False,
            "inLiquidation": False,
            "sources": SRC,
        },
        "financials": {
            "years": [
                {
                    "year": 2023,
                    "currency": "EUR",
                    "source": "sk_rpo",
                    "lines": {"revenue": 1000.0, "profit": 10.0, "equity": 500.0},
                    "ratios": {"revenue_growth": 0.05},
                }
            ]
        },
        "credit": {
            "grade": "A",
            "score": 80.0,
            "confidence": 0.9,
            "caps": [],
            "factors": [],
            "model_version": "credit-x",
            "withheld_reason": None,
        },
        "risk": {"score": 0, "level": "low", "drivers": [], "missing_inputs": [], "model_version": "risk-x"},
        "ownership": {
            "directors": [],
            "shareholders": [],
            "beneficialOwners": [],
            "holdings": [],
            "counts": {"directors": 0, "shareholders": 0, "beneficialOwners": 0, "holdings": 0},
        },
        "sanctions": {
            "screened": True,
            "hit_count": 0,
            "threshold": 0.7,
            "subjects": [],
            "lists": [{"name": "EU FSF", "version": "2026-11-01"}],
        },
        "nis2": {
            "category": "out-of-scope",
            "certainty": "certain",
            "in_scope": False,
            "ruleset_version": "n",
        },
        "timeline": [],
        "sources": SRC,
    }
    for path, value in over.items():
        section, key = path.split("__")
        facts[section][key] = value
    return facts


def statements(report: dict[str, Any]) -> list[str]:
    return [f["statement"] for s in report["sections"] for f in s["findings"]]


def test_a_clean_company_needs_standard_due_diligence_only():
    facts = snapshot(
        ownership__shareholders=[
            {"type": "company", "name": "Mother a.s.", "country": "SK", "sharePct": 100.0, "source": "sk_rpo"}
        ],
        ownership__counts={"directors": 0, "shareholders": 1, "beneficialOwners": 0, "holdings": 0},
    )
    report = dd.write(facts)
    assert report["conclusion"]["verdict"] == "standard" and report["complete"]
    assert report["conclusion"]["counts"]["high"] == report["conclusion"]["counts"]["medium"] == 0
    assert "Shareholder: Mother a.s. (100%), SK." in statements(report)
    assert all(f["section"] == s["id"] for s in report["sections"] for f in s["findings"])


def test_insolvency_and_negative_equity_escalate():
    facts = snapshot(company__inBankruptcy=True)
    facts["financials"]["years"][0]["lines"] = {"revenue": 1000.0, "profit": -5.0, "equity": -100.0}
    report = dd.write(facts)
    assert report["conclusion"]["verdict"] == "escalate"
    high = [f for s in report["sections"] for f in s["findings"] if f["severity"] == "high"]
    assert {f["statement"] for f in high} == {"The company is in bankruptcy.", "Negative equity of -100 EUR."}
    assert next(f for f in high if "equity" in f["statement"])["evidence"] == {"equity": -100.0}


def test_missing_data_is_said_never_taken_as_clean():
    facts = snapshot(
        sanctions__screened=False, credit__grade=None, credit__withheld_reason="no financial statement"
    )
    facts["financials"]["years"] = []
    report = dd.write(facts)
    said = statements(report)
    assert "Not screened: no sanctions list is imported on this server." in said
    assert "No financial statement is on record, so the financial position cannot be assessed." in said
    assert "No credit grade: no financial statement." in said
    assert (
        "No shareholder or beneficial owner is on record: ownership must be established from the company "
        "itself." in said
    )
    assert report["conclusion"]["verdict"] == "review"


def test_natural_persons_are_counted_never_named():
    facts = snapshot()
    facts["ownership"]["shareholders"] = [
        {"type": "person", "name": "Ján Ďurčík", "sharePct": 50.0, "source": "sk_rpo"}
    ]
    facts["ownership"]["counts"]["shareholders"] = 1
    said = " ".join(statements(dd.write(facts)))
    assert "Ďurčík" not in said and "1 natural person(s) hold shares." in said


def test_sanction_hits_are_high_findings_with_the_entry():
    facts = snapshot(
        sanctions__hit_count=1,
        sanctions__subjects=[
            {
                "subject": "company",
                "role": None,
                "name": "X",
                "hits": [{"name": "X Ltd", "score": 0.93, "list": "EU FSF", "id": "eu_fsf:1"}],
            }
        ],
    )
    (finding,) = next(s for s in dd.write(facts)["sections"] if s["id"] == "sanctions")["findings"]
    assert finding["severity"] == "high" and finding["evidence"] == {"entry": "eu_fsf:1", "score": 0.93}


def test_preview_is_the_first_sections_and_refs_are_stable():
    facts = snapshot()
    full, preview = dd.write(copy.deepcopy(facts)), dd.write(copy.deepcopy(facts), dd.PREVIEW_SECTIONS)
    assert [s["id"] for s in preview["sections"]] == list(dd.SECTION_TITLES)[: dd.PREVIEW_SECTIONS]
    assert preview["sections"] == full["sections"][: dd.PREVIEW_SECTIONS] and not preview["complete"]
    assert dd.write(copy.deepcopy(facts)) == full  # deterministic
