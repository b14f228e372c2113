"""What every search backend offers: candidate ids for normalised query words, kept current from the
database. Ranking, highlighting and matching happen above the backend (`regintel.search.rank`), so
every backend answers with the same scores for the same candidates."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol, runtime_checkable

from sqlalchemy.engine import Connection

Collection = Literal["companies", "addresses", "people"]


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside the index, before ranking."""

    country: str | None = None
    active_only: bool = False
    # countries the query points at ("Alfachem Polska", "… sp. z o.o."): ranked first, not required
    prefer: tuple[str, ...] = ()


@dataclass(frozen=True)
class QueryWords:
    """Normalised query words; `prefix` says the last word may be unfinished (autocomplete); `loose`
    lets one matching word suffice (resolution, where extra words may name a town); `optional` words
    (a country named in the query) rank a candidate up when it has them and are not required; `forms`
    are legal-form keys and `code:<ELF>` values the query typed, which rank up companies of that form
    where the index knows forms (tantivy); `spellings` the typed forms as written (letters run together,
    "sasu"), which rank up, a little, the names written that way among those of the form."""

    words: tuple[str, ...]
    prefix: bool = False
    loose: bool = False
    optional: tuple[str, ...] = ()
    forms: tuple[str, ...] = ()
    spellings: tuple[str, ...] = ()


@dataclass(frozen=True)
class IndexStatus:
    backend: str
    ready: bool
    documents: int
    watermark: str | None
    location: str | None


class SearchBackend(Protocol):
    """A derived index over companies (names, addresses) and people (names)."""

    name: str

    def candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        """Ids (company ids, or people ids for `people`) that may match, best first, at most `limit`."""
        ...

    def index(self, conn: Connection, company_ids: Iterable[int]) -> int:
        """Re-index these companies (and any new people) from the database; returns documents written."""
        ...

    def rebuild(self, conn: Connection) -> int:
        """Build the whole index from the database and swap it in atomically; returns documents."""
        ...

    def sync(self, conn: Connection, company_ids: Iterable[int], people_ids: Iterable[int]) -> int:
        """Make these companies' and people's documents what the database holds now: re-indexed where the
        row exists, taken out where it is gone. The watermark catch-up of `ensure_current` follows rows
        that were written; a row deleted (a natural person withheld) or put back under an id the index
        has seen leaves no trace there, so its writer names it here. Returns documents written."""
        ...

    def ensure_current(self, conn: Connection, max_inline: int | None = None) -> str:
        """Build the index if it is missing, and catch up with rows changed since it was written.
        Answers "current", "updated", "built", or "deferred" when more than `max_inline` rows wait
        (then the caller runs it again without a limit, in the background)."""
        ...

    def status(self, conn: Connection) -> IndexStatus: ...


@runtime_checkable
class RanksFromIndex(Protocol):
    """A backend that keeps what ranking reads of a company beside its document (tantivy)."""

    def candidate_rows(
        self, conn: Connection, query: QueryWords, filters: Filters, limit: int
    ) -> list[Any] | None:
        """Company candidates as `search.rows.RankRow`s, best first; None when this index cannot."""
        ...


def preferred_first(run: Callable[[Filters], list[int]], filters: Filters, limit: int) -> list[int]:
    """For indexes that cannot rank by country: the candidates of the preferred countries (at most
    three, one query each) before the others."""
    if not filters.prefer or filters.country:
        return run(filters)
    found: list[int] = []
    for country in filters.prefer[:3]:
        found += run(replace(filters, country=country, prefer=()))
    found += run(replace(filters, prefer=()))
    return list(dict.fromkeys(found))[:limit]


class IndexBusy(Exception):
    """Another process holds the index writer (an import or a rebuild is running)."""
