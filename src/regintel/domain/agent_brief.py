"""The facts an agent reads first about a company: flags with a severity and a one-line headline.

Pure: the company record and its financial history (as the API renders them) in, plain data out.
A flag says what the data shows; a missing figure raises no flag (it is reported as missing, never
guessed)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

SEVERITIES = ("info", "warning", "critical")  # DESIGN.md section 3, as monitoring events

NACE_LEVELS = ((4, "{0}{1}.{2}{3}"), (3, "{0}{1}.{2}"), (2, "{0}{1}"))


def flag(code: str, severity: str, text: str, source: str | None = None) -> dict[str, Any]:
    assert severity in SEVERITIES
    return {"code": code, "severity": severity, "text": text, "source": source}


def flags(record: Mapping[str, Any], history: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Flags of the current snapshot (spec 2.2: bankruptcy and restructuring exclude each other;
    liquidation is a separate, ordinary way to close) and of the latest financial statements."""
    out: list[dict[str, Any]] = []
    if record.get("inBankruptcy"):
        out.append(flag("IN_BANKRUPTCY", "critical", "The company is in bankruptcy."))
    if record.get("inRestructuring"):
        out.append(flag("IN_RESTRUCTURING", "critical", "The company is in restructuring."))
    if record.get("inLiquidation"):
        out.append(
            flag(
                "IN_LIQUIDATION",
                "warning",
                "The company is in liquidation (a normal way to close a company, not an insolvency).",
            )
        )
    status = record.get("status")
    if status == "dissolved":
        when = record.get("dissolvedOn")
        out.append(
            flag("DISSOLVED", "critical", "The company is dissolved" + (f" since {when}." if when else "."))
        )
    elif status == "inactive":
        out.append(flag("INACTIVE", "warning", "The register lists the company as inactive."))
    if history:
        out += _financial_flags(history)
    return out


def _financial_flags(history: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    latest = history[0]
    year, source = latest.get("year"), latest.get("source")
    out: list[dict[str, Any]] = []
    equity, profit = _num(latest.get("equity")), _num(latest.get("profit"))
    if equity is not None and equity < 0:
        out.append(flag("NEGATIVE_EQUITY", "warning", f"Negative equity in {year}.", source))
    if profit is not None and profit < 0:
        out.append(flag("LOSS", "info", f"Loss in {year}.", source))
    change = revenue_change(history)
    if change is not None and change <= -25:
        out.append(flag("REVENUE_DROP", "warning", f"Revenue fell {abs(change):.0f}% in {year}.", source))
    return out


def revenue_change(history: Sequence[Mapping[str, Any]]) -> float | None:
    """Revenue change in percent between the two latest consecutive years in one currency, or None."""
    if len(history) < 2:
        return None
    now, before = history[0], history[1]
    if now.get("year") != (before.get("year") or 0) + 1 or now.get("currency") != before.get("currency"):
        return None
    a, b = _num(now.get("revenue")), _num(before.get("revenue"))
    if a is None or b is None or b <= 0:
        return None
    change = (float(a) - float(b)) / float(b) * 100
    return round(change, 1) if math.isfinite(change) else None


def nace_code_candidates(code: str | None) -> list[str]:
    """Codes of the NACE code list to label a stored activity code with, most precise first
    (`62010` and `62.01Z` both give `62.01`, `62.0`, `62`)."""
    digits = "".join(ch for ch in (code or "") if ch.isdigit())
    return [fmt.format(*digits) for n, fmt in NACE_LEVELS if len(digits) >= n]


def headline(
    record: Mapping[str, Any], history: Sequence[Mapping[str, Any]], found_flags: Sequence[Mapping[str, Any]]
) -> str:
    """One sentence an agent can quote: who, where, what state, latest figures."""
    parts = [f"{record['name']} ({record['country']} {record['nationalId']})"]
    legal = (record.get("legalForm") or {}).get("name")
    city = (record.get("address") or {}).get("city")
    desc = ", ".join(p for p in (legal, city) if p)
    status = record.get("status") or "unknown status"
    worst = [f["code"].lower().replace("_", " ") for f in found_flags if f["severity"] == "critical"]
    state = status + (f", {', '.join(worst)}" if worst else "")
    text = parts[0] + (f", {desc}" if desc else "") + f": {state}"
    if record.get("foundedOn"):
        text += f", founded {record['foundedOn']}"
    if history:
        latest = history[0]
        figures = [
            f"{label} {_money(latest.get(key))} {latest.get('currency')}"
            for key, label in (("revenue", "revenue"), ("profit", "profit"))
            if _num(latest.get(key)) is not None
        ]
        if figures:
            text += f"; {latest.get('year')}: " + ", ".join(figures)
    return text + "."


def _num(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        return None
    return number if number.is_finite() else None


def _money(value: Any) -> str:
    number = _num(value)
    return f"{number:,.0f}" if number is not None else "?"
