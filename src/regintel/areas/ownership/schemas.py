"""Read models of the ownership area (the OpenAPI document is these)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

NodeType = Literal["company", "person", "entity"]


class SourceRef(BaseModel):
    id: str = Field(description="Source id of the data-source catalogue (`/api/v1/data-sources`)")
    name: str | None = None
    licence: str | None = None


class Personal(BaseModel):
    """A natural person's personal fields: only with a declared `purpose`."""

    birthDate: str | None = Field(description="As published: `YYYY`, `YYYY-MM` (UK PSC) or `YYYY-MM-DD`")
    nationality: str | None
    countryOfResidence: str | None


class Entity(BaseModel):
    id: str = Field(
        description="`c:<COUNTRY>:<national id>` for a company of ours, `p:<person key>` for a "
        "natural person (the key of `/companies/person/{key}`), `n:<hash>` for an entity known "
        "only by name (a foreign company), `lei:<LEI>` for a GLEIF entity not linked to a company"
    )
    type: NodeType
    name: str
    country: str | None = None
    nationalId: str | None = None
    status: str | None = None
    lei: str | None = None
    personal: Personal | None = Field(
        default=None,
        description="Birth date, nationality and residence of a "
        "natural person: null unless a declared `purpose` is given",
    )


class Band(BaseModel):
    kind: Literal["shares", "votes", "surplus"]
    moreThan: float = Field(description="Exclusive lower bound, percent")
    upTo: float | None = Field(description="Inclusive upper bound, percent (null: up to 100)")


class Relation(BaseModel):
    role: str = Field(
        description="`director`, `statutory_body`, `shareholder`, `beneficial_owner`, or a "
        "register's other role"
    )
    title: str | None = Field(description="The register's own title (konateľ, GLEIF consolidation kind, …)")
    holder: Entity
    since: date | None
    until: date | None
    active: bool
    sharePct: float | None = Field(description="Share of capital in percent; for a band, its lower bound")
    votingPct: float | None
    bands: list[Band] = Field(description="Published share and vote bands (UK PSC)")
    naturesOfControl: list[str] | None = Field(description="As published by the source (UK PSC)")
    source: SourceRef


class Relations(BaseModel):
    company: Entity
    directors: list[Relation] = Field(description="Directors and other members of statutory bodies")
    shareholders: list[Relation] = Field(
        description="Shareholders of record, and parent companies from "
        "GLEIF accounting-consolidation relationships"
    )
    beneficialOwners: list[Relation]
    otherRoles: list[Relation]
    holdings: list[Relation] = Field(
        description="Stakes this company holds in other companies (the held company is `holder` here)"
    )


class PathStep(BaseModel):
    owner: str = Field(description="Entity id")
    owned: str
    sharePct: float | None
    moreThan: bool = Field(description="The share is a band's exclusive lower bound")
    control: bool = Field(
        description="This stake gives control: more than 50% of shares or votes, "
        "accounting consolidation or the right to appoint the board"
    )
    sources: list[str]


class OwnershipPath(BaseModel):
    nodes: list[str] = Field(description="Entity ids, owner first, this company last")
    steps: list[PathStep]
    sharePct: float | None = Field(description="The product of the steps' shares; null when one is unknown")
    control: bool = Field(description="Every step gives control")


class UltimateOwner(BaseModel):
    entity: str = Field(description="Entity id (see `entities`)")
    end: Literal["no_owners", "cycle", "depth_limit"] = Field(
        description="Why the walk stopped here: `no_owners` (no owner on record: a natural person, or an "
        "entity whose owners are unknown), `cycle` (owned only from inside an ownership loop), `depth_limit`"
    )
    sharePct: float = Field(
        description="Sum of the known path shares (a lower bound when `shareComplete` is false)"
    )
    shareComplete: bool
    control: bool = Field(description="Controls the company along at least one path")
    meets25: bool | None = Field(
        description="More than 25% (ownership, or stakes through controlled entities, "
        "or control); null when the published shares cannot tell"
    )
    meets50: bool | None = Field(description="More than 50%, or control; null when the data cannot tell")
    unknownReasons: list[UnknownReason] = Field(description="Why the owners of this entity are unknown")
    paths: list[OwnershipPath]


class UnknownReason(BaseModel):
    code: str = Field(
        description="A GLEIF ExceptionReason (`NATURAL_PERSONS`, `NON_CONSOLIDATING`, "
        "`NO_KNOWN_PERSON`, `NON_PUBLIC`, …) or `NO_OWNER_DATA`, `NOT_IN_DATABASE`, `CYCLE`, "
        "`DEPTH_LIMIT`, `SHARES_UNKNOWN`"
    )
    category: str | None = Field(
        default=None, description="GLEIF ExceptionCategory (DIRECT_/ULTIMATE_ACCOUNTING_CONSOLIDATION_PARENT)"
    )
    message: str
    lei: str | None = None
    reference: str | None = None
    source: str | None = None


