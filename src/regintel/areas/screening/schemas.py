"""Request bodies and response models of the screening area."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, field_validator

from regintel.domain.screening import DEFAULT_THRESHOLD
from regintel.ingest.sources.sanctions_common import sanction_sources

LIST_IDS = sorted(sanction_sources())


def _known_list(value: str) -> str:
    if value not in LIST_IDS:
        raise ValueError(f"not a list this server knows; the lists are: {', '.join(LIST_IDS)}")
    return value


# A list the server knows but has not imported is answered 501 NOT_IMPLEMENTED naming it (service.py).
ListId = Annotated[str, AfterValidator(_known_list), WithJsonSchema({"type": "string", "enum": LIST_IDS})]

Schema = Literal["person", "organization", "vessel", "aircraft"]
_DATE = r"^\d{4}(-\d{2}(-\d{2})?)?$"


class NameQuery(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(
        min_length=1,
        max_length=300,
        description="The name to screen, any script",
    )
    threshold: float = Field(
        DEFAULT_THRESHOLD, ge=0.0, le=1.0, description="Hits scoring at least this are returned (0-1)"
    )
    limit: int = Field(10, ge=1, le=50, description="At most this many hits, best first")
    lists: list[ListId] | None = Field(
        None,
        max_length=20,
        description="Only these lists (source ids, e.g. `sanctions_un`); default every imported list. "
        "A list that is not imported on this server answers 501 `NOT_IMPLEMENTED` naming it",
    )

    @field_validator("name")
    @classmethod
    def _has_letters(cls, value: str) -> str:
        if not any(ch.isalnum() for ch in value):
            raise ValueError("the name has no letters or digits")
        return value


class EntityQuery(NameQuery):
    schema_: Schema | None = Field(
        None,
        alias="schema",
        description="What is screened; a person against "
        "an organisation scores lower (feature `schema_mismatch`)",
    )
    countries: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="ISO 3166-1 alpha-2 countries (nationality, residence, seat)",
    )
    birth_date: str | None = Field(None, pattern=_DATE, description="`YYYY`, `YYYY-MM` or `YYYY-MM-DD`")
    identifiers: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Passport, registration, tax or IMO numbers; compared without spaces and punctuation",
    )

    @field_validator("countries")
    @classmethod
    def _iso2(cls, values: list[str]) -> list[str]:
        import pycountry

        out = []
        for v in values:
            if len(v) != 2 or pycountry.countries.get(alpha_2=v.upper()) is None:
                raise ValueError(f"{v!r} is not an ISO 3166-1 alpha-2 country")
            out.append(v.upper())
        return out

    @field_validator("identifiers")
    @classmethod
    def _short(cls, values: list[str]) -> list[str]:
        if any(len(v) > 64 for v in values):
            raise ValueError("an identifier is longer than 64 characters")
        return values


class FeatureOut(BaseModel):
    name: str = Field(description="Feature id, e.g. `name_query_tokens`, `birth_date_match`, `weak_alias`")
    value: float = Field(description="Measured value, 0-1")
    weight: float = Field(description="Weight of the feature in the algorithm (negative: a penalty)")
    contribution: float = Field(description="value x weight; the score is their sum, clipped to 0-1")
    description: str


class ListedNameOut(BaseModel):
    name: str
    kind: Literal["primary", "alias", "weak"] = Field(description="`weak`: a weak (low-quality) alias")


class IdentifierOut(BaseModel):
    type: str
    value: str
    country: str | None


class ListRef(BaseModel):
    id: str = Field(description="Source id, as in `/public/data-sources`")
    name: str


class ScreenHit(BaseModel):
    id: str = Field(description="`<list>:<publisher's id>`")
    list_: ListRef = Field(alias="list", description="The list it is on")
    schema_: str = Field(alias="schema", description="person, organization, vessel or aircraft")
    caption: str
    topics: list[str] = Field(description="`sanction`, `debarment`")
    programmes: list[str]
    listed_on: str | None
    score: float
    matched_name: str
    matched_name_kind: str
    features: list[FeatureOut]
    names: list[ListedNameOut]
    countries: list[str]
    birth_dates: list[str]
    identifiers: list[IdentifierOut]
    remarks: str | None

    model_config = ConfigDict(populate_by_name=True)


class QueryEcho(BaseModel):
    name: str
    normalized_name: str = Field(description="Transliterated, folded tokens the matcher compared")
    schema_: str | None = Field(None, alias="schema")
    countries: list[str] = []
    birth_date: str | None = None
    identifiers: list[str] = []

    model_config = ConfigDict(populate_by_name=True)


class ListVersion(BaseModel):
    id: str
    name: str
    entry_count: int
    version: int
    imported_at: str | None


class ScreenResult(BaseModel):
    query: QueryEcho
    threshold: float
    algorithm: str = Field(description="Version of the matching algorithm and its weights")
    hits: list[ScreenHit]
    lists: list[ListVersion] = Field(description="The lists screened against, with their versions")


class SubjectHits(BaseModel):
    subject: Literal["company", "officer", "owner"]
    role: str | None
    name: str
    hits: list[ScreenHit]


class CompanySanctions(BaseModel):
    country: str
    national_id: str
    name: str
    threshold: float
    algorithm: str
    hit_count: int
    subjects: list[SubjectHits] = Field(
        description="The company, its current officers and owners, each with its hits"
    )
    natural_persons_screened: bool = Field(
        description="False without a declared `purpose`: officers and "
        "owners who are natural persons are then left out"
    )
    lists: list[ListVersion]


class SanctionedCompany(BaseModel):
    country: str
    national_id: str
    name: str
    best_score: float
    hit_count: int
    hits: list[dict[str, object]]


class SanctionsStats(BaseModel):
    mode: str
    total: int = Field(description="Companies with at least one hit of this mode")
    items: list[SanctionedCompany] = Field(description="At most 100, best score first")
    lists: list[ListVersion]
