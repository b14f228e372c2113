"""The credit score `credit-2026.12.1` (docs/scores.md): ten weighted factors, each a step function of
its inputs, averaged over the factors whose inputs exist, then capped by knock-out states.

A factor whose inputs do not exist is left out of the average and listed in `missing_inputs`; the
weight it would have had lowers `confidence`. It is never counted as good. Without a balance sheet
(financial strength) the score is withheld (only a knock-out state grades a company then), because age,
size, a clean register and at most a profit figure say little about the ability to pay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from regintel.domain.scores.bands import Bands
from regintel.domain.scores.facts import CompanyFacts, Evidence
from regintel.domain.scores.figures import Z2_DISTRESS, Z2_SAFE, Statement, altman_z2, ratios, z2_missing

MODEL_VERSION = "credit-2026.12.1"
WEIGHTS = {
    "financial_strength": 20,
    "profitability": 15,
    "liquidity": 10,
    "payment_discipline": 10,
    "age": 10,
    "size": 5,
    "legal_events": 10,
    "insolvency": 10,
    "sanctions": 5,
    "tax_reliability": 5,
}
GRADES = (("A+", 90.0), ("A", 80.0), ("B", 70.0), ("C", 60.0), ("D", 50.0), ("E", 35.0), ("F", 0.0))
# Knock-out states cap the score whatever the other factors say (their grade in brackets).
CAPS = {
    "in_bankruptcy": 15.0,
    "dissolved": 15.0,
    "sanctioned": 15.0,
    "in_liquidation": 30.0,
    "in_restructuring": 45.0,
}
STALE_MONTHS = 30  # a latest statement whose period ended longer ago than this lowers confidence
STALE_CONFIDENCE = 0.75
WITHHELD = (
    "no financial statement with a balance sheet (equity and total assets) on record: age, size and a "
    "clean register alone do not grade a company"
)

EQUITY_RATIO = Bands((0.0, 0.10, 0.20, 0.35, 0.50), (0.0, 0.25, 0.5, 0.75, 0.9, 1.0))
Z2_ZONES = Bands((Z2_DISTRESS, Z2_SAFE), (0.0, 0.5, 1.0))
RETURN_ON_ASSETS = Bands((-0.10, 0.0, 0.02, 0.05, 0.10), (0.0, 0.2, 0.5, 0.7, 0.85, 1.0))
NET_MARGIN = Bands((-0.05, 0.0, 0.02, 0.05, 0.10), (0.0, 0.2, 0.5, 0.7, 0.85, 1.0))
CURRENT_RATIO = Bands((0.8, 1.0, 1.5, 2.0), (0.0, 0.3, 0.6, 0.85, 1.0))
AGE_YEARS = Bands((1.0, 3.0, 5.0, 10.0, 20.0), (0.1, 0.3, 0.5, 0.7, 0.9, 1.0))
SIZE = {"micro": 0.4, "small": 0.6, "medium": 0.8, "large": 1.0}
PAYMENT_DEFAULTS = {0: 1.0, 1: 0.3}  # two or more: 0
SANCTIONS_NAME_MATCH = 0.5  # no confirmed hit, but name matches nobody has reviewed
INSOLVENCY_HISTORY = Bands((5.0, 10.0), (0.4, 0.7, 1.0))  # years since the last insolvency ended


@dataclass(frozen=True)
class Factor:
    code: str
    weight: int
    value: float | str | None  # the factor's main input, as the bands read it
    fraction: float | None  # share of the weight earned, None when the inputs are missing
    evidence: tuple[Evidence, ...] = ()
    missing: tuple[str, ...] = ()
    note: str = ""

    @property
    def points(self) -> float | None:
        return None if self.fraction is None else round(self.fraction * self.weight, 2)


@dataclass(frozen=True)
class CreditScore:
    score: float | None
    grade: str | None
    factors: tuple[Factor, ...]
    confidence: float
    missing_inputs: tuple[str, ...]
    caps: tuple[str, ...]  # knock-out states that applied
    withheld_reason: str | None
    statement: Statement | None
    as_of: date
    model_version: str = MODEL_VERSION


def grade_of(score: float) -> str:
    return next(g for g, floor in GRADES if score >= floor)


def _stmt_evidence(s: Statement, *names: str) -> tuple[Evidence, ...]:
    return tuple(
        Evidence(n, float(v) if v is not None else None, s.period_end, s.source)
        for n in names
        if (v := getattr(s, n)) is not None
    )


def financial_strength(s: Statement | None) -> Factor:
    w = WEIGHTS["financial_strength"]
    if s is None:
        return Factor("financial_strength", w, None, None, missing=("statement",))
    r = ratios(s)
    if r.equity_ratio is None:
        return Factor("financial_strength", w, None, None, missing=("equity", "total_assets"))
    parts = [EQUITY_RATIO.fraction(r.equity_ratio)]
    z2 = altman_z2(s)
    note = "equity ratio"
    if z2 is not None:
        parts.append(Z2_ZONES.fraction(z2))
        note = "mean of the equity-ratio band and the Altman Z'' zone"
    ev = _stmt_evidence(s, "equity", "total_assets", "liabilities")
    if z2 is not None:
        ev += (Evidence("altman_z2", round(z2, 3), s.period_end, s.source),)
    return Factor(
        "financial_strength",
        w,
        round(r.equity_ratio, 4),
        sum(parts) / len(parts),
        ev,
        tuple(f"altman_z2.{m}" for m in z2_missing(s)),
        note,
    )


def profitability(s: Statement | None) -> Factor:
    w = WEIGHTS["profitability"]
    if s is None:
        return Factor("profitability", w, None, None, missing=("statement",))
    r = ratios(s)
    parts = [
        b.fraction(v)
        for b, v in ((RETURN_ON_ASSETS, r.return_on_assets), (NET_MARGIN, r.net_margin))
        if v is not None
    ]
    if not parts:
        return Factor("profitability", w, None, None, missing=("profit", "revenue or total_assets"))
    value = next(v for v in (r.return_on_assets, r.net_margin) if v is not None)
    return Factor(
        "profitability",
        w,
        round(value, 4),
        sum(parts) / len(parts),
        _stmt_evidence(s, "profit", "revenue", "total_assets"),
        note="mean of the return-on-assets and net-margin bands",
    )


def liquidity(s: Statement | None) -> Factor:
    w = WEIGHTS["liquidity"]
    r = ratios(s) if s is not None else None
    if s is None or r is None or r.current_ratio is None:
        return Factor("liquidity", w, None, None, missing=("current_assets", "current_liabilities"))
    return Factor(
        "liquidity",
        w,
        round(r.current_ratio, 4),
        CURRENT_RATIO.fraction(r.current_ratio),
        _stmt_evidence(s, "current_assets", "current_liabilities"),
        note="current ratio",
    )


def payment_discipline(f: CompanyFacts) -> Factor:
    w = WEIGHTS["payment_discipline"]
    if f.payment_defaults is None:
        return Factor("payment_discipline", w, None, None, missing=("debtor_lists", "executions"))
    # The debtor lists decide the factor; no register of executions exists yet, so it stays listed as missing
    # (it can only lower the factor once it exists).
    return Factor(
        "payment_discipline",
        w,
        f.payment_defaults,
        PAYMENT_DEFAULTS.get(f.payment_defaults, 0.0),
        f.payment_evidence or (Evidence("payment_defaults", f.payment_defaults, None, None),),
        missing=("executions",),
        note="creditors whose debtor list currently names the company",
    )


def age(f: CompanyFacts, as_of: date) -> Factor:
    w = WEIGHTS["age"]
    if f.founded_on is None:
        return Factor("age", w, None, None, missing=("founded_on",))
    years = max(0.0, (as_of - f.founded_on).days / 365.25)
    return Factor(
        "age",
        w,
        round(years, 2),
        AGE_YEARS.fraction(years),
        (Evidence("founded_on", f.founded_on.isoformat(), f.founded_on, f.source),),
        note="years",
    )


def size(f: CompanyFacts, s: Statement | None) -> Factor:
    cat, ev = f.size_category(s)
    if cat is None or ev is None:
        return Factor("size", WEIGHTS["size"], None, None, missing=("employees",))
    return Factor("size", WEIGHTS["size"], cat, SIZE[cat], (ev,), note="EU size class by headcount")


def legal_events(f: CompanyFacts, as_of: date) -> Factor:
    """Dissolution, liquidation, and how recently an earlier bankruptcy or restructuring ended."""
    w = WEIGHTS["legal_events"]
    ev = [Evidence("status", f.status, f.dissolved_on, f.source)]
    if f.status == "dissolved" or f.in_liquidation:
        ev.append(Evidence("in_liquidation", f.in_liquidation, None, f.source))
        return Factor(
            "legal_events", w, "dissolved" if f.status == "dissolved" else "in_liquidation", 0.0, tuple(ev)
        )
    ended = [e for e in f.events if e.phase == "end" and e.kind in ("bankruptcy", "restructuring")]
    if not ended:
        return Factor(
            "legal_events",
            w,
            "none",
            1.0 if f.status == "active" else 0.5,
            tuple(ev),
            note="no ended insolvency on record" + ("" if f.status == "active" else "; inactive"),
        )
    last = max(ended, key=lambda e: e.on)
    years = max(0.0, (as_of - last.on).days / 365.25)
    ev.append(Evidence(f"{last.kind}_ended", last.on.isoformat(), last.on, last.source))
    frac = INSOLVENCY_HISTORY.fraction(years) * (1.0 if f.status == "active" else 0.5)
    return Factor(
        "legal_events", w, round(years, 2), frac, tuple(ev), note="years since the last insolvency ended"
    )


def insolvency(f: CompanyFacts) -> Factor:
    w = WEIGHTS["insolvency"]
    ev = (
        Evidence("in_bankruptcy", f.in_bankruptcy, None, f.source),
        Evidence("in_restructuring", f.in_restructuring, None, f.source),
    )
    if f.in_bankruptcy:
        return Factor("insolvency", w, "in_bankruptcy", 0.0, ev)
    if f.in_restructuring:
        return Factor("insolvency", w, "in_restructuring", 0.25, ev)
    return Factor("insolvency", w, "none", 1.0, ev)


def sanctions(f: CompanyFacts) -> Factor:
    """A confirmed hit (an identifier matches a listed entry) is a knock-out; name matches alone are
    candidates for a reviewer and cost half the weight; a company never screened is a missing input."""
    w = WEIGHTS["sanctions"]
    if f.sanctions_hits is None:
        return Factor(
            "sanctions", w, None, None, missing=("sanctions_screening",), note="not screened since imported"
        )
    ev = f.sanctions_evidence or (Evidence("confirmed_hits", f.sanctions_hits, None, None),)
    if f.sanctions_hits:
        return Factor("sanctions", w, f.sanctions_hits, 0.0, ev, note="confirmed hits (a knock-out)")
    if f.sanctions_name_matches:
        note = f"no confirmed hit; {f.sanctions_name_matches} name match(es) awaiting review"
        return Factor("sanctions", w, 0, SANCTIONS_NAME_MATCH, ev, note=note)
    return Factor("sanctions", w, 0, 1.0, ev, note="screened: no hit")


def tax_reliability(f: CompanyFacts) -> Factor:
    if f.tax_reliable is None:
        return Factor(
            "tax_reliability",
            WEIGHTS["tax_reliability"],
            None,
            None,
            missing=("unreliable_payer_lists", "tax_debtor_lists"),
        )
    return Factor(
        "tax_reliability",
        WEIGHTS["tax_reliability"],
        "reliable" if f.tax_reliable else "unreliable",
        1.0 if f.tax_reliable else 0.0,
        f.tax_evidence or (Evidence("tax_reliable", f.tax_reliable, None, None),),
    )


def latest_statement(statements: list[Statement], as_of: date) -> Statement | None:
    """The newest statement whose period ended before `as_of`."""
    known = [s for s in statements if s.period_end < as_of]
    return max(known, key=lambda s: (s.period_end, s.statement_id or 0)) if known else None


def is_stale(s: Statement, as_of: date) -> bool:
    return (as_of.year - s.period_end.year) * 12 + as_of.month - s.period_end.month > STALE_MONTHS


def caps_for(f: CompanyFacts) -> list[str]:
    states = {
        "in_bankruptcy": f.in_bankruptcy,
        "dissolved": f.status == "dissolved",
        "sanctioned": bool(f.sanctions_hits),
        "in_liquidation": f.in_liquidation,
        "in_restructuring": f.in_restructuring,
    }
    return [name for name, on in states.items() if on]


def credit_score(facts: CompanyFacts, statements: list[Statement], as_of: date) -> CreditScore:
    """The score of a company on `as_of` from its facts and the statements that existed by then."""
    s = latest_statement(statements, as_of)
    factors = (
        financial_strength(s),
        profitability(s),
        liquidity(s),
        payment_discipline(facts),
        age(facts, as_of),
        size(facts, s),
        legal_events(facts, as_of),
        insolvency(facts),
        sanctions(facts),
        tax_reliability(facts),
    )
    known = [f for f in factors if f.fraction is not None]
    weight = sum(f.weight for f in known)
    earned = sum((f.fraction or 0.0) * f.weight for f in known)
    raw = 100.0 * earned / weight if weight else 0.0
    caps = caps_for(facts)
    confidence = weight / 100.0 * (STALE_CONFIDENCE if s is not None and is_stale(s, as_of) else 1.0)
    missing = tuple(f"{f.code}.{m}" for f in factors for m in f.missing)
    if factors[0].fraction is None and not caps:
        return CreditScore(None, None, factors, round(confidence, 2), missing, (), WITHHELD, s, as_of)
    score = round(min([raw, *(CAPS[c] for c in caps)]), 1)
    return CreditScore(
        score, grade_of(score), factors, round(confidence, 2), missing, tuple(caps), None, s, as_of
    )
