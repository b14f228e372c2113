"""Read models of the search routes: what `service.py`, `resolve.py`, `advanced_search.py` and
`reconcile.py` build and the routes return (`response_model=...`, so the OpenAPI document is the body).

The advanced-search hit and the reconciliation answers are closed TypedDicts (`extra="forbid"`:
`additionalProperties: false` in the document), each built in one function that mypy checks key by key;
`tests/search/test_read_models.py` validates served bodies against them."""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import BaseModel, ConfigDict, Field, with_config
from typing_extensions import TypedDict

from regintel.areas.companies.schemas import CompanySummary

_CLOSED = ConfigDict(extra="forbid")

MatchedBy = Literal["name", "national_id", "vat", "lei", "tax_id"]


# The hits of search and autocomplete, the hot paths, are TypedDicts: built as plain dicts (no
# validation, measured at about 0.5 ms of a 20-hit page as pydantic models) and checked by mypy.


class MatchReason(TypedDict):
    feature: Annotated[
        str,
        Field(
            description="`name`, `legalForm`, `country`, `location` or `identifier:<kind>` "
            "(`national_id`, `vat`, `lei`, `tax_id`)"
        ),
    ]
    value: Annotated[
        str | None, Field(description="What matched: the name, legal form, country, town or identifier")
    ]
    score: Annotated[float, Field(description="How well it matched, 0 to 1")]


class ProminenceValue(TypedDict, total=False):
    """`active` always; the others where known."""

    active: bool
    employees: int
    revenue: float
    foundedOn: str
    sources: int
    countryTurn: Annotated[
        int,
        Field(
            description="When the typed legal form is used in several countries and no country was "
            "given: the company's turn among equally scored namesakes of its country (1: its "
            "country's first, shown before any country's second)"
        ),
    ]


class ProminenceReason(TypedDict):
    """What ordered namesakes of equal score: active first, then more employees, revenue, age, sources;
    by turns of country when the typed legal form is used in several (`countryTurn`)."""

    feature: Literal["prominence"]
    value: ProminenceValue


class SearchCompany(TypedDict):
    """The short company record of search results."""

    country: Annotated[str, Field(description="ISO 3166-1 alpha-2")]
    nationalId: Annotated[str, Field(description="The national register number")]
    ico: Annotated[str, Field(description="Same as `nationalId` (the spec's name)")]
    name: str
    legalForm: Annotated[str | None, Field(description="Legal form code of the register")]
    status: str | None
    city: str | None
    postalCode: str | None
    address: Annotated[str | None, Field(description="The registered address as one line")]
    inBankruptcy: bool


Highlight = Annotated[
    str, Field(description="The name, HTML-escaped, with matched parts in `<mark>…</mark>`")
]


class CompanyHit(SearchCompany):
    score: Annotated[float, Field(description="Similarity to the query, 0 to 1")]
    matchedBy: Annotated[MatchedBy, Field(description="`name`, or the kind of identifier typed")]
    reasons: Annotated[
        list[MatchReason | ProminenceReason], Field(description="What decided the place of the result")
    ]


class Suggestion(SearchCompany):
    score: Annotated[float, Field(description="Similarity to the query, 0 to 1")]
    highlight: Highlight
    reasons: list[MatchReason | ProminenceReason]


class PublicSuggestion(TypedDict):
    country: str
    nationalId: str
    name: str
    legalForm: str | None
    city: str | None
    highlight: Highlight


class AddressHit(BaseModel):
    address: str | None
    street: str | None
    city: str | None
    postalCode: str | None
    country: str
    companies: int = Field(description="Companies registered at this address")
    score: float
    highlight: str


class IdentifierHit(TypedDict):
    type: str  # national_id | vat | lei | tax_id
    value: str


class MatchFeatures(TypedDict, total=False):
    """The features that scored a candidate (absent when the evidence did not give it): `name`
    similarity, `location` (share of the given town or address words found), `legal_form`, `country`
    (given or named in the query) and the `identifiers` that found it."""

    name: float
    location: float
    legal_form: float
    country: bool
    identifiers: list[IdentifierHit]


class MatchCandidate(BaseModel):
    company: SearchCompany
    score: float = Field(description="0 to 1")
    match: bool = Field(description="`score` ≥ the threshold")
    features: MatchFeatures


class Resolved(BaseModel):
    entity: SearchCompany
    score: float = Field(description="0 to 1")
    reasons: list[MatchReason | ProminenceReason]
    alternatives: list[MatchCandidate] = Field(description="The next best candidates, at most 5")


# Reconciliation API 0.2 suggest services: the protocol's own shapes, answered bare (no envelope).


