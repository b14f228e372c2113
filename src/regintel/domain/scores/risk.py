"""The risk score `risk-2026.12.1` (docs/scores.md): 0 (no sign of risk) to 100, the sum of the points of
the drivers that apply, capped at 100. Each driver is a named, dated fact; none is guessed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from regintel.domain.scores.credit import is_stale, latest_statement
from regintel.domain.scores.facts import CompanyFacts, Evidence
from regintel.domain.scores.figures import Statement, latest_per_year, ratios

MODEL_VERSION = "risk-2026.12.1"
POINTS = {
    "in_bankruptcy": 60,
    "dissolved": 50,
    "sanctioned": 60,
    "sanctions_name_match": 10,
    "in_liquidation": 40,
    "in_restructuring": 40,
    "recent_insolvency": 15,
    "negative_equity": 20,
    "high_debt_ratio": 10,
    "loss": 10,
    "repeated_losses": 5,
    "revenue_decline": 10,
    "young_company": 10,
    "no_recent_statement": 10,
    "payment_defaults": 20,
    "tax_unreliable": 15,
}
LEVELS = (("severe", 50), ("high", 30), ("moderate", 15), ("low", 0))
DEBT_RATIO_HIGH = 0.9
REVENUE_DECLINE = -0.20
YOUNG_YEARS = 2.0
RECENT_INSOLVENCY_YEARS = 5.0
# Inputs whose absence is reported: the drivers they would feed are not evaluated.
UNKNOWN = {
    "sanctions_hits": "sanctions_screening",
    "tax_reliable": "tax_reliability_lists",
    "payment_defaults": "debtor_lists",
}


@dataclass(frozen=True)
class Driver:
    code: str
    points: int
    evidence: tuple[Evidence, ...]


@dataclass(frozen=True)
class RiskScore:
    score: int
    level: str
    drivers: tuple[Driver, ...]
    checked: tuple[str, ...]  # every driver evaluated (those that apply are in `drivers`)
    missing_inputs: tuple[str, ...]
    confidence: float
    as_of: date
    model_version: str = MODEL_VERSION


def level_of(score: int) -> str:
    return next(name for name, floor in LEVELS if score >= floor)


def _register(f: CompanyFacts, as_of: date) -> list[Driver]:
    out = []
    for code, on in (
        ("in_bankruptcy", f.in_bankruptcy),
        ("dissolved", f.status == "dissolved"),
        ("in_liquidation", f.in_liquidation),
        ("in_restructuring", f.in_restructuring),
    ):
        if on:
            out.append(
                Driver(
                    code,
                    POINTS[code],
                    (Evidence(code, True, f.dissolved_on if code == "dissolved" else None, f.source),),
                )
            )
    recent = [
        e
        for e in f.events
        if e.kind in ("bankruptcy", "restructuring")
        and (as_of - e.on).days / 365.25 < RECENT_INSOLVENCY_YEARS
    ]
    if recent and not (f.in_bankruptcy or f.in_restructuring):
        last = max(recent, key=lambda e: e.on)
        out.append(
            Driver(
                "recent_insolvency",
                POINTS["recent_insolvency"],
                (Evidence(f"{last.kind}_{last.phase}", last.on.isoformat(), last.on, last.source),),
            )
        )
    if f.founded_on is not None and (as_of - f.founded_on).days / 365.25 < YOUNG_YEARS:
        out.append(
            Driver(
                "young_company",
                POINTS["young_company"],
                (Evidence("founded_on", f.founded_on.isoformat(), f.founded_on, f.source),),
            )
        )
    if f.sanctions_hits or (f.sanctions_hits == 0 and f.sanctions_name_matches):
        code = "sanctioned" if f.sanctions_hits else "sanctions_name_match"
        ev = f.sanctions_evidence or (Evidence("confirmed_hits", f.sanctions_hits, None, None),)
        out.append(Driver(code, POINTS[code], ev))
    if f.payment_defaults:
        out.append(
            Driver(
                "payment_defaults",
                POINTS["payment_defaults"],
                f.payment_evidence or (Evidence("payment_defaults", f.payment_defaults, None, None),),
            )
        )
    if f.tax_reliable is False:
        out.append(
            Driver(
                "tax_unreliable",
                POINTS["tax_unreliable"],
                f.tax_evidence or (Evidence("tax_reliable", False, None, None),),
            )
        )
    return out


def _financial(statements: list[Statement], as_of: date) -> list[Driver]:
    s = latest_statement(statements, as_of)
    if s is None or is_stale(s, as_of):
        ev = (
            ()
            if s is None
            else (Evidence("latest_period_end", s.period_end.isoformat(), s.period_end, s.source),)
        )
        return [Driver("no_recent_statement", POINTS["no_recent_statement"], ev)]
    out = []
    if s.equity is not None and s.equity < 0:
        out.append(
            Driver(
                "negative_equity",
                POINTS["negative_equity"],
                (Evidence("equity", float(s.equity), s.period_end, s.source),),
            )
        )
    else:
        r = ratios(s)
        if r.debt_ratio is not None and r.debt_ratio > DEBT_RATIO_HIGH:
            out.append(
                Driver(
                    "high_debt_ratio",
                    POINTS["high_debt_ratio"],
                    (Evidence("debt_ratio", round(r.debt_ratio, 4), s.period_end, s.source),),
                )
            )
    years = [y for y in latest_per_year(statements) if y.period_end <= s.period_end]
    if s.profit is not None and s.profit < 0:
        out.append(
            Driver("loss", POINTS["loss"], (Evidence("profit", float(s.profit), s.period_end, s.source),))
        )
        prev = years[-2] if len(years) >= 2 else None
        if prev is not None and prev.year == s.year - 1 and prev.profit is not None and prev.profit < 0:
            out.append(
                Driver(
                    "repeated_losses",
                    POINTS["repeated_losses"],
                    (Evidence("profit", float(prev.profit), prev.period_end, prev.source),),
                )
            )
    growth = ratios(s, years[-2]).revenue_growth if len(years) >= 2 else None
    if growth is not None and growth < REVENUE_DECLINE:
        out.append(
            Driver(
                "revenue_decline",
                POINTS["revenue_decline"],
                (Evidence("revenue_growth", round(growth, 4), s.period_end, s.source),),
            )
        )
    return out


def risk_score(facts: CompanyFacts, statements: list[Statement], as_of: date) -> RiskScore:
    drivers = _register(facts, as_of) + _financial(statements, as_of)
    missing = tuple(name for attr, name in UNKNOWN.items() if getattr(facts, attr) is None)
    checked = tuple(
        c
        for c in POINTS
        if not (
            (c in ("sanctioned", "sanctions_name_match") and facts.sanctions_hits is None)
            or (c == "tax_unreliable" and facts.tax_reliable is None)
            or (c == "payment_defaults" and facts.payment_defaults is None)
        )
    )
    unknown_points = sum(POINTS[c] for c in POINTS if c not in checked)
    confidence = 1.0 - unknown_points / sum(POINTS.values())
    if latest_statement(statements, as_of) is None:
        missing += ("statement",)
        confidence *= 0.6
    score = min(100, sum(d.points for d in drivers))
    return RiskScore(score, level_of(score), tuple(drivers), checked, missing, round(confidence, 2), as_of)
