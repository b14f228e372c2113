"""Compliance rules without I/O: the due-diligence checklist built from a KYC/KYB summary, and the
annual-statement filing deadlines per country (docs/compliance.md cites the laws).

A summary item is a mapping with `status` (a word of the item's own vocabulary, or `unknown`), `reason`
(why it is unknown), `source` and `date`. A check is `passed`, `failed` or `unknown`; an unknown input
never passes a check (it is reported as unknown, never as clean).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

RULES_VERSION = "compliance-dd-1"

# Months after the end of the financial year by which the annual financial statements must be public
# (filed with or published by the register), and the legal basis (docs/compliance.md, "Filing deadlines").
FILING_DEADLINES: dict[str, tuple[int, str]] = {
    "CZ": (
        12,
        "Zákon č. 563/1991 Sb. o účetnictví, § 21a odst. 1: published in the collection of documents "
        "within 30 days of approval, at the latest 12 months after the balance-sheet date",
    ),
    "SK": (
        9,
        "Zákon č. 431/2002 Z.z. o účtovníctve, § 23a: deposited in the register of financial statements "
        "by the income-tax-return deadline (Zákon č. 595/2003 Z.z., § 49: 3 months, extendable by up to "
        "6 months); the latest possible date is taken",
    ),
    "GB": (
        9,
        "Companies Act 2006, s. 442(2)(a): a private company's accounts within 9 months after the end "
        "of the accounting reference period (6 months for a public company)",
    ),
    "NO": (
        7,
        "Regnskapsloven § 8-2: sent to the Register of Company Accounts within one month of approval, "
        "approval within 6 months of the year end (aksjeloven § 5-5): 31 July for a calendar year",
    ),
    "PL": (
        7,
        "Ustawa o rachunkowości, art. 53 and 69: approved within 6 months of the balance-sheet date and "
        "filed within 15 days of approval; rounded up to 7 months",
    ),
}

Item = Mapping[str, Any]


@dataclass(frozen=True)
class RedFlag:
    code: str
    severity: str  # info | warning | critical
    message: str


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    result: str  # passed | failed | unknown
    finding: str
    red_flags: tuple[RedFlag, ...] = ()


def add_months(day: date, months: int) -> date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month, d)
        except ValueError:
            continue
    raise ValueError(day)  # pragma: no cover


def statement_obligation(
    country: str, latest_period_end: date | None, founded_on: date | None, dissolved: bool, today: date
) -> dict[str, Any]:
    """The next annual statement due after the latest one we hold: its period end, deadline and state
    (`filed_on_time` when the latest covers the last due year, `overdue`, `not_due_yet`, or `unknown`)."""
    rule = FILING_DEADLINES.get(country)
    if rule is None:
        return {
            "status": "unknown",
            "reason": f"no filing deadline documented for country {country}",
            "periodEnd": None,
            "deadline": None,
            "legalBasis": None,
        }
    months, basis = rule
    if dissolved:
        return {
            "status": "not_applicable",
            "reason": "the company is dissolved",
            "periodEnd": None,
            "deadline": None,
            "legalBasis": basis,
        }
    if latest_period_end is None:
        if founded_on is None:
            return {
                "status": "unknown",
                "reason": "no statement and no founding date on record",
                "periodEnd": None,
                "deadline": None,
                "legalBasis": basis,
            }
        first_end = date(founded_on.year, 12, 31)
        deadline = add_months(first_end, months)
        return {
            "status": "overdue" if today > deadline else "not_due_yet",
            "reason": "no statement on record; the first financial year is assumed to end on 31 December "
            "of the founding year",
            "periodEnd": first_end.isoformat(),
            "deadline": deadline.isoformat(),
            "legalBasis": basis,
        }
    next_end = date(
        latest_period_end.year + 1,
        latest_period_end.month,
        min(latest_period_end.day, 28) if latest_period_end.month == 2 else latest_period_end.day,
    )
    deadline = add_months(next_end, months)
    return {
        "status": "overdue" if today > deadline else "up_to_date",
        "reason": None,
        "periodEnd": next_end.isoformat(),
        "deadline": deadline.isoformat(),
        "legalBasis": basis,
    }


def _flag(code: str, severity: str, message: str) -> tuple[RedFlag, ...]:
    return (RedFlag(code, severity, message),)


def _unknown(cid: str, title: str, item: Item) -> Check:
    return Check(cid, title, "unknown", item.get("reason") or "no data")


def checklist(s: Mapping[str, Item], obligation: Mapping[str, Any]) -> list[Check]:
    """The due-diligence checklist of a summary (`identity`, `status`, `insolvency`, `sanctions`,
    `beneficialOwnership`, `taxReliability`, `nis2`, `creditGrade`) and the statement obligation."""
    out: list[Check] = []
    st = s["status"]
    if st["status"] == "active":
        out.append(
            Check("registered_active", "Registered and active", "passed", "status active in the register")
        )
    elif st["status"] == "unknown":
        out.append(_unknown("registered_active", "Registered and active", st))
    else:
        out.append(
            Check(
                "registered_active",
                "Registered and active",
                "failed",
                f"status {st['status']}",
                _flag("NOT_ACTIVE", "critical", f"the register says {st['status']}"),
            )
        )
    ins = s["insolvency"]
    active = [k for k in ("bankruptcy", "restructuring", "liquidation") if ins["value"].get(k)]
    if active:
        out.append(
            Check(
                "no_insolvency",
                "No insolvency proceedings",
                "failed",
                "in " + ", ".join(active),
                tuple(
                    RedFlag(k.upper(), "critical" if k != "restructuring" else "warning", f"in {k}")
                    for k in active
                ),
            )
        )
    else:
        out.append(
            Check(
                "no_insolvency",
                "No insolvency proceedings",
                "passed",
                "no bankruptcy, restructuring or liquidation on record",
            )
        )
    sa = s["sanctions"]
    if sa["status"] == "unknown":
        out.append(_unknown("sanctions", "Not sanctioned", sa))
    elif sa["value"]["confirmed"]:
        out.append(
            Check(
                "sanctions",
                "Not sanctioned",
                "failed",
                f"{sa['value']['confirmed']} hit(s) confirmed by an identifier",
                _flag("SANCTIONS_CONFIRMED", "critical", "an identifier matches a list entry"),
            )
        )
    elif sa["value"]["nameOnly"]:
        out.append(
            Check(
                "sanctions",
                "Not sanctioned",
                "unknown",
                f"{sa['value']['nameOnly']} name-only candidate hit(s) to review",
                _flag("SANCTIONS_NAME_MATCH", "warning", "a name resembles a list entry; review it"),
            )
        )
    else:
        out.append(Check("sanctions", "Not sanctioned", "passed", "no hit on the imported lists"))
    bo = s["beneficialOwnership"]
    if bo["status"] == "known":
        out.append(
            Check(
                "beneficial_owner",
                "Beneficial owner identified",
                "passed",
                "at least one natural person holds more than 25%",
            )
        )
    else:
        out.append(
            Check(
                "beneficial_owner",
                "Beneficial owner identified",
                "unknown",
                bo.get("reason") or "",
                _flag("UBO_UNKNOWN", "warning", bo.get("reason") or "no beneficial owner on record"),
            )
        )
    tax = s["taxReliability"]
    if tax["status"] == "reliable":
        out.append(Check("tax_reliability", "Reliable VAT payer", "passed", "reliable VAT payer"))
    elif tax["status"] == "unreliable":
        out.append(
            Check(
                "tax_reliability",
                "Reliable VAT payer",
                "failed",
                "unreliable VAT payer",
                _flag("UNRELIABLE_VAT_PAYER", "critical", "listed as an unreliable VAT payer"),
            )
        )
    else:
        out.append(_unknown("tax_reliability", "Reliable VAT payer", tax))
    grade = s["creditGrade"]
    if grade["status"] == "unknown":
        out.append(_unknown("credit_grade", "Credit grade C or better", grade))
    elif grade["value"] in ("A+", "A", "B", "C"):
        out.append(Check("credit_grade", "Credit grade C or better", "passed", f"grade {grade['value']}"))
    else:
        out.append(
            Check(
                "credit_grade",
                "Credit grade C or better",
                "failed",
                f"grade {grade['value']}",
                _flag(
                    "WEAK_CREDIT",
                    "critical" if grade["value"] == "F" else "warning",
                    f"credit grade {grade['value']}",
                ),
            )
        )
    ob = obligation
    if ob["status"] == "overdue":
        out.append(
            Check(
                "annual_statement",
                "Annual statement filed",
                "failed",
                f"the statement for the year ending {ob['periodEnd']} was due by {ob['deadline']}",
                _flag("STATEMENT_OVERDUE", "warning", "annual statement overdue"),
            )
        )
    elif ob["status"] in ("up_to_date", "not_due_yet", "not_applicable"):
        out.append(
            Check(
                "annual_statement",
                "Annual statement filed",
                "passed",
                ob.get("reason") or f"next due by {ob['deadline']}",
            )
        )
    else:
        out.append(Check("annual_statement", "Annual statement filed", "unknown", ob.get("reason") or ""))
    return out


def overall(checks: list[Check]) -> str:
    """`failed` when a check failed, `review` when one is unknown, else `passed`."""
    results = {c.result for c in checks}
    return "failed" if "failed" in results else "review" if "unknown" in results else "passed"
