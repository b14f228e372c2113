"""The SQLite-only backend: FTS5 tables inside the database file, so the index travels with it.

FTS5 has no fuzzy matching, so typos are forgiven by expanding each query word to the indexed words
within its edit distance (rapidfuzz over the index vocabulary, kept in memory and refreshed when the
index changes), and the unfinished last word of an autocomplete query becomes a prefix query.
Tables: `search_fts` (rowid = company id), `search_people_fts` (rowid = person id), `search_state`.
A rebuild fills `*_new` tables and renames them in one transaction.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein
from sqlalchemy import text
from sqlalchemy.engine import Connection

from regintel.search import documents as docs
from regintel.search.base import Collection, Filters, IndexStatus, QueryWords, preferred_first
from regintel.search.fuzzy import MAX_WORDS, edit_distance

EXPANSIONS = 30
REBUILD_FLOOR = 100_000
_DDL = {
    "search_fts": "CREATE VIRTUAL TABLE {t} USING fts5(name, addr, country UNINDEXED, active UNINDEXED, "
    "tokenize='unicode61', prefix='2 3 4')",
    "search_people_fts": "CREATE VIRTUAL TABLE {t} USING fts5(name, tokenize='unicode61', prefix='2 3 4')",
}


class SqliteFtsBackend:
    name = "sqlite_fts"

    def __init__(self) -> None:
        self._vocab: dict[str, tuple[str | None, list[str]]] = {}
        self._lock = threading.RLock()

    # -- reading ---------------------------------------------------------------------------------

    def candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        if not query.words or not _exists(conn, "search_state"):
            return []
        if collection == "companies":
            return preferred_first(
                lambda f: self._candidates(conn, collection, query, f, limit), filters, limit
            )
        return self._candidates(conn, collection, query, filters, limit)

    def _candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        table = "search_people_fts" if collection == "people" else "search_fts"
        column = "addr" if collection == "addresses" else "name"
        groups = [
            self._expand(conn, table, column, w, query.prefix and i == len(query.words) - 1)
            for i, w in enumerate(query.words[:MAX_WORDS])
        ]
        where, params = _filters(filters) if collection != "people" else ("", {})
        found: list[int] = []
        joiners = [" AND "] + ([" OR "] if len(groups) > 1 else [])
        for joiner in joiners:  # every word first; any word when that finds too little
            match = f"{column} : (" + joiner.join(groups) + ")"
            sql = f"SELECT rowid FROM {table} WHERE {table} MATCH :m{where} ORDER BY rank LIMIT :n"
            rows = conn.execute(text(sql), {"m": match, "n": limit, **params}).scalars()
            found += [int(r) for r in rows if int(r) not in found]
            if len(found) >= min(limit, 20):
                break
        return found[:limit]

    def _expand(self, conn: Connection, table: str, column: str, word: str, prefix: bool) -> str:
        """`("word" OR "wrod" …)`: the word and the indexed words within its edit distance."""
        terms = [word]
        distance = edit_distance(word)
        if distance:
            vocab = self._vocabulary(conn, table, column)
            near = process.extract(
                word, vocab, scorer=Levenshtein.distance, score_cutoff=distance, limit=EXPANSIONS
            )
            terms += [t for t, _, _ in near if t != word]
        quoted = [f'"{t}"' for t in terms]
        if prefix and len(word) >= 2:
            quoted.append(f'"{word}"*')
        return "(" + " OR ".join(quoted) + ")"

    def _vocabulary(self, conn: Connection, table: str, column: str) -> list[str]:
        stamp = str(_state(conn).get("companies_at"))
        key = f"{table}.{column}"
        with self._lock:
            cached = self._vocab.get(key)
            if cached is not None and cached[0] == stamp:
                return cached[1]
            vocab_table = f"{table}_vocab"
            if not _exists(conn, vocab_table):
                return []
            rows = conn.execute(text(f"SELECT term FROM {vocab_table} WHERE col = :c"), {"c": column})
            terms = [str(r[0]) for r in rows]
            self._vocab[key] = (stamp, terms)
            return terms

    # -- writing ---------------------------------------------------------------------------------

    def rebuild(self, conn: Connection) -> int:
        watermark = docs.current_watermark(conn)
        for table, ddl in _DDL.items():
            conn.execute(text(f"DROP TABLE IF EXISTS {table}_new"))
            conn.execute(text(ddl.format(t=f"{table}_new")))
        count = _write(
            conn,
            "search_fts_new",
            "search_people_fts_new",
            docs.company_batches(conn),
            docs.people_batches(conn),
        )
        for table in _DDL:
            conn.execute(text(f"DROP TABLE IF EXISTS {table}_vocab"))
            conn.execute(text(f"DROP TABLE IF EXISTS {table}"))
            conn.execute(text(f"ALTER TABLE {table}_new RENAME TO {table}"))
            conn.execute(text(f"CREATE VIRTUAL TABLE {table}_vocab USING fts5vocab({table}, 'col')"))
        conn.execute(text("CREATE TABLE IF NOT EXISTS search_state (key TEXT PRIMARY KEY, value TEXT)"))
        _set_state(conn, watermark)
        return count

    def index(self, conn: Connection, company_ids: Iterable[int]) -> int:
        state = docs.Watermark.from_dict(_state(conn))
        return _write(
            conn,
            "search_fts",
            "search_people_fts",
            docs.company_batches(conn, company_ids),
            docs.people_batches(conn, state.people_id),
            replace=True,
        )

    def sync(self, conn: Connection, company_ids: Iterable[int], people_ids: Iterable[int]) -> int:
        if not _exists(conn, "search_state"):  # no index yet: the first build reads the rows as they are
            return 0
        companies, persons = sorted(set(company_ids)), sorted(set(people_ids))
        for table, ids in (("search_fts", companies), ("search_people_fts", persons)):
            if ids:
                conn.execute(
                    text(f"DELETE FROM {table} WHERE rowid IN ({','.join(str(int(i)) for i in ids)})")
                )
        found = [d for batch in docs.company_batches(conn, companies) for d in batch]
        people = docs.people_by_ids(conn, persons)
        return _write(
            conn, "search_fts", "search_people_fts", [found] if found else [], [people] if people else []
        )

    def ensure_current(self, conn: Connection, max_inline: int | None = None) -> str:
        if not _exists(conn, "search_state"):
            if max_inline is not None and docs.company_count(conn) > max_inline:
                return "deferred"
            self.rebuild(conn)
            return "built"
        state = docs.Watermark.from_dict(_state(conn))
        now = docs.current_watermark(conn)
        if now == state:
            return "current"
        since = docs.overlap(state.companies_at)
        pending = docs.count_changed(conn, since)
        if max_inline is not None and pending > max_inline:
            return "deferred"
        if pending > REBUILD_FLOOR:
            self.rebuild(conn)
            return "built"
        self.index(conn, docs.changed_company_ids(conn, since))
        _set_state(conn, now)
        return "updated"

    def status(self, conn: Connection) -> IndexStatus:
        if not _exists(conn, "search_state"):
            return IndexStatus(self.name, False, 0, None, "search_fts")
        count = int(conn.execute(text("SELECT count(*) FROM search_fts")).scalar_one())
        stamp = _state(conn).get("companies_at")
        return IndexStatus(self.name, True, count, str(stamp) if stamp else None, "search_fts")


def _write(
    conn: Connection,
    table: str,
    people_table: str,
    companies: Iterable[list[docs.CompanyDoc]],
    people: Iterable[list[docs.PersonDoc]],
    replace: bool = False,
) -> int:
    count = 0
    for batch in companies:
        if replace:
            conn.execute(text(f"DELETE FROM {table} WHERE rowid IN ({','.join(str(d.id) for d in batch)})"))
        conn.execute(
            text(f"INSERT INTO {table}(rowid, name, addr, country, active) VALUES (:i, :n, :a, :c, :x)"),
            [{"i": d.id, "n": d.name, "a": d.address, "c": d.country, "x": int(d.active)} for d in batch],
        )
        count += len(batch)
    for people_batch in people:
        ids = ",".join(str(p.id) for p in people_batch)
        conn.execute(text(f"DELETE FROM {people_table} WHERE rowid IN ({ids})"))
        conn.execute(
            text(f"INSERT INTO {people_table}(rowid, name) VALUES (:i, :n)"),
            [{"i": p.id, "n": p.name} for p in people_batch],
        )
        count += len(people_batch)
    return count


def _filters(filters: Filters) -> tuple[str, dict[str, object]]:
    where, params = "", dict[str, object]()
    if filters.country:
        where += " AND country = :country"
        params["country"] = filters.country
    if filters.active_only:
        where += " AND active = 1"
    return where, params


def _exists(conn: Connection, table: str) -> bool:
    row = conn.execute(text("SELECT 1 FROM sqlite_master WHERE name = :t"), {"t": table}).first()
    return row is not None


def _state(conn: Connection) -> dict[str, object]:
    row = conn.execute(text("SELECT value FROM search_state WHERE key = 'watermark'")).first()
    return json.loads(row[0]) if row else {}


def _set_state(conn: Connection, watermark: docs.Watermark) -> None:
    conn.execute(
        text(
            "INSERT INTO search_state(key, value) VALUES ('watermark', :v) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value"
        ),
        {"v": json.dumps(watermark.as_dict())},
    )
