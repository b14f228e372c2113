"""Read models and request bodies of the compliance area (the OpenAPI document is these)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

MAX_BULK = 100


class Item(BaseModel):
    status: str = Field(description="The item's state (e.g. `active`, `none`, `clear`, `known`, `reliable`, "
                        "`in_scope`, `graded`) or `unknown` when no source answers")
    value: Any = Field(description="The item's facts (null when unknown)")
    source: str | None = Field(description="Source id (`/api/v1/data-sources`) or the area that computed it")
    date: str | None = Field(description="As of (ISO date): the record's update, the list import, the answer")
    reason: str | None = Field(description="Why the item is unknown (null otherwise)")


class Summary(BaseModel):
    country: str
    nationalId: str
    name: str
    asOf: str
    identity: Item
    status: Item = Field(description="Register status (`active`, `dissolved`, …)")
    insolvency: Item = Field(description="`none` or `proceedings`; value: bankruptcy / restructuring / "
                             "liquidation flags")
    sanctions: Item = Field(description="`clear`, `name_match` (name-only candidates to review) or "
                            "`confirmed_hit` (an identifier matches); value counts `confirmed` and `nameOnly`")
    beneficialOwnership: Item = Field(description="`known` when a natural person holds more than 25%, else "
                                      "`unknown` with the reason (GLEIF exceptions, no owner data, …)")
    taxReliability: Item = Field(description="`reliable` / `unreliable` VAT payer (Czech ADIS), else `unknown`")
    nis2: Item = Field(description="`in_scope` / `out_of_scope` / `unknown`")
    creditGrade: Item = Field(description="`graded` with the grade A+…F as value, or `unknown` (withheld)")


class RedFlag(BaseModel):
    code: str
    severity: Literal["info", "warning", "critical"]
    message: str


class Check(BaseModel):
    id: str
    title: str
    result: Literal["passed", "failed", "unknown"]
    finding: str
    redFlags: list[RedFlag]


class DueDiligence(BaseModel):
    country: str
    nationalId: str
    name: str
    asOf: str
    overall: Literal["passed", "review", "failed"] = Field(
        description="`failed` when a check failed, `review` when one is unknown, else `passed`")
    rulesVersion: str
    checks: list[Check]
    redFlags: list[RedFlag] = Field(description="Every check's red flags, critical first")


class BulkTarget(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    country: StrictStr = Field(min_length=2, max_length=2, description="ISO 3166-1 alpha-2, any case")
    id: StrictStr | None = Field(default=None, min_length=1, max_length=40, description="National identifier")
    ico: StrictStr | None = Field(default=None, min_length=1, max_length=40, description="Same as `id`")

    @model_validator(mode="after")
    def one_id(self) -> BulkTarget:
        if (self.id is None) == (self.ico is None):
            raise ValueError("give exactly one of `id` and `ico`")
        return self


class BulkIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    companies: list[BulkTarget] = Field(min_length=1, max_length=MAX_BULK)


class BulkResult(BaseModel):
    index: int
    country: str
    nationalId: str
    ok: bool
    summary: Summary | None
    error: dict[str, Any] | None = Field(description="`code` and `message` (NOT_FOUND, VALIDATION_ERROR)")


class Bulk(BaseModel):
    items: list[BulkResult]
    found: int
    errors: int


class Section(BaseModel):
    present: bool
    reason: str | None = Field(description="Why the section is absent")
    durationMs: float = Field(description="Time spent building the section")
    data: Any


class Full(BaseModel):
    country: str
    nationalId: str
    name: str
    sections: dict[str, Section] = Field(description="company, financialHistory, creditScore, risk, relations, "
                                         "ultimateOwner, sanctions, nis2, timeline, bankAccounts, contracts, "
                                         "compliance, obligations, screeningHits")
    durationMs: float


class RiskBrief(BaseModel):
    score: int
    level: str
    drivers: list[str]
    missingInputs: list[str]
    confidence: float
    modelVersion: str


class SupplierRisk(BaseModel):
    country: str
    nationalId: str
    name: str
    supplierRisk: Literal["low", "review", "high"]
    risk: RiskBrief
    dueDiligence: str
    redFlags: list[RedFlag]
    rulesVersion: str


class Link(BaseModel):
    model_config = ConfigDict(extra="allow")
    relation: str = Field(description="`shareholder`, `beneficial_owner`, `director` (a corporate director) "
                          "or `holding` (a company this one holds)")
    country: str | None
    nationalId: str
    name: str | None
    risk: RiskBrief | None
    reason: str | None = Field(description="Why the linked company could not be scored")


class SupplyChainRisk(BaseModel):
    country: str
    nationalId: str
    name: str
    risk: RiskBrief
    links: list[Link]
    truncated: bool
    maxLinkedRisk: int | None
    chainRisk: int = Field(description="The highest risk score of the company and its links")


class Obligation(BaseModel):
    obligation: str
    status: str = Field(description="`up_to_date`, `overdue`, `not_due_yet`, `not_applicable` or `unknown`")
    reason: str | None
    latestYear: int | None
    latestPeriodEnd: str | None
    latestSource: str | None
    periodEnd: str | None = Field(description="End of the next financial year due")
    deadline: str | None
    legalBasis: str | None


class Obligations(BaseModel):
    country: str
    nationalId: str
    name: str
    asOf: str
    obligations: list[Obligation]


class VatLiability(BaseModel):
    country: str
    nationalId: str
    name: str
    vatRegistration: Item
    unreliablePayer: Item
    bankAccounts: Item
    hasTaxDebt: Item
