"""Typed read models of the regulated area's routes (the OpenAPI document is the body)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Status = Literal["active", "suspended", "ended"]


class SourceRef(BaseModel):
    id: str = Field(description="Data source id (`/public/data-sources`)")
    licence: str | None
    attribution: str | None
    retrievedAt: str | None = Field(description="When the list was last imported (UTC)")


class Match(BaseModel):
    """How the register row was linked to this company (docs/regulated.md, "Linking")."""

    method: Literal["identifier", "name"] = Field(
        description="`identifier`: the IČO the register gives; `name`: name and town through the resolver"
    )
    score: float = Field(description="1.0 for an identifier; the resolver's score (at least 0.9) for a name")


class Nis2Flag(BaseModel):
    annex: str = Field(description="Annex of Directive (EU) 2022/2555")
    sector: str = Field(description="Annex sector, numbered as in the directive (`3 Banking`)")
    subsector: str | None
    lexSpecialis: str | None = Field(
        description="Set when DORA applies instead of NIS2 Art. 20, 21, 23 and Chapter VII"
    )


class DoraFlag(BaseModel):
    applies: Literal["yes", "no", "possible", "unknown"] = Field(
        description="`possible`: a type DORA covers unless an Art. 2(3) exemption (size) applies"
    )
    article: str | None = Field(
        description="Regulation (EU) 2022/2554 article that covers or leaves out the type"
    )
    note: str | None


class FinancialAuthorisation(BaseModel):
    country: str
    name: str = Field(description="The entity's name as the register writes it")
    nationalId: str | None
    licenceType: str = Field(description="Type of entity or authorisation as published")
    licenceNumber: str | None
    category: str = Field(description="Normalised category (credit_institution, insurance_undertaking, ...)")
    status: Status
    statusText: str | None = Field(description="Status as published")
    grantedOn: str | None
    endedOn: str | None
    dora: DoraFlag
    nis2: Nis2Flag | None
    match: Match | None
    source: SourceRef = Field(
        description="The register: `sk_nbs` (Národná banka Slovenska) or `cz_cnb_jerrs` (ČNB)"
    )


class FinancialSupervision(BaseModel):
    supervised: bool = Field(description="At least one current authorisation")
    dora: Literal["yes", "no", "possible", "unknown"] | None = Field(
        description="The strongest DORA answer of the current authorisations (null without any)"
    )
    nis2Sectors: list[str] = Field(description="NIS2 Annex I sectors of the current authorisations")
    authorisations: list[FinancialAuthorisation]


class EnergyLicence(BaseModel):
    country: str
    name: str
    nationalId: str | None
    licenceNumber: str | None
    licenceType: str = Field(description="Kind of licence or permit as published")
    activity: str = Field(
        description="electricity_generation, gas_distribution, heat_distribution, "
        "drinking_water, waste_water, ... or `other`"
    )
    status: Status
    statusText: str | None
    grantedOn: str | None
    validUntil: str | None
    endedOn: str | None
    nis2: Nis2Flag | None
    match: Match | None
    source: SourceRef = Field(description="The register: `sk_urso` (ÚRSO) or `cz_eru` (ERÚ)")


class EnergyRegulation(BaseModel):
    licensed: bool = Field(description="At least one current licence")
    activities: list[str] = Field(description="Activities of the current licences")
    nis2Sectors: list[str]
    licences: list[EnergyLicence]


class Firm(BaseModel):
    name: str | None
    nationalId: str | None


class Contact(BaseModel):
    address: str | None
    phone: str | None
    email: str | None
    website: str | None


class LicensedRole(BaseModel):
    role: Literal["lawyer", "notary", "bailiff", "expert", "interpreter", "translator", "tax_adviser"]
    name: str
    title: str | None
    registrationNumber: str = Field(description="The list's registration number")
    specialisation: str | None = Field(
        description="An expert's field, an interpreter's or translator's language"
    )
    status: Status
    since: str | None
    firm: Firm = Field(description="The firm or office the professional practises through, as published")
    contact: Contact | None = Field(
        description="As published; only with a declared `purpose` (natural persons)"
    )
    match: Match | None
    source: SourceRef
