"""The pure compliance rules: filing deadlines and the due-diligence checklist."""

from __future__ import annotations

from datetime import date

import pytest

from regintel.domain import compliance as rules

TODAY = date(2026, 11, 25)


def it(status, value=None, reason=None):
    return {"status": status, "value": value, "source": "s", "date": "2026-01-01", "reason": reason}


def summary(**over):
    base = {
        "status": it("active", "active"),
        "insolvency": it("none", {"bankruptcy": False, "restructuring": False, "liquidation": False}),
        "sanctions": it("clear", {"confirmed": 0, "nameOnly": 0}),
        "beneficialOwnership": it("known"),
        "taxReliability": it("reliable"),
        "creditGrade": it("graded", "B"),
        "nis2": it("out_of_scope"),
    }
    return base | over


UP = {"status": "up_to_date", "reason": None, "periodEnd": "2026-12-31", "deadline": "2027-12-31"}


@pytest.mark.parametrize(
    "day, months, expected",
    [
        (date(2025, 12, 31), 9, date(2026, 9, 30)),
        (date(2025, 12, 31), 12, date(2026, 12, 31)),
        (date(2024, 8, 31), 6, date(2025, 2, 28)),
        (date(2023, 12, 31), 2, date(2024, 2, 29)),
    ],
)
def test_add_months(day, months, expected):
    assert rules.add_months(day, months) == expected


@pytest.mark.parametrize(
    "country, latest, status, deadline",
    [
        ("SK", date(2025, 12, 31), "up_to_date", "2027-09-30"),
        ("SK", date(2024, 12, 31), "overdue", "2026-09-30"),
        ("SK", date(2023, 12, 31), "overdue", "2025-09-30"),
        ("CZ", date(2024, 12, 31), "up_to_date", "2026-12-31"),
        ("CZ", date(2024, 11, 30), "up_to_date", "2026-11-30"),  # the deadline day itself is still in time
        ("GB", date(2025, 3, 31), "up_to_date", "2026-12-31"),
        ("GB", date(2024, 3, 31), "overdue", "2025-12-31"),
        ("NO", date(2024, 12, 31), "overdue", "2026-07-31"),
        ("PL", date(2023, 12, 31), "overdue", "2025-07-31"),
    ],
)
def test_statement_deadlines(country, latest, status, deadline):
    out = rules.statement_obligation(country, latest, None, False, TODAY)
    assert (out["status"], out["deadline"]) == (status, deadline) and out["legalBasis"]


def test_statement_edge_cases():
    assert rules.statement_obligation("DE", date(2024, 12, 31), None, False, TODAY)["status"] == "unknown"
    assert rules.statement_obligation("SK", None, None, False, TODAY)["status"] == "unknown"
    assert rules.statement_obligation("SK", None, None, True, TODAY)["status"] == "not_applicable"
    young = rules.statement_obligation("SK", None, date(2026, 3, 1), False, TODAY)
    assert (young["status"], young["deadline"]) == ("not_due_yet", "2027-09-30")
    old = rules.statement_obligation("CZ", None, date(2010, 3, 1), False, TODAY)
    assert (old["status"], old["periodEnd"]) == ("overdue", "2010-12-31")


def test_clean_company_passes():
    checks = rules.checklist(summary(), UP)
    assert {c.result for c in checks} == {"passed"} and rules.overall(checks) == "passed"


def test_unknown_never_passes():
    checks = rules.checklist(
        summary(
            taxReliability=it("unknown", reason="no register"),
            beneficialOwnership=it("unknown", reason="no owner data"),
        ),
        UP,
    )
    by_id = {c.id: c for c in checks}
    assert by_id["tax_reliability"].result == "unknown" and by_id["tax_reliability"].finding == "no register"
    assert by_id["beneficial_owner"].red_flags[0].code == "UBO_UNKNOWN"
    assert rules.overall(checks) == "review"


@pytest.mark.parametrize(
    "over, check, flag, severity",
    [
        ({"status": it("dissolved", "dissolved")}, "registered_active", "NOT_ACTIVE", "critical"),
        (
            {
                "insolvency": it(
                    "proceedings", {"bankruptcy": False, "restructuring": True, "liquidation": False}
                )
            },
            "no_insolvency",
            "RESTRUCTURING",
            "warning",
        ),
        (
            {"sanctions": it("confirmed_hit", {"confirmed": 1, "nameOnly": 0})},
            "sanctions",
            "SANCTIONS_CONFIRMED",
            "critical",
        ),
        ({"taxReliability": it("unreliable")}, "tax_reliability", "UNRELIABLE_VAT_PAYER", "critical"),
        ({"creditGrade": it("graded", "D")}, "credit_grade", "WEAK_CREDIT", "warning"),
        ({"creditGrade": it("graded", "F")}, "credit_grade", "WEAK_CREDIT", "critical"),
    ],
)
def test_failures_raise_flags(over, check, flag, severity):
    checks = rules.checklist(summary(**over), UP)
    failed = next(c for c in checks if c.id == check)
    assert failed.result == "failed" and (failed.red_flags[0].code, failed.red_flags[0].severity) == (
        flag,
        severity,
    )
    assert rules.overall(checks) == "failed"


def test_name_only_hit_is_for_review_and_overdue_statement_fails():
    checks = rules.checklist(
        summary(sanctions=it("name_match", {"confirmed": 0, "nameOnly": 2})),
        {"status": "overdue", "periodEnd": "2024-12-31", "deadline": "2025-09-30"},
    )
    by_id = {c.id: c for c in checks}
    assert by_id["sanctions"].result == "unknown" and by_id["annual_statement"].result == "failed"
