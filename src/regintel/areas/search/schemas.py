"""Read models of the search routes: what `service.py` and `resolve.py` build and the routes return
(`response_model=Envelope[...]`, so the OpenAPI document is the body)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field
from typing_extensions import TypedDict

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


class ProminenceReason(TypedDict):
    """What ordered namesakes of equal score: active first, then more employees, revenue, age, sources."""

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
