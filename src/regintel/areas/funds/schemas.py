"""Typed read models of the funds routes (the OpenAPI document is the body; the services build these)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, Field

MatchMethod = Literal["identifier", "vat", "name"]


class Match(BaseModel):
    """How the published beneficiary was linked to this company (docs/funds.md, "Linking")."""

    method: MatchMethod = Field(
        description="`identifier`: the national register number the publisher gave; "
        "`vat`: its VAT number; `name`: name and country through the resolver"
    )
    score: float = Field(
        description="1.0 for an identifier or VAT number; the resolver's score (never below 0.9) for a name"
    )


class Beneficiary(BaseModel):
    name: str = Field(description="As the publisher writes it")
    nationalId: str | None = Field(description="Register number as published")
    vat: str | None = Field(description="VAT number as published, with its member-state prefix")
    country: str | None = Field(description="ISO 3166-1 alpha-2")


class Period(BaseModel):
    start: date | None
    end: date | None


class SourceRef(BaseModel):
    """Where a record came from (the catalogue in `/public/data-sources` has the whole entry)."""

    id: str = Field(description="Source id, e.g. `eu_kohesio`")
    importedAt: datetime = Field(description="When the import run that last wrote this record started")


class EuProject(BaseModel):
    id: int
    project: str | None = Field(description="Project title, or the subject of the grant or contract (FTS)")
    programme: str | None = Field(description="Operational programme (with its CCI code) or EU programme")
    fund: str | None = Field(description="Kohesio: ERDF, CF, ESF+, JTF …; FTS: the funding type")
    amount: float | None = Field(
        description="Kohesio: the project's total budget; FTS: the amount contracted with this recipient"
    )
    euContribution: float | None = Field(description="The EU's share of `amount`")
    currency: str = Field(description="ISO 4217 (EUR for both sources)")
    period: Period
    year: int | None = Field(description="FTS: the financial year of the commitment")
    grantingBody: str | None = Field(description="FTS: the Commission department responsible")
    beneficiary: Beneficiary
    match: Match
    link: str | None = Field(description="The publisher's page for the project or the dataset")
    source: SourceRef


class CordisOrganisation(BaseModel):
    pic: str = Field(description="The organisation's Participant Identification Code")
    name: str
    vat: str | None
    country: str | None
    sme: bool | None
    activityType: str | None = Field(
        description="PRC private company, HES higher education, REC research "
        "organisation, PUB public body, OTH other"
    )


class CordisProject(BaseModel):
    projectId: str = Field(description="Grant agreement number")
    acronym: str | None
    title: str | None = Field(description="Null while the project file of that programme is not imported")
    framework: Literal["H2020", "HORIZON"] | None = Field(description="Horizon 2020 or Horizon Europe")
    fundingScheme: str | None
    status: str | None = Field(description="SIGNED, CLOSED, TERMINATED …")
    period: Period
    totalCost: float | None = Field(description="The project's total cost")
    ecMaxContribution: float | None = Field(description="The EU's maximum contribution to the project")
    role: str = Field(
        description="This organisation's role: coordinator, participant, partner, "
        "associatedPartner, thirdParty"
    )
    ecContribution: float | None = Field(description="The EC contribution to this organisation")
    netEcContribution: float | None
    organisationTotalCost: float | None
    currency: Literal["EUR"]
    participationEnded: bool
    organisation: CordisOrganisation
    match: Match
    link: str
    source: SourceRef


class CzSubsidy(BaseModel):
    id: int
    subsidyNumber: str = Field(description="DotInfo's registration number of the subsidy")
    title: str | None
    purpose: str | None
    programme: str | None
    provider: str | None = Field(description="The granting body")
    amountApproved: float | None
    currency: Literal["CZK"]
    grantedOn: date | None
    year: int | None
    recipient: Beneficiary
    match: Match
    source: SourceRef


class GberAward(BaseModel):
    id: int
    reference: str = Field(description="The award's reference number in the Transparency Award Module")
    saNumber: str | None = Field(description="The aid measure's State aid case number (SA.12345)")
    measureTitle: str | None
    measureType: str = Field(description="Legal basis of the award: GBER here")
    instrument: str | None = Field(description="Direct grant, loan, guarantee, tax advantage …")
    objective: str | None
    nominalAmount: float | None
    aidElement: float | None = Field(description="The gross grant equivalent")
    currency: str = Field(description="ISO 4217, as the granting authority reported it")
    grantedOn: date | None
    grantingAuthority: str | None
    region: str | None
    nace: str | None = Field(description="The beneficiary's sector (NACE group)")
    beneficiary: Beneficiary
    match: Match
    link: str | None = Field(description="The aid measure's case page")
    source: SourceRef


class FundingProject(BaseModel):
    source: str
    title: str | None
    programme: str | None
    euContribution: float | None
    currency: Literal["EUR"]
    period: Period
    link: str | None


class CompanyRef(BaseModel):
    country: str
    nationalId: str
    name: str


class EuFundsSummary(BaseModel):
    company: CompanyRef
    projects: int = Field(
        description="EU-funded projects: cohesion (Kohesio), direct management (FTS) and research (CORDIS)"
    )
    euContribution: float = Field(description="Their EU contributions added up")
    currency: Literal["EUR"]
    topProjects: list[FundingProject] = Field(description="The five largest by EU contribution")
