"""Typed read models of the public-money routes (the OpenAPI document is the body)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CompanyRef(BaseModel):
    country: str
    nationalId: str
    name: str


class Link(BaseModel):
    """How a published party was linked to a company (docs/public-money.md, "Linking")."""

    method: Literal["identifier", "name"] = Field(
        description="`identifier`: the national id the publisher gave; "
        "`name`: name and country through the resolver"
    )
    score: float = Field(
        description="1.0 for an identifier; the resolver's score (never below 0.9) for a name"
    )
    company: CompanyRef


class Cpv(BaseModel):
    code: str = Field(description="CPV 2008 code, 8 digits")
    label: str | None = Field(description="English label of the CPV 2008 vocabulary")


class Party(BaseModel):
    ref: str = Field(description="The organisation's id inside the notice (ORG-0001)")
    name: str
    nationalId: str | None = Field(description="Registration number as the notice gives it")
    country: str | None
    city: str | None
    link: Link | None = Field(description="The company this party is, when linked")


class Winner(Party):
    lot: str
    contractRef: str | None
    contractTitle: str | None
    signedOn: str | None
    value: float | None
    currency: str | None
    groupLead: bool | None = Field(description="In a group of tenderers: whether this one leads it")


class Lot(BaseModel):
    id: str
    title: str | None
    cpv: Cpv | None
    estimatedValue: float | None
    currency: str | None


class NoticeSummary(BaseModel):
    pub: str = Field(
        description="Key of `/ted/notice/{pub}`: the TED publication number, or the notice id while "
        "the notice has none"
    )
    noticeId: str
    publicationNumber: str | None
    form: str
    noticeType: str | None
    issueDate: str
    title: str | None
    country: str | None
    cpv: Cpv | None
    value: float | None = Field(description="Awarded total when the notice gives one, else the estimate")
    currency: str | None
    buyers: list[str]
    winners: list[str]
    link: str | None = Field(description="The notice on TED, once published")


class Notice(NoticeSummary):
    version: str | None
    subtype: str | None
    language: str | None
    description: str | None
    procedure: str | None
    nature: str | None = Field(description="works, supplies or services")
    cpvCodes: list[Cpv]
    estimatedValue: float | None
    estimatedCurrency: str | None
    totalValue: float | None
    totalCurrency: str | None
    buyerLegalType: str | None
    buyerParties: list[Party]
    lots: list[Lot]
    winnerParties: list[Winner]
    source: str
    licence: str


class ContractBuyer(BaseModel):
    name: str | None
    nationalId: str | None
    country: str | None


class Contract(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: int
    source: str = Field(
        description="`ted_eforms`, `cz_registr_smluv` or `sk_crz` (see `/public/data-sources`)"
    )
    role: Literal["supplier", "counterparty"] = Field(
        description="`supplier`: the publisher names this company as the winner or the payment's recipient; "
        "`counterparty`: the Czech register names it as the other party of a public body's contract without "
        "saying which side supplies"
    )
    title: str | None
    buyer: ContractBuyer
    value: float | None
    currency: str | None
    valueBasis: str | None = Field(
        description="`awarded` (TED), `net` or `gross` of VAT, `foreign` (a foreign-"
        "currency value); CRZ: `total` (with amendments) or `contract` (its own sum)"
    )
    signedOn: str | None
    publishedOn: str | None
    link: str | None = Field(description="The record at its publisher")
    notice: str | None = Field(description="`/ted/notice/{pub}` key for TED awards")
    match: Link | None


class SourceRef(BaseModel):
    id: str
    name: str
    licence: str
    attribution: str


class Bank(BaseModel):
    code: str | None = Field(description="National bank code inside the IBAN")
    name: str | None
    bic: str | None


class Iban(BaseModel):
    iban: str | None = Field(description="Compact IBAN; null for a foreign account that is not an IBAN")
    formatted: str | None
    country: str | None
    bank: Bank | None


class VatPayer(BaseModel):
    country: str
    vatId: str
    status: Literal["reliable", "unreliable", "not_found", "active", "exempt", "not_registered"] = Field(
        description="CZ: the register's reliability verdict (`reliable`, `unreliable`), `not_found`: not a "
        "VAT payer. PL: the white list's VAT status (`active`, `exempt`, `not_registered`)"
    )
    unreliableSince: str | None
    taxOffice: str | None
    answeredOn: str | None = Field(description="Day the register gave this answer")
    source: SourceRef


class PublishedAccount(Iban):
    account: str = Field(description="As the register publishes it (`prefix-number/bank` for Czech accounts)")
    publishedFrom: str | None
    publishedUntil: str | None
    current: bool
    vatId: str
    source: str


class CompanyBankAccounts(BaseModel):
    vatPayers: list[VatPayer]
    accounts: list[PublishedAccount]
    covered: bool = Field(
        description="Whether a register of published accounts is imported for the company's "
        "country (false: an empty list means nothing)"
    )


class IbanMatch(BaseModel):
    company: CompanyRef | None
    vatId: str
    payerStatus: str
    publishedFrom: str | None
    publishedUntil: str | None
    current: bool
    answeredOn: str | None
    source: SourceRef


class IbanLookup(Iban):
    found: bool
    covered: bool = Field(
        description="Whether the IBAN's country has an imported register of published accounts"
    )
    matches: list[IbanMatch]


class IbanVerifyIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ico: str = Field(min_length=1, max_length=40, description="The company's national identifier")
    country: str | None = Field(
        default=None,
        min_length=2,
        max_length=2,
        description="Its country (default: SK first, 409 when ambiguous)",
    )
    iban: str = Field(min_length=1, max_length=64, description="IBAN in any spacing or case")


class IbanVerification(Iban):
    company: CompanyRef
    belongs: Literal["yes", "no", "unknown"]
    reason: str
    source: SourceRef | None
    asOf: str | None = Field(description="Day of the register's answer the verdict rests on")


class Span(BaseModel):
    start: int
    end: int


class BankCodeSpec(BaseModel):
    country: str
    ibanLength: int
    ibanSpec: str
    bbanSpec: str
    sepa: bool
    bankCode: Span | None = Field(description="Position of the bank code inside the BBAN")
    branchCode: Span | None
    accountCode: Span | None
    bankRegistry: bool = Field(description="Whether national bank codes are known for this country")
    bankCount: int


class BankCodeSpecs(BaseModel):
    source: str
    countries: list[BankCodeSpec]


class BankEntry(BaseModel):
    name: str
    shortName: str | None
    bic: str | None
    primary: bool


class BankCode(BaseModel):
    country: str
    code: str
    banks: list[BankEntry]
    source: str


class VatValidation(BaseModel):
    vat: str = Field(description="Prefix and number, compact")
    memberState: str = Field(description="VIES member-state code (EL for Greece)")
    country: str = Field(description="ISO 3166-1 alpha-2")
    number: str
    formatValid: bool
    formatReason: str | None
    status: Literal["valid", "invalid", "unavailable", "format_invalid"]
    viesResult: str | None = Field(description="VIES `userError` (VALID, INVALID, …)")
    name: str | None
    address: str | None
    requestDate: str | None = Field(description="VIES's timestamp of the check")
    checkedAt: str | None
    reason: str | None = Field(
        description="Why there is no verdict (`unavailable`) or why the format is invalid"
    )