class TypeRef(BaseModel):
    id: str
    name: str


class EntitySuggestion(BaseModel):
    id: str = Field(description="`<country>:<national id>`, e.g. `SK:31322832`")
    name: str
    description: str = Field(description="Country and register number, town, status")
    notable: list[TypeRef]


class PropertySuggestion(BaseModel):
    id: str
    name: str
    description: str


class EntitySuggestions(BaseModel):
    result: list[EntitySuggestion]


class PropertySuggestions(BaseModel):
    result: list[PropertySuggestion]


class TypeSuggestions(BaseModel):
    result: list[TypeRef]


# `/companies/advanced-search`: the compact company record and its latest statement's figures.


@with_config(_CLOSED)
class HitFinancials(TypedDict):
    """Latest financial statement: year, currency and figures in major units."""

    year: int
    currency: str
    revenue: float | None
    profit: float | None
    totalAssets: float | None
    equity: float | None
    liabilities: float | None
    employees: int | None
    source: str


@with_config(_CLOSED)
class AdvancedSearchHit(CompanySummary):
    latestFinancials: Annotated[
        HitFinancials | None,
        Field(description="Latest financial statement: year, currency and figures in major units"),
    ]


# The Reconciliation API 0.2 documents (manifest, query batch answer, data extension, property
# proposal): the protocol's shapes (../shared/schemas/reconcile/0.2), answered bare.


@with_config(_CLOSED)
class ReconType(TypedDict):
    id: str
    name: str


@with_config(_CLOSED)
class ServiceUrl(TypedDict):
    url: str


@with_config(_CLOSED)
class PreviewService(TypedDict):
    url: str
    width: int
    height: int


@with_config(_CLOSED)
class ServicePath(TypedDict):
    service_url: str
    service_path: str


@with_config(_CLOSED)
class SuggestServices(TypedDict):
    entity: ServicePath
    property: ServicePath
    type: ServicePath


@with_config(_CLOSED)
class ExtendServices(TypedDict):
    propose_properties: ServicePath
    property_settings: Annotated[
        list[dict[str, Any]], Field(description="Settings of fetched properties (none: always empty)")
    ]


# `in` is a Python keyword: the functional form.
ManifestAuthentication = TypedDict(
    "ManifestAuthentication",
    {"type": Literal["apiKey"], "name": str, "in": Literal["query"], "description": str},
)
ManifestAuthentication.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]


@with_config(_CLOSED)
class Manifest(TypedDict):
    """The service manifest; every URL it names carries the key it was asked with (`?api_key=`)."""

    versions: list[str]
    name: str
    identifierSpace: str
    schemaSpace: str
    serviceVersion: str
    documentation: str
    defaultTypes: list[ReconType]
    view: ServiceUrl
    preview: PreviewService
    suggest: SuggestServices
    extend: ExtendServices
    authentication: ManifestAuthentication


@with_config(_CLOSED)
class ReconFeature(TypedDict):
    id: Annotated[
        str, Field(description="`name_similarity`, `location`, `legal_form`, `country`, `identifier`")
    ]
    value: float | bool


@with_config(_CLOSED)
class ReconCandidate(TypedDict):
    id: Annotated[str, Field(description="`<country>:<national id>`, e.g. `SK:31322832`")]
    name: str
    score: Annotated[float, Field(description="0 to 100")]
    match: Annotated[
        bool, Field(description="The first candidate, scoring 90 or more and 5 ahead of the next")
    ]
    type: list[ReconType]
    description: str
    features: list[ReconFeature]


@with_config(_CLOSED)
class ReconResults(TypedDict):
    result: list[ReconCandidate]


ReconcileBatch = dict[str, ReconResults]  # query id -> its candidates


@with_config(_CLOSED)
class PropertyRef(TypedDict):
    id: str
    name: str


# A property value in the 0.2 value forms this service writes (`str`, `date` as an ISO date-time).
StrValue = TypedDict("StrValue", {"str": str})  # noqa: UP013 (a key named `str`)
StrValue.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]
DateValue = TypedDict("DateValue", {"date": str})  # noqa: UP013
DateValue.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]
PropertyValue = StrValue | DateValue


@with_config(_CLOSED)
class ExtendAnswer(TypedDict):
    """Data extension: the properties asked for, in order, and per entity id each property's values
    (empty for an unknown entity or property)."""

    meta: list[PropertyRef]
    rows: dict[str, dict[str, list[PropertyValue]]]


@with_config(_CLOSED)
class PropertyProposal(TypedDict):
    type: str
    properties: list[PropertyRef]
    limit: NotRequired[int]
