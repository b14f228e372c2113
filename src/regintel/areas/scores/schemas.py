"""Response and request models of the scores routes (the OpenAPI document is the body)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class SourceRef(BaseModel):
    id: str
    name: str | None = None
    publisher: str | None = None
    licence: str | None = None
    licence_url: str | None = None


class EurRateOut(BaseModel):
    currency: str
    rate: float = Field(description="Units of `currency` per 1 EUR")
    date: dt.date = Field(description="The ECB publication day of the rate")
    source: str


class Lines(BaseModel):
    revenue: float | None
    profit: float | None
    total_assets: float | None
    equity: float | None
    liabilities: float | None
    current_assets: float | None = Field(description="null when the source does not publish the line")
    current_liabilities: float | None
    retained_earnings: float | None
    ebit: float | None = Field(description="Operating result (earnings before interest and taxes)")


class RatiosOut(BaseModel):
    net_margin: float | None = Field(description="profit / revenue")
    return_on_assets: float | None = Field(description="profit / total assets")
    equity_ratio: float | None = Field(description="equity / total assets")
    debt_ratio: float | None = Field(description="liabilities / total assets")
    leverage: float | None = Field(description="liabilities / equity; null when equity is not positive")
    asset_turnover: float | None = Field(description="revenue / total assets")
    current_ratio: float | None = Field(
        description="current assets / current liabilities (liquidity); null "
        "when the statement lacks either line"
    )
    revenue_growth: float | None = Field(description="against the previous year's statement")
    profit_growth: float | None = Field(description="profit change over |previous profit|")
    employee_growth: float | None
    altman_z2: float | None = Field(description="Altman Z''-score; null unless every input exists")


class FinancialYear(BaseModel):
    year: int
    period_from: str | None
    period_to: str | None
    period_end: dt.date
    statement_type: str | None
    source: str
    currency: str
    employees: int | None
    lines: Lines = Field(description="In the statement's currency")
    lines_eur: Lines | None = Field(description="In euro at `eur_rate`; null when no ECB rate exists")
    eur_rate: EurRateOut | None
    eur_unavailable_reason: str | None
    ratios: RatiosOut


class FinancialHistory(BaseModel):
    years: list[FinancialYear] = Field(description="One statement per year, newest first")
    fx_source: str
    sources: list[SourceRef]


class EvidenceOut(BaseModel):
    input: str
    value: str | float | int | bool | None
    date: dt.date | None
    source: str | None


class FactorOut(BaseModel):
    code: str
    weight: int = Field(description="Points the factor can earn out of 100")
    value: float | str | None = Field(description="The value the factor's bands read")
    points: float | None = Field(description="Points earned; null when the inputs are missing")
    available: bool
    evidence: list[EvidenceOut]
    missing_inputs: list[str]
    note: str


class StatementRef(BaseModel):
    year: int
    period_end: dt.date
    currency: str
    source: str


class GradeBand(BaseModel):
    grade: str
    min_score: float


class CreditScoreOut(BaseModel):
    score: float | None = Field(description="0-100; null when withheld")
    grade: str | None = Field(description="A+, A, B, C, D, E or F; null when withheld")
    confidence: float = Field(
        description="0-1: the weight of the factors whose inputs exist, lowered for a stale statement"
    )
    missing_inputs: list[str]
    caps: list[str] = Field(description="Knock-out states that capped the score")
    withheld_reason: str | None
    factors: list[FactorOut]
    statement: StatementRef | None
    grade_scale: list[GradeBand]
    model_version: str
    as_of: dt.date
    sources: list[SourceRef]


class CreditLimitOut(BaseModel):
    amount: float | None
    currency: str | None
    amount_eur: float | None
    eur_rate: EurRateOut | None
    base: float | None = Field(description="min(revenue / 12, equity / 2) of the latest statement")
    share: float | None = Field(description="Share of the base the grade allows")
    rule: str
    reason: str


class GradePoint(BaseModel):
    year: int
    as_of: dt.date
    score: float | None
    grade: str | None
    confidence: float


class CreditOut(BaseModel):
    grade: str | None
    score: float | None
    confidence: float
    limit: CreditLimitOut
    history: list[GradePoint] = Field(description="The grade of each statement year, newest first")
    model_version: str
    as_of: dt.date


class DriverOut(BaseModel):
    code: str
    points: int
    description: str
    evidence: list[EvidenceOut]


class RiskOut(BaseModel):
    score: int = Field(description="0 (no sign of risk) to 100")
    level: Literal["low", "moderate", "high", "severe"]
    drivers: list[DriverOut]
    checked: list[str]
    missing_inputs: list[str]
    confidence: float
    model_version: str
    as_of: dt.date


class PeerGroup(BaseModel):
    level: Literal["class", "division"]
    nace: str
    country: str
    size_class: str
    currency: str
    peer_count: int
    basis: Literal["precomputed", "live"]
    computed_at: dt.datetime | None


class PeerMetric(BaseModel):
    metric: str
    value: float | None
    p25: float | None
    p50: float | None
    p75: float | None
    peer_count: int
    quartile: int | None = Field(description="1 (lowest quarter of the peers) to 4 (highest)")
    assessment: str | None = Field(
        description="top quartile … bottom quartile, in the metric's good direction"
    )


class PeersOut(BaseModel):
    group: PeerGroup | None
    statement_year: int | None
    metrics: list[PeerMetric]
    reason: str | None = Field(description="Why there is no comparison, when there is none")


class SimilarCompany(BaseModel):
    country: str
    national_id: str
    name: str
    nace: str | None
    region: str | None
    city: str | None
    employees: int | None
    revenue_eur: float | None
    statement_year: int | None
    distance: float = Field(
        description="Lower is closer: |ln(size ratio)| plus penalties for another NACE "
        "class and another region"
    )
    reasons: list[str]


class SimilarOut(BaseModel):
    scope: Literal["region", "country", "world"]
    nace: str | None
    region: str | None
    size_basis: str | None = Field(description="`revenue_eur` or `employees`")
    items: list[SimilarCompany]
    reason: str | None


class DisputeIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    score: Literal["credit", "risk"] = Field(description="The score disputed")
    reason: StrictStr = Field(min_length=1, max_length=5000, description="What is wrong, in your words")
    factor: StrictStr | None = Field(
        default=None,
        max_length=32,
        description="A factor code of the credit score or a driver of the risk score",
    )
    evidence_url: StrictStr | None = Field(default=None, max_length=2000, pattern=r"^https?://\S+$")
    contact_email: StrictStr | None = Field(default=None, max_length=320, pattern=r"^[^@\s]+@[^@\s]+$")


class DisputeOut(BaseModel):
    id: int
    status: str
    country: str
    national_id: str
    score_type: str
    model_version: str
    disputed_score: float | None
    disputed_grade: str | None
    factor: str | None
    reason: str
    evidence_url: str | None
    contact_email: str | None
    created_at: dt.datetime
