"""The PostgreSQL-only backend: trigram GIN indexes (pg_trgm) on the normalised columns, so every API
node shares one index that PostgreSQL keeps current itself.

Candidates are the rows whose normalised name contains the query's words closely enough
(`word_similarity`, operator `<%`), which forgives typos, word order and unfinished words. It needs
the `pg_trgm` extension (Debian: postgresql-contrib); `rebuild` creates it and the indexes.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import text
from sqlalchemy.engine import Connection

from regintel.search import documents as docs
from regintel.search.base import Collection, Filters, IndexStatus, QueryWords, preferred_first

THRESHOLD = 0.4  # word_similarity below this is not a candidate (notes/search-baseline.md)
INDEXES = {
    "ix_companies_name_norm_trgm": "companies USING gin (name_norm gin_trgm_ops)",
    "ix_companies_address_norm_trgm": "companies USING gin (address_norm gin_trgm_ops)",
    "ix_people_name_norm_trgm": "people USING gin (name_norm gin_trgm_ops)",
}
_TARGETS = {
    "companies": ("companies", "name_norm"),
    "addresses": ("companies", "address_norm"),
    "people": ("people", "name_norm"),
}


class PgTrgmBackend:
    name = "pg_trgm"

    def __init__(self) -> None:
        self._extension = False

    def candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        if not query.words or not self._has_extension(conn):
            return []  # being built (the first refresh creates the extension and indexes)
        if collection == "companies":
            return preferred_first(
                lambda f: self._candidates(conn, collection, query, f, limit), filters, limit
            )
        return self._candidates(conn, collection, query, filters, limit)

    def _candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        table, column = _TARGETS[collection]
        where, params = "", {}
        if collection != "people":
            if filters.country:
                where += " AND country = :country"
                params["country"] = filters.country
            if filters.active_only:
                where += " AND status = 'active'"
        # SET LOCAL lasts until the request's transaction ends; work_mem: notes/search-baseline.md
        conn.execute(text(f"SET LOCAL pg_trgm.word_similarity_threshold = {THRESHOLD}"))
        conn.execute(text("SET LOCAL work_mem = '64MB'"))
        sql = (
            f"SELECT id FROM {table} WHERE CAST(:q AS text) <% {column}{where} "
            f"ORDER BY word_similarity(CAST(:q AS text), {column}) DESC, id LIMIT :n"
        )
        return [
            int(i)
            for i in conn.execute(text(sql), {"q": " ".join(query.words), "n": limit, **params}).scalars()
        ]

    def _has_extension(self, conn: Connection) -> bool:
        if not self._extension:
            found = conn.execute(text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")).first()
            self._extension = found is not None
        return self._extension

    def rebuild(self, conn: Connection) -> int:
        """Create the extension and the indexes; REINDEX them when they exist."""
        conn.execute(text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
        for name, target in INDEXES.items():
            if _index_exists(conn, name):
                conn.execute(text(f"REINDEX INDEX {name}"))
            else:
                conn.execute(text(f"CREATE INDEX {name} ON {target}"))
        return docs.company_count(conn)

    def index(self, conn: Connection, company_ids: Iterable[int]) -> int:
        return 0  # PostgreSQL maintains GIN indexes with every write

    def sync(self, conn: Connection, company_ids: Iterable[int], people_ids: Iterable[int]) -> int:
        return 0  # the same: a deleted row leaves its indexes with it

    def ensure_current(self, conn: Connection, max_inline: int | None = None) -> str:
        if all(_index_exists(conn, name) for name in INDEXES):
            return "current"
        if max_inline is not None and docs.company_count(conn) > max_inline:
            return "deferred"
        self.rebuild(conn)
        return "built"

    def status(self, conn: Connection) -> IndexStatus:
        ready = all(_index_exists(conn, name) for name in INDEXES)
        return IndexStatus(
            self.name, ready, docs.company_count(conn) if ready else 0, None, ", ".join(INDEXES)
        )


def _index_exists(conn: Connection, name: str) -> bool:
    return (
        conn.execute(text("SELECT 1 FROM pg_indexes WHERE indexname = :n"), {"n": name}).first() is not None
    )
