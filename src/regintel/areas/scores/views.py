"""The answers of the financial-history, credit-score, credit and risk routes, built from the models."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.scores import queries, service
from regintel.areas.scores.fx import rate_table
from regintel.domain.scores.credit import GRADES, CreditScore, Factor
from regintel.domain.scores.facts import Evidence
from regintel.domain.scores.figures import Statement, latest_per_year, ratios
from regintel.domain.scores.fx import EurRate, to_eur
from regintel.domain.scores.limits import credit_limit
from regintel.domain.scores.risk import RiskScore

LINES = (
    "revenue",
    "profit",
    "total_assets",
    "equity",
    "liabilities",
    "current_assets",
    "current_liabilities",
    "retained_earnings",
    "ebit",
)
DRIVERS = {
    "in_bankruptcy": "In bankruptcy",
    "dissolved": "Dissolved",
    "sanctioned": "On a sanctions or debarment list, confirmed by an identifier",
    "sanctions_name_match": "A name on a sanctions or debarment list matches, not confirmed by an identifier",
    "in_liquidation": "In liquidation",
    "in_restructuring": "In restructuring",
    "recent_insolvency": "A bankruptcy or restructuring within the last 5 years",
    "negative_equity": "Negative equity in the latest statement",
    "high_debt_ratio": "Liabilities above 90% of total assets",
    "loss": "A loss in the latest statement",
    "repeated_losses": "A loss in the year before too",
    "revenue_decline": "Revenue fell by more than 20%",
    "young_company": "Founded less than 2 years ago",
    "no_recent_statement": "No statement for a period that ended within the last 30 months",
    "payment_defaults": "On a debtor list or with executions",
    "tax_unreliable": "Listed as an unreliable tax payer",
}


def _num(v: Decimal | float | int | None) -> float | None:
    return None if v is None else float(v)


def _rate(rate: EurRate | None) -> dict[str, Any] | None:
    if rate is None:
        return None
    return {
        "currency": rate.currency,
        "rate": float(rate.rate),
        "date": rate.on,
        "source": rate_table().source,
    }


def _sources(conn: Connection, ids: set[str | None]) -> list[dict[str, Any]]:
    known = {r["id"]: dict(r) for r in queries.list_sources(conn, [i for i in ids if i])}
    return [known.get(i, {"id": i}) for i in sorted(i for i in ids if i)]


def year_view(s: Statement, previous: Statement | None, raw: dict[str, Any]) -> dict[str, Any]:
    rate = rate_table().find(s.currency, s.period_end)
    lines = {k: _num(getattr(s, k)) for k in LINES}
    eur = None if rate is None else {k: _num(to_eur(getattr(s, k), rate)) for k in LINES}
    return {
        "year": s.year,
        "period_from": raw.get("period_from"),
        "period_to": raw.get("period_to"),
        "period_end": s.period_end,
        "statement_type": raw.get("statement_type"),
        "source": s.source,
        "currency": s.currency,
        "employees": s.employees,
        "lines": lines,
        "lines_eur": eur,
        "eur_rate": _rate(rate),
        "eur_unavailable_reason": None
        if rate is not None
        else f"the ECB publishes no reference rate for {s.currency} on or before {s.period_end}",
        "ratios": {k: (None if v is None else round(v, 6)) for k, v in vars(ratios(s, previous)).items()},
    }


def financial_history(conn: Connection, company: service.Row) -> dict[str, Any]:
    raw = {r["id"]: dict(r) for r in queries.list_statements(conn, company["id"])}
    years = latest_per_year([service.to_statement(r) for r in raw.values()])
    out = [year_view(s, years[i - 1] if i else None, raw[s.statement_id]) for i, s in enumerate(years)]
    return {
        "years": out[::-1],
        "fx_source": rate_table().source,
        "sources": _sources(conn, {s.source for s in years}),
    }


def _evidence(e: Evidence) -> dict[str, Any]:
    return {"input": e.input, "value": e.value, "date": e.on, "source": e.source}


def _factor(f: Factor) -> dict[str, Any]:
    return {
        "code": f.code,
        "weight": f.weight,
        "value": f.value,
        "points": f.points,
        "available": f.fraction is not None,
        "evidence": [_evidence(e) for e in f.evidence],
        "missing_inputs": list(f.missing),
        "note": f.note,
    }


def credit_score(conn: Connection, company: service.Row) -> dict[str, Any]:
    r = service.credit(conn, company)
    s = r.statement
    ids = {e.source for f in r.factors for e in f.evidence}
    return {
        "score": r.score,
        "grade": r.grade,
        "confidence": r.confidence,
        "missing_inputs": list(r.missing_inputs),
        "caps": list(r.caps),
        "withheld_reason": r.withheld_reason,
        "factors": [_factor(f) for f in r.factors],
        "statement": None
        if s is None
        else {"year": s.year, "period_end": s.period_end, "currency": s.currency, "source": s.source},
        "grade_scale": [{"grade": g, "min_score": m} for g, m in GRADES],
        "model_version": r.model_version,
        "as_of": r.as_of,
        "sources": _sources(conn, ids),
    }


def _limit(r: CreditScore) -> dict[str, Any]:
    lim = credit_limit(r)
    rate = (
        None
        if r.statement is None or lim.amount is None
        else rate_table().find(r.statement.currency, r.statement.period_end)
    )
    return {
        "amount": _num(lim.amount),
        "currency": lim.currency,
        "amount_eur": _num(to_eur(lim.amount, rate)),
        "eur_rate": _rate(rate),
        "base": _num(lim.base),
        "share": _num(lim.share),
        "rule": "min(revenue / 12, equity / 2) of the latest statement x the grade's share (A+ 1.0, A 0.8, "
        "B 0.6, C 0.4, D 0.2, E 0.1, F 0), rounded down to two significant digits",
        "reason": lim.reason,
    }


def credit(conn: Connection, company: service.Row) -> dict[str, Any]:
    r, history = service.credit_and_history(conn, company)
    return {
        "grade": r.grade,
        "score": r.score,
        "confidence": r.confidence,
        "limit": _limit(r),
        "history": [
            {
                "year": p.year,
                "as_of": p.as_of,
                "score": p.result.score,
                "grade": p.result.grade,
                "confidence": p.result.confidence,
            }
            for p in history
        ],
        "model_version": r.model_version,
        "as_of": r.as_of,
    }


def risk_view(r: RiskScore) -> dict[str, Any]:
    return {
        "score": r.score,
        "level": r.level,
        "checked": list(r.checked),
        "missing_inputs": list(r.missing_inputs),
        "drivers": [
            {
                "code": d.code,
                "points": d.points,
                "description": DRIVERS[d.code],
                "evidence": [_evidence(e) for e in d.evidence],
            }
            for d in r.drivers
        ],
        "confidence": r.confidence,
        "model_version": r.model_version,
        "as_of": r.as_of,
    }


def risk(conn: Connection, company: service.Row) -> dict[str, Any]:
    return risk_view(service.risk(conn, company))
