"""Read models and request bodies of the compliance area (the OpenAPI document is these)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, model_validator

MAX_BULK = 100


class Item(BaseModel):
    status: str = Field(
        description="The item's state (e.g. `active`, `none`, `clear`, `known`, `reliable`, "
        "`in_scope`, `graded`) or `unknown` when no source answers"
    )
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
    insolvency: Item = Field(
        description="`none` or `proceedings`; value: bankruptcy / restructuring / liquidation flags"
    )
    sanctions: Item = Field(
        description="`clear`, `name_match` (name-only candidates to review) or "
        "`confirmed_hit` (an identifier matches); value counts `confirmed` and `nameOnly`"
    )
    beneficialOwnership: Item = Field(
        description="`known` when a natural person holds more than 25%, else "
        "`unknown` with the reason (GLEIF exceptions, no owner data, …)"
    )
    taxReliability: Item = Field(
        description="`reliable` / `unreliable` VAT payer (Czech ADIS), else `unknown`"
    )
    nis2: Item = Field(description="`in_scope` / `out_of_scope` / `unknown`")
    creditGrade: Item = Field(description="`graded` with the grade A+…F as value, or `unknown` (withheld)")
    debtors: Item = Field(
        description="`listed` / `not_listed` on the published debtor lists of the company's "
        "country (social insurance, health insurers, tax), `unknown` where none is imported"
    )


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
        description="`failed` when a check failed, `review` when one is unknown, else `passed`"
    )
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
    sections: dict[str, Section] = Field(
        description="company, financialHistory, creditScore, risk, relations, "
        "ultimateOwner, sanctions, nis2, timeline, bankAccounts, contracts, "
        "compliance, obligations, screeningHits"
    )
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
    relation: str = Field(
        description="`shareholder`, `beneficial_owner`, `director` (a corporate director) "
        "or `holding` (a company this one holds)"
    )
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


class DebtorEntry(BaseModel):
    kind: Literal["social_insurance", "health_insurance", "tax"]
    creditor: str
    source: str = Field(description="Source id (`/api/v1/data-sources`)")
    name: str = Field(description="The debtor's name as the list gives it")
    address: str | None
    amount: float | None = Field(description="Amount owed as listed, in major units")
    currency: str
    listedSince: str = Field(description="Date of the first imported list that named the company")
    lastListedOn: str = Field(description="Date of the newest list that still named it")
    delistedOn: str | None = Field(
        description="Date of the first list that no longer named it (paid or under the publisher's threshold)"
    )
    match: Literal["identifier", "name_postcode"] = Field(
        description=(
            "How the entry was linked to the company: by IČO, or (lists without one) by name and postcode"
        )
    )


class DebtorList(BaseModel):
    source: str
    kind: str
    listDate: str | None = Field(description="Date of the newest imported list (null: not imported)")
    imported: bool


class Owed(BaseModel):
    amount: float
    currency: str


class Debtors(BaseModel):
    country: str
    nationalId: str
    name: str
    onList: bool = Field(description="Named by at least one current list")
    paymentDefaults: int | None = Field(
        description="Creditors whose social or health list currently names the "
        "company (null when none of those lists is imported)"
    )
    taxDebt: bool | None = Field(description="On the tax administration's debtor list (null: not imported)")
    owed: list[Owed] = Field(description="Sum of the current entries, per currency")
    lists: list[DebtorList] = Field(description="The lists of the company's country and their dates")
    current: list[DebtorEntry]
    past: list[DebtorEntry] = Field(description="Entries of earlier lists no longer carried")


class FiledReport(BaseModel):
    reportId: str = Field(description="The register's id of a report filed in the statement")
    url: str = Field(description="The report's public RÚZ page")


class FiledDocument(BaseModel):
    statementId: str = Field(description="The register's id of the filed statement")
    periodFrom: str | None = Field(description="First month of the period (YYYY-MM)")
    periodTo: str = Field(description="Last month of the period (YYYY-MM)")
    type: Literal["ordinary", "extraordinary", "interim", "combined"]
    consolidated: bool | None
    compiledOn: str | None = Field(description="The date the statement was drawn up to (ISO date)")
    updatedOn: str | None = Field(description="The register's last change of the filing (ISO date)")
    channel: str | None = Field(description="How the register received it (RÚZ `zdrojDat`, e.g. JUS)")
    source: str = Field(description="Source id (`/api/v1/data-sources`)")
    url: str = Field(description="The statement's public RÚZ page")
    reports: list[FiledReport] = Field(description="The reports filed in it (balance sheet, P&L, notes)")
    annualReportIds: list[str] = Field(description="The register's ids of annual reports filed with it")


class AnnualReports(BaseModel):
    country: str
    nationalId: str
    name: str
    total: int = Field(description="Filed statements of the company (the list holds at most `limit`)")
    documents: list[FiledDocument] = Field(description="Newest period first")


class Counterparty(BaseModel):
    country: str
    nationalId: str
    name: str | None
    relations: list[Literal["owner", "director", "holding"]] = Field(
        description="`owner` (shareholder, beneficial owner or consolidating parent), `director` (a "
        "corporate director) or `holding` (a company this one holds a stake in)"
    )
    sharePct: float | None = Field(description="Largest stake of the ownership relations, in percent")
    known: bool = Field(description="Whether the company is in the database (signals read)")
    signals: list[
        Literal["bankruptcy", "restructuring", "liquidation", "dissolved", "sanctioned", "debtor_list"]
    ]
    distressed: bool | None
    debtorListsKnown: bool | None = Field(description="Whether a debtor list of its country is imported")


class ExposureSummary(BaseModel):
    linked: int
    distressed: int
    distressedOwnersPct: float = Field(description="Sum of the stakes distressed owners hold, in percent")
    distressedHoldings: int


class Buyer(BaseModel):
    name: str | None
    nationalId: str | None
    country: str | None
    value: float
    contracts: int
    share: float


class Concentration(BaseModel):
    status: Literal["computed", "none", "no_values"] = Field(
        description="`none`: no public contract; `no_values`: contracts without values"
    )
    contracts: int
    currency: str | None = Field(
        description="The currency of most of the contract value; others are left out"
    )
    value: float | None
    buyers: int
    topBuyers: list[Buyer]
    top1Share: float | None
    top3Share: float | None
    hhi: float | None = Field(description="Herfindahl-Hirschman index of the buyers' shares (0-10,000)")
    concentrated: bool | None = Field(description="HHI ≥ 2,500 or one buyer ≥ 50%")
    truncated: bool


class Exposure(BaseModel):
    country: str
    nationalId: str
    name: str
    asOf: str
    rulesVersion: str
    level: Literal["low", "elevated", "high"]
    reasons: list[str]
    counterparties: list[Counterparty]
    truncated: bool
    summary: ExposureSummary
    contracts: Concentration
    unknown: list[str] = Field(description="Inputs that could not be read, so `low` is not a clean bill")