class GleifParent(BaseModel):
    kind: str = Field(description="`direct` or `ultimate` accounting-consolidation parent")
    lei: str
    name: str | None
    country: str | None
    entity: str | None = Field(description="Entity id when the parent is a company of ours")
    status: str | None
    sharePct: float | None


class UltimateOwnerResult(BaseModel):
    company: Entity
    thresholds: list[int]
    owners: list[UltimateOwner] = Field(
        description="Where every ownership path ends, controlling owners and larger shares first"
    )
    beneficialOwners25: list[str] = Field(description="Entity ids that meet 25% (AMLD beneficial owners)")
    beneficialOwners50: list[str] = Field(description="Entity ids that meet 50% (control)")
    undetermined: list[str] = Field(
        description="Entity ids whose 25% test the published shares cannot decide"
    )
    ownerKnown: bool = Field(description="At least one natural person meets 25%")
    unknownReasons: list[UnknownReason] = Field(
        description="Why the ultimate owner is not known, when it is not"
    )
    gleifParents: list[GleifParent] = Field(description="Parents GLEIF reports for this company's LEI")
    cycles: list[list[str]] = Field(description="Ownership loops met on the way, each once")
    entities: dict[str, Entity]
    maxDepth: int
    truncated: bool = Field(description="More paths exist than the path budget")


class GraphNode(BaseModel):
    entity: Entity
    depth: int = Field(description="Hops from the company")
    inCycle: bool = Field(description="On an ownership loop")


class GraphEdge(BaseModel):
    source: str = Field(description="Entity id of the holder or parent")
    target: str = Field(description="Entity id of the company held or served")
    type: str = Field(
        description="The role (`director`, `shareholder`, `beneficial_owner`, …) or "
        "`ownership` (a company-to-company edge of GLEIF or a register)"
    )
    sharePct: float | None
    since: date | None
    until: date | None
    active: bool
    inCycle: bool = Field(description="Both ends on the same ownership loop")
    sources: list[str]
    bands: list[Band] = Field(default_factory=list, description="Published share and vote bands (UK PSC)")


class Graph(BaseModel):
    root: str
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    depth: int
    truncated: bool = Field(description="The node `limit` cut the graph")


class SharedPerson(BaseModel):
    person: Entity
    rolesHere: list[str]
    rolesThere: list[str]


class NetworkLink(BaseModel):
    company: Entity
    sharedPeople: list[SharedPerson]


class Network(BaseModel):
    company: Entity
    links: list[NetworkLink]


class PscMatchBasis(BaseModel):
    """Why a corporate PSC known only by name is taken for this company: each feature compared."""

    name: bool = Field(description="The PSC's normalised name is this company's")
    country: bool | None = Field(
        description="The country the PSC entry gives is this company's (null: the entry gives none)"
    )
    registrationNumber: bool | None = Field(
        description="The registration number the PSC entry gives is this company's national id (null: "
        "none given, or not a register number of this company's country)"
    )
    pscCountry: str | None = Field(
        description="The country read from the entry's identification (ISO alpha-2)"
    )
    pscRegistrationNumber: str | None = Field(description="The entry's registration number")


class UkConnection(BaseModel):
    kind: Literal["psc_of_this_company", "this_company_is_psc", "person_is_psc"]
    match: Literal["identifier", "registration_number", "name_country", "person_key", "name"] = Field(
        description="How the link was found: the company's own key (`identifier`), a corporate PSC's "
        "registration number and country (`registration_number`), its normalised name and country "
        "(`name_country`), the same person record (`person_key`), or the same normalised name alone "
        "(`name`: a lead, not a finding)"
    )
    basis: PscMatchBasis | None = Field(
        default=None,
        description="For a corporate PSC matched without a company key: the features compared",
    )
    ukCompany: Entity
    psc: Relation
    via: Entity | None = Field(
        description="This company's officer or owner the PSC entry names (person_is_psc)"
    )


class UkConnections(BaseModel):
    company: Entity
    connections: list[UkConnection]


class OffshoreLink(BaseModel):
    entity: Entity
    jurisdiction: str = Field(description="ISO 3166 code of the jurisdiction")
    jurisdictionName: str
    fsfGroup: int = Field(description="Group of the FSF 2000 offshore-centre list (I, II or III as 1-3)")
    basis: str = Field(
        description="What places the entity there: `registered` (company register), "
        "`lei_jurisdiction` / `lei_country` (GLEIF), `residence` / `nationality` (a person, only "
        "with a declared purpose)"
    )
    relation: str = Field(description="How it links to the company: the role or GLEIF relationship")
    path: list[str] = Field(description="Entity ids from this company to the offshore entity")


class OffshoreLinks(BaseModel):
    company: Entity
    links: list[OffshoreLink]
    jurisdictions: str = Field(description="The list used (see docs/ownership.md)")
    depth: int


UltimateOwner.model_rebuild()
