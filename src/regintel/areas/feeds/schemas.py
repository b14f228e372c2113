"""Read models of the insolvency statistics (`/public/stats/bankrupt`): closed `TypedDict`s, as the
companies area's (docs/architecture.md, "Read models"). `insolvency_feeds.bankrupt_stats` is annotated
with `BankruptStats`, FastAPI writes the types into the OpenAPI document (`additionalProperties: false`)
and `tests/api/test_feeds_read_models.py` validates served bodies against them, unknown and missing keys
refused. The counts of a kind appear only when the asked `scope` covers it (`any`: both kinds)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal, NotRequired

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict

_CLOSED = ConfigDict(extra="forbid")


@with_config(_CLOSED)
class InsolvencyLicence(TypedDict):
    id: str
    name: str
    url: str


@with_config(_CLOSED)
class InsolvencyItem(TypedDict):
    """A gazette notice (`kind` `notice`) or a register source's flag flip (`register`)."""

    id: str
    kind: Literal["notice", "register"]
    event_type: str
    phase: str
    date: date
    country: str
    ico: str
    name: str
    title: str
    notice_title: str | None
    summary: str | None
    court: str | None
    case_number: str | None
    reference: str | None
    link: str | None
    source: str
    published_on: date | None
    detected_at: datetime
    company_url: str


@with_config(_CLOSED)
class BankruptCurrent(TypedDict):
    """Companies of a country flagged now."""

    country: str
    in_bankruptcy: NotRequired[int]
    in_restructuring: NotRequired[int]


@with_config(_CLOSED)
class BankruptMonth(TypedDict):
    """Proceedings started and ended in a country in a month (`YYYY-MM`)."""

    country: str
    month: str
    bankruptcy_started: NotRequired[int]
    bankruptcy_ended: NotRequired[int]
    restructuring_started: NotRequired[int]
    restructuring_ended: NotRequired[int]


@with_config(_CLOSED)
class BankruptStats(TypedDict):
    scope: Literal["bankruptcy", "restructuring", "any"]
    country: str | None
    since: date
    current: list[BankruptCurrent]
    by_month: list[BankruptMonth]
    latest: list[InsolvencyItem]
    licence: InsolvencyLicence
    attribution: str
