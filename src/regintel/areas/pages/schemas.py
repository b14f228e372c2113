"""Response and request models of the pages area (the OpenAPI document is the body)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Insolvency(BaseModel):
    state: str = Field(description="`bankruptcy`, `restructuring`, `liquidation` or `none`")
    in_bankruptcy: bool
    in_restructuring: bool
    in_liquidation: bool


class Nis2Summary(BaseModel):
    badge: str = Field(
        description="ESSENTIAL, IMPORTANT, IN SCOPE, OUT OF SCOPE, or NOT DETERMINED when the "
        "facts leave the category open"
    )
    category: str | None
    certainty: str | None
    in_scope: bool | None


class SanctionsSummary(BaseModel):
    hits: int = Field(
        description="Precomputed screening hits at the default threshold (0 until lists are "
        "imported and screened)"
    )
    confirmed: int
    sanctioned: int
    debarred: int


class SecuritySummary(BaseModel):
    assessed: bool = Field(description="Whether a passive check of a published domain is stored")
    score: int | None = Field(
        description="0-100, the weakest checked domain's (security area); null when not "
        "assessed or no check could score a domain"
    )
    band: str | None = Field(description="`good` (≥ 80), `fair` (≥ 60), `weak` (≥ 40), `poor`")
    findings: int | None = Field(description="Findings of the scored domains")
    checked_at: str | None = Field(description="The oldest stored check (ISO 8601)")
    note: str


class FinancialsSummary(BaseModel):
    year: int
    currency: str
    revenue: float | None
    profit: float | None
    employees: int | None


class Check(BaseModel):
    country: str
    national_id: str
    name: str
    legal_form: str | None
    status: str
    founded_on: date | None
    dissolved_on: date | None
    address: str | None
    city: str | None
    postal_code: str | None
    nace_primary: str | None
    vat_id: str | None
    lei: str | None
    insolvency: Insolvency
    credit_grade: str | None = Field(
        description="A+, A, B, C, D, E, F; null when the model withholds a grade"
    )
    nis2: Nis2Summary
    sanctions: SanctionsSummary
    security: SecuritySummary
    financials: FinancialsSummary | None
    source: str
    updated_at: datetime


class ViewStats(BaseModel):
    country: str
    national_id: str
    views: int = Field(description="Views of the public check page and data, including those not yet written")
    pending: int = Field(description="Views counted in this process and not yet written (batched)")
    last_viewed_at: datetime | None


class RankedCompany(BaseModel):
    model_config = ConfigDict(extra="allow")
    rank: int
    country: str
    national_id: str
    name: str
    status: str
    city: str | None
    url: str


class RankingItem(BaseModel):
    model_config = ConfigDict(extra="allow")
    rank: int


class Ranking(BaseModel):
    key: str
    description: str
    as_of: datetime | None = Field(
        default=None,
        description="`public-contracts`: when the totals were computed "
        "(null: never, or no contract with a value is linked to a company)",
    )
    items: list[dict[str, Any]]


class RankingIndexEntry(BaseModel):
    key: str
    description: str
    json_url: str
    csv_url: str
    available: bool


class Comparison(BaseModel):
    companies: list[Check]


class CountryCoverage(BaseModel):
    country: str
    entities: int
    active: int


class Coverage(BaseModel):
    entities: int
    active: int
    countries: list[CountryCoverage]
    sources: list[dict[str, Any]]
    last_update: datetime | None


class WidgetTokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    origins: list[str] = Field(
        min_length=1, max_length=10, description="Origins the widget may run on, `scheme://host[:port]`"
    )
    ttl_seconds: int = Field(default=86400, ge=60, le=7 * 86400, description="Lifetime, 60 s to 7 days")


class WidgetToken(BaseModel):
    token: str
    origins: list[str]
    expires_at: datetime


class WidgetData(BaseModel):
    type: str
    country: str
    national_id: str
    name: str
    status: str
    insolvency: str
    credit_grade: str | None
    nis2: str
    sanctions_hits: int
    url: str
