"""Typed read models of the legal-records routes (the OpenAPI document is the body)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class CompanyRef(BaseModel):
    country: str
    nationalId: str
    name: str


class Match(BaseModel):
    """How a named party was linked to a company (docs/legal-records.md, "Linking")."""

    method: Literal["identifier", "name"] = Field(
        description="`identifier`: the IČO the publisher gave; `name`: "
        "name (and address) through the resolver"
    )
    score: float = Field(
        description="1.0 for an identifier; the resolver's score (never below 0.9) for a name"
    )
    company: CompanyRef


class Party(BaseModel):
    name: str
    nationalId: str | None = Field(
        description="IČO as published, normalised; null when the publisher gave none"
    )
    role: str | None = Field(description="The party's standing as published (žalobca, účastník konania, …)")
    match: Match | None = Field(description="The company this party is, when linked")


class SourceRef(BaseModel):
    source: str = Field(description="Source id, see `/public/data-sources`")
    licence: str | None
    attribution: str | None
    importedAt: str = Field(description="When this record was last written by an import (UTC)")


class Court(BaseModel):
    id: str | None = Field(description="The publisher's court id")
    name: str


class DecisionSummary(BaseModel):
    guid: str = Field(description="Key of `/justice/decision/{guid}`")
    court: Court
    fileRef: str | None = Field(description="Spisová značka")
    ecli: str | None
    decidedOn: str | None
    form: str | None = Field(description="Rozsudok, uznesenie, platobný rozkaz, …")
    nature: str | None = Field(description="Povaha rozhodnutia (prvotné, konečné, …)")
    area: str | None
    subarea: str | None
    documentUrl: str | None = Field(description="The decision's page at the publisher")
    parties: list[Party] = Field(
        description="Legal persons the decision names (natural persons are anonymised by the publisher)"
    )


class Decision(DecisionSummary):
    judge: str | None
    identifier: str | None = Field(description="Identifikačné číslo spisu")
    regulations: list[str] = Field(description="Regulations the decision cites")
    sources: list[SourceRef]


class Ruling(BaseModel):
    instance: str = Field(description="Who ruled: the Office's Council, an administrative court, …")
    decidedOn: str | None
    outcome: str
    reference: str | None


class AntitrustCase(BaseModel):
    caseRef: str = Field(description="The Office's decision number")
    kind: Literal["cartel", "merger", "abuse", "state_aid", "other"]
    title: str | None
    decidedOn: str | None
    finalOn: str | None = Field(description="Date the decision became final (právoplatnosť), when published")
    verdict: str | None = Field(description="The operative part (výrok) as published")
    fine: float | None = Field(description="Fine in major units, with `currency`")
    currency: str | None
    link: str | None
    rulings: list[Ruling] = Field(description="Later rulings on the decision (appeal to the Council, courts)")
    parties: list[Party]
    sources: list[SourceRef]


class Permit(BaseModel):
    number: str
    kind: str | None
    issuedOn: str | None
    finalOn: str | None
    link: str | None


class Installation(BaseModel):
    installationId: str
    name: str
    operator: Party
    address: str | None
    municipality: str | None
    activityCode: str | None = Field(description="Category of annex 1 of Act 39/2013 Coll.")
    activity: str | None
    latitude: float | None = Field(
        description="WGS 84, only when the register gives it (nothing is geocoded)"
    )
    longitude: float | None
    inspections: int = Field(description="Controls by the Slovak Environmental Inspectorate")
    inspectionsWithFindings: int
    lastInspectionOn: str | None
    permits: list[Permit]
    link: str | None
    sources: list[SourceRef]


class Environmental(BaseModel):
    installations: list[Installation]
    totals: dict[str, int] = Field(
        description="`installations`, `permits`, `inspections`, `inspectionsWithFindings`"
    )


class SbirkaEntry(BaseModel):
    iri: str = Field(description="The act's ELI IRI in the e-Sbírka open data")
    number: int
    year: int
    citation: str = Field(description="`<number>/<year> Sb.`")
    type: str | None
    title: str
    promulgatedOn: str | None
    effectiveOn: str | None
    link: str
    nameAsWritten: str = Field(description="The company's name as the act writes it")
    excerpt: str | None = Field(description="The words around the mention")
    match: Match | None
    sources: list[SourceRef]


class Location(BaseModel):
    kind: Literal["registered_address", "ipkz_installation", "antitrust_party_address"]
    label: str
    address: str | None
    latitude: float | None = Field(description="Only when the source gives coordinates (no online geocoding)")
    longitude: float | None
    source: str = Field(description="Source id, see `/public/data-sources`")
    reference: str | None = Field(
        description="The record this point comes from (installation id, case number)"
    )
    match: Literal["identifier", "name"] = Field(description="How the record was linked to the company")
    matchScore: float
