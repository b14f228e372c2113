"""Response and request models of the nis2 area (the OpenAPI document is the body)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from regintel.areas.search.company_filters import CompanyFilters

Category = Literal["essential", "important", "out-of-scope"]
Certainty = Literal["certain", "likely", "possible"]


class Reason(BaseModel):
    rule: str = Field(
        description="`sector`, `designation`, `public_administration`, `no_sector`, `dissolved`, "
        "`not_in_member_state`"
    )
    category: Category
    legal_reference: list[str] = Field(description="Articles of Directive (EU) 2022/2555")
    text: str
    match: Certainty | None = None


class Missing(BaseModel):
    input: str = Field(
        description="What is unknown: `headcount`, `turnover_eur`, `balance_sheet_eur`, `group`, "
        "`nace`, `activity:<entity type>`, `public_administration_level`, `status`, "
        "`services_in_union`, `earlier_accounts`"
    )
    why: str


class Nis2Scope(BaseModel):
    model_config = ConfigDict(extra="forbid")
    country: str
    national_id: str
    name: str
    category: Category = Field(description="The best-supported category")
    certainty: Certainty = Field(
        description="`certain`: no other category is possible with the data; `likely`: "
        "the category follows from the data, others stay open (see `missing`); "
        "`possible`: too little is known to say more"
    )
    possible_categories: list[Category]
    in_scope: bool | None = Field(description="null when the data leaves both in and out of scope open")
    reasons: list[Reason]
    sectors: list[dict[str, Any]] = Field(
        description="Each way into scope: the NACE code (primary or secondary) "
        "and the mapping row it reached (annex, sector, subsector, entity type, "
        "Annex point, justification), or a designation with its source"
    )
    size: dict[str, Any] = Field(
        description="Size class (Rec. 2003/361/EC) with its range, the group figures "
        "used (EUR intervals), the entity's own inputs and partner/linked enterprises"
    )
    missing: list[Missing]
    notes: list[str]
    designations: list[dict[str, Any]]
    national_transposition: dict[str, Any] | None = Field(
        description="The national act, its authority and the known deviations (null: none recorded)"
    )
    legal_basis: str
    ruleset_version: str
    fx: dict[str, Any] = Field(description="The dated EUR rate table non-EUR statements were converted with")


class Obligation(BaseModel):
    id: str
    title: str
    legal_reference: str
    national_reference: str | None
    deadline: str
    deadline_iso: str | None = Field(description="ISO 8601 duration after the trigger (`PT24H`) or a date")
    trigger: Literal["ongoing", "incident", "change", "date"]
    applies_to: list[Category]
    applies: bool = Field(description="Whether it binds this entity's category")
    national_note: str | None
    regime: str | None = None
    enisa_registry: bool | None = None


class Nis2Obligations(BaseModel):
    country: str
    national_id: str
    name: str
    category: Category
    certainty: Certainty
    possible_categories: list[Category]
    applies_from: str
    transposition: dict[str, Any] | None
    obligations: list[Obligation]
    applicable_count: int
    ruleset_version: str


class PriorityFactor(BaseModel):
    factor: str
    points: int
    max: int
    inputs: dict[str, Any]
    note: str | None = None


class Nis2Priority(BaseModel):
    country: str
    national_id: str
    name: str
    score: int = Field(ge=0, le=100)
    tier: Literal["hot", "warm", "cool", "cold"]
    factors: list[PriorityFactor]
    version: str
    dissolved: bool
    category: Category
    certainty: Certainty
    ruleset_version: str


class SweepIdentifier(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    country: str = Field(min_length=2, max_length=2)
    national_id: str = Field(min_length=1, max_length=40)


class SweepRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    identifiers: list[SweepIdentifier] | None = Field(
        default=None, min_length=1, max_length=10_000, description="Up to 10,000 (country, national id) pairs"
    )
    filter: CompanyFilters | None = Field(
        default=None,
        description="Advanced-search filters (the parameters "
        "of /companies/advanced-search, lists as JSON arrays)",
    )


class SweepResult(BaseModel):
    requested: int | None = None
    processed: int
    counts: dict[str, int]
    certainty: dict[str, int]
    by_country: dict[str, dict[str, int]]
    in_scope: int
    entities: list[dict[str, Any]] = Field(
        description="In-scope entities (essential or important), at most 10,000"
    )
    entities_truncated: bool
    invalid: list[dict[str, Any]] = []
    not_found: list[dict[str, Any]] = []
    ruleset_version: str


class SweepQueued(BaseModel):
    job_id: int
    status: str
    status_url: str


class SweepStatus(BaseModel):
    job_id: int
    status: Literal["queued", "running", "done", "failed"]
    current_job_id: int
    processed: int
    error: str | None
    created_at: datetime
    finished_at: datetime | None
    result: dict[str, Any] | None
    status_url: str
