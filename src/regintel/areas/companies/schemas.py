"""The company read models: what `/companies/{ico}`, the lookups and every list of companies answer.

They are `TypedDict`s, not pydantic models, on purpose: the service builds each answer as a dict of
exactly these keys (`mypy --strict` checks every key and type at the one place it is built), FastAPI
writes the same types into the OpenAPI document (`response_model=Envelope[...]`), and the body goes to
orjson as it is. Validating and dumping a pydantic model of the full record cost about 35 µs against
orjson's 2.5 µs for the dict (docs/architecture.md, "Read models"), on a path whose whole budget is a
few hundred. `tests/api/test_read_models.py` validates served bodies against these types, extra keys
refused, so the document cannot drift from the body. `extra="forbid"` also writes
`additionalProperties: false` into the document.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

_CLOSED = ConfigDict(extra="forbid")


@with_config(_CLOSED)
class LegalForm(TypedDict):
    code: str | None
    name: str | None


@with_config(_CLOSED)
class Address(TypedDict):
    street: str | None
    city: str | None
    postalCode: str | None
    text: str | None
    regionCode: str | None
    districtCode: str | None
    municipalityCode: str | None
    nuts3: str | None


@with_config(_CLOSED)
class NacePrimary(TypedDict):
    primary: str | None


@with_config(_CLOSED)
class Nace(NacePrimary):
    codes: list[str]


@with_config(_CLOSED)
class IdentifierRef(TypedDict):
    type: str
    value: str
    source: str | None


@with_config(_CLOSED)
class CompanySource(TypedDict):
    """A register the record came from, with its licence (DESIGN.md: provenance on every record)."""

    id: str
    name: str | None
    publisher: str | None
    licence: str | None
    attribution: str | None
    url: str | None
    sourceRecordId: str | None
    publishedOn: date | None
    retrievedAt: datetime | None
    firstSeen: datetime | None


@with_config(_CLOSED)
class LatestFinancials(TypedDict):
    year: int
    currency: str
    periodFrom: str | None
    periodTo: str | None
    revenue: float | None
    profit: float | None
    totalAssets: float | None
    equity: float | None
    liabilities: float | None
    employees: int | None
    source: str


@with_config(_CLOSED)
class _CompanyCore(TypedDict):
    country: str
    nationalId: str
    ico: str
    name: str
    legalForm: LegalForm
    status: str
    foundedOn: date | None
    dissolvedOn: date | None
    address: Address
    sizeClass: str | None
    employees: int | None
    vatId: str | None
    taxId: str | None
    lei: str | None
    inBankruptcy: bool
    inRestructuring: bool
    inLiquidation: bool


@with_config(_CLOSED)
class CompanySummary(_CompanyCore):
    """The compact record of list answers (bulk, by-identifier, advanced search): one row, no further
    read."""

    nace: NacePrimary
    updatedAt: datetime | None


@with_config(_CLOSED)
class Company(_CompanyCore):
    """The core company record; the further sections have endpoints of their own."""

    nace: Nace
    identifiers: list[IdentifierRef]
    latestFinancials: LatestFinancials | None
    sources: list[CompanySource]
    updatedAt: datetime | None


@with_config(_CLOSED)
class MatchedBy(TypedDict):
    type: str
    value: str
    source: str | None


@with_config(_CLOSED)
class MatchedCompany(CompanySummary):
    matchedBy: MatchedBy


@with_config(_CLOSED)
class Candidate(TypedDict):
    """How an ambiguous identifier's companies are listed (as in 409 `AMBIGUOUS_IDENTIFIER`)."""

    country: str
    nationalId: str
    name: str


@with_config(_CLOSED)
class LeiFlags(TypedDict):
    isSanctioned: Annotated[
        bool | None,
        Field(
            description="true when an identifier confirms a hit on an imported sanctions or debarment list "
            "(name-only candidates are not findings: see `/companies/{ico}/compliance`); null when no list "
            "is imported or no local company is linked"
        ),
    ]
    hasTaxDebt: Annotated[
        bool | None,
        Field(description="null unless a tax-debtor list of the company's country is imported"),
    ]


TaxReliability = Annotated[
    Literal["reliable", "unreliable", "unknown"],
    Field(
        description="`reliable` or `unreliable` VAT payer (the imported Czech and Polish registers); "
        "`unknown` elsewhere, for a non-payer or without a local company"
    ),
]
CreditGrade = Annotated[
    str | None,
    Field(
        description="Today's credit grade A+…F (`/companies/{ico}/credit-score`); null when the model "
        "withholds it (no statement) or no local company is linked"
    ),
]
Nis2InScope = Annotated[
    bool | None,
    Field(
        description="NIS2 scope (`/companies/{ico}/nis2-scope`), as last assessed; null when the data "
        "cannot decide it, it was not assessed yet, or no local company is linked"
    ),
]


@with_config(_CLOSED)
class LeiFields(TypedDict):
    """The compliance fields of the LEI record, from the compliance area (docs/compliance.md)."""

    taxReliability: TaxReliability
    creditGrade: CreditGrade
    nis2InScope: Nis2InScope
    flags: LeiFlags


@with_config(_CLOSED)
class LeiRecord(TypedDict):
    """The LEI record of spec 2.4: GLEIF's record, the local company it is linked to, the compliance
    fields."""

    lei: str
    ico: Annotated[
        str | None, Field(description="Local national identifier; null when no local company is linked")
    ]
    country: str | None
    name: str
    legalName: str | None
    legalForm: str | None
    taxReliability: TaxReliability
    creditGrade: CreditGrade
    nis2InScope: Nis2InScope
    flags: LeiFlags
    gleifUrl: str
    registrationStatus: Annotated[
        str | None, Field(description="GLEIF registration status: ISSUED, LAPSED, RETIRED, …")
    ]
    entityStatus: str | None
    nextRenewal: datetime | None
    gleifLastUpdate: datetime | None
    status: str | None
    inBankruptcy: bool | None
    inRestructuring: bool | None
    inLiquidation: bool | None
    company: CompanySummary | None


@with_config(_CLOSED)
class BulkAnswer(TypedDict):
    index: Annotated[int, Field(description="Position in the request list, from 0")]
    input: Any
    status: Literal["found", "not_found", "invalid", "ambiguous"]
    reason: NotRequired[str]
    company: NotRequired[CompanySummary]
    candidates: NotRequired[list[Candidate]]


# `from` is a Python keyword: the functional form.
Change = TypedDict(
    "Change",
    {
        "id": int,
        "field": Annotated[
            str,
            Field(
                description="Changed field, `created` for the first sighting, `roles`, "
                "`financials.<year>.<figure>`, `owner.<kind>`"
            ),
        ],
        "from": str | None,
        "to": str | None,
        "source": str,
        "detectedAt": datetime,
    },
)
Change.__pydantic_config__ = _CLOSED  # type: ignore[attr-defined]
