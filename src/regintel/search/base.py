"""What every search backend offers: candidate ids for normalised query words, kept current from the
database. Ranking, highlighting and matching happen above the backend (`regintel.search.rank`), so
every backend answers with the same scores for the same candidates."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, Protocol

from sqlalchemy.engine import Connection

Collection = Literal["companies", "addresses", "people"]


@dataclass(frozen=True)
class Filters:
    """Restrictions applied inside the index, before ranking."""

    country: str | None = None
    active_only: bool = False


@dataclass(frozen=True)
class QueryWords:
    """Normalised query words; `prefix` says the last word may be unfinished (autocomplete); `loose`
    lets one matching word suffice (resolution, where extra words may name a town)."""

    words: tuple[str, ...]
    prefix: bool = False
    loose: bool = False


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

    def candidates(self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters,
                   limit: int) -> list[int]:
        """Ids (company ids, or people ids for `people`) that may match, best first, at most `limit`."""
        ...

    def index(self, conn: Connection, company_ids: Iterable[int]) -> int:
        """Re-index these companies (and any new people) from the database; returns documents written."""
        ...

    def rebuild(self, conn: Connection) -> int:
        """Build the whole index from the database and swap it in atomically; returns documents."""
        ...

    def ensure_current(self, conn: Connection, max_inline: int | None = None) -> str:
        """Build the index if it is missing, and catch up with rows changed since it was written.
        Answers "current", "updated", "built", or "deferred" when more than `max_inline` rows wait
        (then the caller runs it again without a limit, in the background)."""
        ...

    def status(self, conn: Connection) -> IndexStatus:
        ...


class IndexBusy(Exception):
    """Another process holds the index writer (an import or a rebuild is running)."""
