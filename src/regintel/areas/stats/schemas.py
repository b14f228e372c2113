"""The statistics read models: what `/companies/stats`, its breakdown, freshness and shell addresses, and
`/public/stats` and `/public/shell-addresses` answer.

`TypedDict`s, as in `areas/companies/schemas.py` and for the same reason: the service builds each answer
as a dict of exactly these keys (`mypy --strict` checks them where it is built), the snapshot store keeps
it as JSON, FastAPI writes the types into the OpenAPI document (`response_model=Envelope[...]`) and
orjson writes the body as it is. `tests/api/test_stats_read_models.py` validates served bodies against
them, unknown keys refused (`extra="forbid"`, `additionalProperties: false` in the document).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

from regintel.areas.companies.schemas import Candidate

_CLOSED = ConfigDict(extra="forbid")


@with_config(_CLOSED)
class PublicSource(TypedDict):
    id: str
    name: str
    country: str | None
    lastImportAt: datetime | None
    rows: int


@with_config(_CLOSED)
class Source(PublicSource):
    publisher: str
    category: str
    licence: str
    cadence: str


@with_config(_CLOSED)
class ImportRun(TypedDict):
    id: int
    source: str
    status: str
    startedAt: datetime
    finishedAt: datetime | None
    stats: dict[str, Any] | None


@with_config(_CLOSED)
class Totals(TypedDict):
    total: int
    inBankruptcy: int
    inRestructuring: int
    inLiquidation: int
    withLei: int
    withVatId: int
    withFinancials: int


@with_config(_CLOSED)
class CountryOverview(Totals):
    country: str
    byStatus: dict[str, int]


@with_config(_CLOSED)
class Overview(TypedDict):
    """`/companies/stats`: what the database holds."""

    totals: Totals
    byStatus: dict[str, int]
    byCountry: list[CountryOverview]
    sources: list[Source]
    lastImports: list[ImportRun]


@with_config(_CLOSED)
class BreakdownGroup(TypedDict):
    """A group of `/companies/stats/breakdown`. `country` names the register of a national code
    (region, district, municipality); `label` is there for dimensions whose codes a code list names;
    `shell_density` groups carry `addresses` instead of the insolvency figures."""

    key: str | None
    count: int
    share: float
    in_bankruptcy: NotRequired[int]
    in_restructuring: NotRequired[int]
    in_liquidation: NotRequired[int]
    country: NotRequired[str]
    label: NotRequired[str | None]
    addresses: NotRequired[int]


@with_config(_CLOSED)
class SourceFreshness(Source):
    lastRun: ImportRun | None
    companies: int
    oldestLastSeen: datetime | None
    newestLastSeen: datetime | None


@with_config(_CLOSED)
class FieldCoverage(TypedDict):
    companies: int
    share: float


@with_config(_CLOSED)
class CoverageByField(TypedDict):
    lei: FieldCoverage
    financials: FieldCoverage
    nace: FieldCoverage
    address: FieldCoverage
    vat_id: FieldCoverage


@with_config(_CLOSED)
class Freshness(TypedDict):
    """`/companies/stats/freshness`: per source, when it was last imported and seen; coverage."""

    companies: int
    lastUpdate: datetime | None
    coverage: CoverageByField
    sources: list[SourceFreshness]


@with_config(_CLOSED)
class AddressSample(Candidate):
    status: str | None
    inBankruptcy: bool
    inRestructuring: bool
    inLiquidation: bool


@with_config(_CLOSED)
class PublicShellAddress(TypedDict):
    """An address of `/public/shell-addresses`: companies by name and national identifier only."""

    address: str | None
    addressNorm: str
    city: str | None
    postalCode: str | None
    country: str | None
    companies: int
    sample: list[Candidate]


@with_config(_CLOSED)
class ShellAddress(TypedDict):
    """An address of `/companies/stats/shell-addresses`, with its status figures."""

    address: str | None
    addressNorm: str
    city: str | None
    postalCode: str | None
    country: str | None
    companies: int
    sample: list[AddressSample]
    active: int
    dissolved: int
    insolvent: int
    inLiquidation: int
    shareDissolved: float
    shareInsolvent: float


@with_config(_CLOSED)
class CountryCount(TypedDict):
    country: str
    entities: int
    active: int


@with_config(_CLOSED)
class PublicStats(TypedDict):
    """`/public/stats`: live entity counts, sources and the last update."""

    entities: int
    active: int
    countries: list[CountryCount]
    sources: list[PublicSource]
    lastUpdate: datetime | None
