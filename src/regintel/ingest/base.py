"""What a register source is: its catalogue entry and a parser from a byte stream to records."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Protocol

from regintel.domain.types import Record


@dataclass(frozen=True)
class SourceInfo:
    """The catalogue entry of a source (spec: data-sources), and how the loader treats it."""

    id: str
    name: str
    publisher: str
    country: str | None
    category: str  # register | lei | financials | insolvency | sanctions | reference | synthetic
    formats: str
    licence: str
    attribution: str
    url: str
    cadence: str  # daily | weekly | monthly | on-demand
    licence_url: str | None = None
    # A secondary source only fills fields the registers left empty (GLEIF names do not override a
    # national register's name).
    fill_only: bool = False
    # ...but a fill-only source with `keeps_own_current` still updates the companies no other source
    # describes (an entity known only from GLEIF follows GLEIF's renames and status changes).
    keeps_own_current: bool = False
    # Records are snapshots of a company as of `published_on`: one older than what the source
    # already gave is skipped (replaying an old file never rolls data back). An event source (a
    # gazette, where each notice is a fact of its own day) sets this to False.
    snapshots: bool = True
    # A record's roles are increments (appointments with `since`, cessations with `until`: a gazette
    # such as BORME), applied on top of the roles this source already gave, not a replacement of them.
    roles_increments: bool = False


class RecordError(Exception):
    """One input record is unusable: it is rejected with this reason and the import goes on."""

    def __init__(self, reason: str, raw: object = None):
        super().__init__(reason)
        self.reason = reason
        self.raw = raw


class Skipped:
    """A row the source deliberately does not import (a statement, a totals line, a branch): counted
    under its reason, not rejected."""

    def __init__(self, reason: str):
        self.reason = reason


class SourceAbort(Exception):
    """The input as a whole is unusable (wrong format): the import stops, nothing more is written."""


class Source(Protocol):
    info: SourceInfo

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        """Yield records, `RecordError` for rows that cannot be read and `Skipped` for rows left out on
        purpose, from one input file."""
        ...
