"""The default backend: an embedded tantivy index on local disk, beside the database it is derived from.

Why tantivy: at 10M names its Levenshtein-automaton term queries answered one- and two-typo queries
with p99 near 25 ms, where trigram indexes in PostgreSQL and SQLite FTS5 took hundreds of ms
(notes/search-baseline.md; our own figures are in docs/search.md).

Layout under `<data_dir>/search/<database key>/tantivy/`: one folder per generation (`index/`, and
`state.json` with the watermark of the rows it holds) and `CURRENT`, naming the live one.
A rebuild writes a new generation and replaces `CURRENT` atomically; readers notice and switch.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tantivy
from sqlalchemy.engine import Connection

from regintel.search import documents as docs
from regintel.search.base import Collection, Filters, IndexBusy, IndexStatus, QueryWords
from regintel.search.fuzzy import (
    Known,
    build_query,
    combine,
    every_word_first,
    filter_clauses,
    preference_clauses,
)
from regintel.search.rows import RankRow

Ranking = list[RankRow] | None

WRITER_HEAP = 400_000_000  # split between the writer threads; bigger segments, fewer merges
SMALL_HEAP = 20_000_000
REBUILD_FLOOR = 100_000  # below this many changes, re-indexing them beats a rebuild
# tantivy keeps every pending delete in memory until the commit (about 1.2 KB each: 1M people cost
# 1.2 GB), so a long write commits on the way; a rebuild needs no deletes at all (its index is new).
COMMIT_EVERY = 500_000
# Names holding every query word that make the second question (names missing one word) unnecessary
# (`search.fuzzy.every_word_first`): below it, the page is filled from the second question's answer.
EVERY_WORD_ENOUGH = 5
# How that second question is asked when some name holds every word: "exact", the words as written
# (typos are then unlikely to be what kept the others out, and a word's fuzzy expansion over the term
# dictionary was most of the old question's cost), or "fuzzy", the rule before: the whole union within
# the typo rules, as when no name holds them all. A knob for `bench/profile_search_phases.py`.
FILL = "exact"
# Names missing a word that fill the page after those holding every word: reading each candidate's
# stored row is what the filler costs (at 100,000 names the question itself took 0.1 ms at the median),
# and a page is at most this long by default (search 20, autocomplete 10).
FILL_LIMIT = 20


# 2: the `form` field (legal-form keys and ELF code). 3: the stored `row`, what ranking reads of a
# company (`search.rows.RankRow`). 4: the forms as written among the `form` values (`as:sasu`, no new
# field). An index of an older version keeps answering (without form preference, with ranking rows
# read from the database, without spellings) until `ensure_current` has rebuilt it.
SCHEMA_VERSION = 4


def schema(version: int = SCHEMA_VERSION) -> tantivy.Schema:
    """Companies (`cid`, `name`, `addr`, `country`, `active`, `form`, `row`) and people (`pid`,
    `pname`) share one index, so that each change costs one commit."""
    sb = tantivy.SchemaBuilder()
    sb.add_unsigned_field("cid", indexed=True, fast=True)
    sb.add_text_field("name", tokenizer_name="default", index_option="freq")
    sb.add_text_field("addr", tokenizer_name="default", index_option="freq")
    sb.add_text_field("country", tokenizer_name="raw", index_option="basic")
    sb.add_unsigned_field("active", indexed=True, fast=True)
    sb.add_unsigned_field("pid", indexed=True, fast=True)
    sb.add_text_field("pname", tokenizer_name="default", index_option="freq")
    if version >= 2:
        sb.add_text_field("form", tokenizer_name="raw", index_option="basic")
    if version >= 3:
        # stored, not a fast field: tantivy-py reads only numeric fast fields, and one stored blob
        # costs one document read per candidate where ten columns would cost ten
        sb.add_bytes_field("row", stored=True)
    return sb.build()


_FIELDS = {"companies": ("name", "cid"), "addresses": ("addr", "cid"), "people": ("pname", "pid")}


@dataclass
class _Open:
    generation: str
    index: tantivy.Index
    stamp: float
    version: int = SCHEMA_VERSION
    meta: str = ""  # the generation's meta.json, rewritten by every commit
    pointer: tuple[int, int, int] | None = None  # `_file_id` of CURRENT when this generation was read


class TantivyBackend:
    name = "tantivy"

    def __init__(self, root: Path):
        self.root = root
        self._open: _Open | None = None
        self._pointer = str(root / "CURRENT")
        self._lock = threading.RLock()  # the open reader; held for microseconds
        self._writing = threading.Lock()  # one writer at a time in this process; held for a whole build

    # -- reading ---------------------------------------------------------------------------------

    def candidates(
        self, conn: Connection, collection: Collection, query: QueryWords, filters: Filters, limit: int
    ) -> list[int]:
        found = self._ask(collection, query, filters, limit, with_rows=False)
        return found if isinstance(found, list) else []

    def candidate_rows(self, conn: Connection, query: QueryWords, filters: Filters, limit: int) -> Ranking:
        """Company candidates as ranking reads them, from the index alone; None from an index written
        before it kept them (the caller reads the rows from the database)."""
        found: Ranking = self._ask("companies", query, filters, limit, with_rows=True)
        return found

    def _ask(
        self, collection: Collection, query: QueryWords, filters: Filters, limit: int, with_rows: bool
    ) -> Any:
        if not query.words:
            return []
        for attempt in (1, 2):
            opened = self._reader()
            if opened is None:
                return []
            if with_rows and opened.version < 3:
                return None
            try:
                return self._search(opened, collection, query, filters, limit, with_rows)
            except ValueError as exc:
                # Another process's writer committed and merged away segments this reader still named
                # (tantivy keeps files alive only for readers in its own process): reopen and ask again.
                if attempt == 2 or "FileDoesNotExist" not in str(exc):
                    raise
                with self._lock:
                    self._open = None
        return []

    def _search(
        self,
        opened: _Open,
        collection: Collection,
        query: QueryWords,
        filters: Filters,
        limit: int,
        with_rows: bool = False,
    ) -> list[int] | list[RankRow]:
        field, id_field = _FIELDS[collection]
        schema = opened.index.schema
        searcher = opened.index.searcher()
        known = _known(searcher, field)
        extra = filter_clauses(schema, filters) if collection != "people" else []
        if collection == "companies":
            extra += preference_clauses(
                schema,
                filters,
                query.forms if opened.version >= 2 else (),
                query.spellings if opened.version >= 4 else (),
            )
        hits = _hits(searcher, schema, field, query, known, extra, limit)
        if with_rows:
            return [RankRow.decode(searcher.doc(addr).get_first("row") or b"") for _, addr in hits]
        return [int(v or 0) for v in searcher.fast_field_values(id_field, [addr for _, addr in hits])]

    def _reader(self) -> _Open | None:
        """The open generation, reopened when `CURRENT` moved and reloaded when a writer committed.

        Two `stat` calls per question when nothing moved: `CURRENT` (replaced by a rename, so a new
        generation is a new inode) and the open generation's `meta.json` (rewritten at each commit).
        Reading `CURRENT` and checking its generation on every question was 12% of an autocomplete's
        CPU on the demo data."""
        with self._lock:
            pointer = _file_id(self._pointer)
            opened = self._open
            if opened is None or pointer is None or pointer != opened.pointer:
                generation = self._current()
                if generation is None:
                    self._open = None
                    return None
                if opened is None or opened.generation != generation:
                    version = _read_version(self.root / generation)
                    meta = str(self.root / generation / "index" / "meta.json")
                    index = _open_index(self.root / generation / "index", version)
                    opened = self._open = _Open(generation, index, _mtime(meta), version, meta)
                opened.pointer = pointer
            stamp = _mtime(opened.meta)
            if opened.stamp != stamp:
                opened.index.reload()
                opened.stamp = stamp
            return opened

    def _current(self) -> str | None:
        try:
            name = (self.root / "CURRENT").read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        return name if (self.root / name / "state.json").exists() else None

    # -- writing ---------------------------------------------------------------------------------

    @contextmanager
    def _one_writer(self, wait: bool) -> Iterator[None]:
        """This process's writer lock, then the index folder's (an `flock`, so that the API processes of
        one host, the worker and the CLI never write at once: two processes building the first
        generation at the same time each removed the other's files). Without `wait`, a folder held
        by another process raises `IndexBusy` at once: the caller keeps serving what it has."""
        with self._writing:
            self.root.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.root / "WRITE.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                except BlockingIOError:
                    raise IndexBusy("another process is writing the search index") from None
                yield
            finally:
                os.close(fd)  # releases the lock

    def rebuild(self, conn: Connection) -> int:
        """Write a new generation from the database, then point `CURRENT` at it (waits for a writer
        of another process to finish first)."""
        with self._one_writer(wait=True):
            return self._rebuild(conn)

    def _rebuild(self, conn: Connection) -> int:
        watermark = docs.current_watermark(conn)  # read first: later changes are caught up after
        generation = f"g{time.time_ns()}"
        path = self.root / generation
        path.mkdir(parents=True)
        index = tantivy.Index(schema(), path=str(_mkdir(path / "index")))
        count = _write(index, docs.company_batches(conn), docs.people_batches(conn), replace=False)
        _write_state(path, watermark)
        _atomic_write(self.root / "CURRENT", generation)
        self._drop_old(keep=generation)
        return count

    def index(self, conn: Connection, company_ids: Iterable[int]) -> int:
        opened = self._reader()
        if opened is None or opened.version < SCHEMA_VERSION:
            return self._rebuild(conn)
        state = _read_state(self.root / opened.generation)
        return _write(
            opened.index,
            docs.company_batches(conn, company_ids),
            docs.people_batches(conn, state.people_id),
            replace=True,
        )

    def sync(self, conn: Connection, company_ids: Iterable[int], people_ids: Iterable[int]) -> int:
        """Delete these ids' documents and add back those whose rows exist, in one commit (raises
        `IndexBusy` while another process writes; the caller tries again)."""
        companies, persons = sorted(set(company_ids)), sorted(set(people_ids))
        with self._one_writer(wait=False):
            opened = self._reader()
            if opened is None:  # no index yet: the first build reads the rows as they are
                return 0
            if opened.version < SCHEMA_VERSION:
                return self._rebuild(conn)
            schema, writer = opened.index.schema, _writer(opened.index, big=False)
            for field, ids in (("cid", companies), ("pid", persons)):
                for i in ids:
                    writer.delete_documents_by_query(tantivy.Query.term_query(schema, field, i))
            found: list[Any] = [d for batch in docs.company_batches(conn, companies) for d in batch]
            found += docs.people_by_ids(conn, persons)
            for d in found:
                writer.add_document(_company_doc(d) if isinstance(d, docs.CompanyDoc) else _person_doc(d))
            writer.commit()
            writer.wait_merging_threads()
            opened.index.reload()
            return len(found)

    def ensure_current(self, conn: Connection, max_inline: int | None = None) -> str:
        """Build when missing; otherwise index the rows changed since the watermark (a rebuild when
        they are a fifth of the index or more). With more than `max_inline` rows to do, do nothing and
        answer "deferred" (the caller runs it in the background)."""
        with self._one_writer(wait=False):
            generation = self._current()
            if generation is None:
                if max_inline is not None and docs.company_count(conn) > max_inline:
                    return "deferred"
                self._rebuild(conn)
                return "built"
            path = self.root / generation
            state = _read_state(path)
            now = docs.current_watermark(conn)
            if _read_version(path) < SCHEMA_VERSION:  # an index of an older layout: build anew
                if max_inline is not None and docs.company_count(conn) > max_inline:
                    return "deferred"
                self._rebuild(conn)
                return "built"
            if now == state:
                return "current"
            since = docs.overlap(state.companies_at)
            pending = docs.count_changed(conn, since)
            if max_inline is not None and pending > max_inline:
                return "deferred"
            if pending > max(REBUILD_FLOOR, self._documents() // 5):
                self._rebuild(conn)
                return "built"
            self.index(conn, docs.changed_company_ids(conn, since))
            _write_state(path, now)
            return "updated"

    def _documents(self) -> int:
        opened = self._reader()
        return opened.index.searcher().num_docs if opened else 0

    def status(self, conn: Connection) -> IndexStatus:
        opened = self._reader()
        if opened is None:
            return IndexStatus(self.name, False, 0, None, str(self.root))
        state = _read_state(self.root / opened.generation)
        return IndexStatus(
            self.name,
            True,
            opened.index.searcher().num_docs,
            state.companies_at,
            str(self.root / opened.generation),
        )

    def _drop_old(self, keep: str) -> None:
        for child in self.root.iterdir():
            if child.is_dir() and child.name.startswith("g") and child.name != keep:
                shutil.rmtree(child, ignore_errors=True)  # open readers keep their mapped files


def _hits(
    searcher: tantivy.Searcher,
    schema: tantivy.Schema,
    field: str,
    query: QueryWords,
    known: Known,
    extra: list[tuple[Any, tantivy.Query]],
    limit: int,
) -> list[tuple[float, Any]]:
    """The candidate question in up to two steps: names holding every word; when fewer than
    `EVERY_WORD_ENOUGH` do, names missing one fill the rest, after them. When none holds every word a
    typo is the likely cause and the words keep their edit distances; when some do, at most
    `FILL_LIMIT` names holding the words as written (`FILL`), which needs no fuzzy expansion."""

    def ask(clauses: list[tuple[Any, tantivy.Query]], most: int = limit) -> list[tuple[float, Any]]:
        found: list[tuple[float, Any]] = searcher.search(combine(clauses + extra), most, count=False).hits
        return found

    if not every_word_first(query):
        return ask(build_query(schema, field, query, known))
    hits = ask(build_query(schema, field, query, known, every_word=True))
    if len(hits) >= EVERY_WORD_ENOUGH:
        return hits
    if not hits or FILL == "fuzzy":  # "fuzzy": the rule before, the whole union answers
        return ask(build_query(schema, field, query, known))
    more = ask(build_query(schema, field, query, known, typos=False), len(hits) + FILL_LIMIT)
    seen = {_where(addr) for _, addr in hits}
    return (hits + [h for h in more if _where(h[1]) not in seen])[: min(limit, len(hits) + FILL_LIMIT)]


def _where(addr: Any) -> tuple[int, int]:
    """A document address as a key (tantivy-py's `DocAddress` is not hashable)."""
    return (addr.segment_ord, addr.doc)


def _known(searcher: tantivy.Searcher, field: str) -> Known:
    def known(word: str, prefix: bool) -> bool:
        if prefix:
            return bool(searcher.terms_with_prefix(field, word, limit=1))
        return searcher.doc_freq(field, word) > 0

    return known


def _open_index(path: Path, version: int = SCHEMA_VERSION) -> tantivy.Index:
    index = tantivy.Index(schema(version), path=str(path), reuse=True)
    index.config_reader(reload_policy="Manual")
    return index


def _write(
    index: tantivy.Index,
    companies: Iterable[list[docs.CompanyDoc]],
    people: Iterable[list[docs.PersonDoc]],
    replace: bool,
) -> int:
    """Add (or with `replace`, re-add) documents, committing every `COMMIT_EVERY` documents and at the
    end; nothing to write, no commit (a commit costs tens of milliseconds of fsync). A document's
    delete and add always land in the same commit."""
    writer: Any = None
    count = pending = 0
    # By query, not `delete_documents_by_term`: tantivy-py 0.27 turns a Python int into a term that
    # never matches an unsigned field, so re-indexed documents were added beside their old selves.
    schema = index.schema
    for batch in _chain(companies, people):
        if writer is None:
            writer = _writer(index, big=not replace)
        for d in batch:
            if isinstance(d, docs.CompanyDoc):
                if replace:
                    writer.delete_documents_by_query(tantivy.Query.term_query(schema, "cid", d.id))
                writer.add_document(_company_doc(d))
            else:
                if replace:
                    writer.delete_documents_by_query(tantivy.Query.term_query(schema, "pid", d.id))
                writer.add_document(_person_doc(d))
        count += len(batch)
        pending += len(batch)
        if pending >= COMMIT_EVERY:
            writer.commit()
            pending = 0
    if writer is not None:
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
    return count


def _chain(*iterables: Iterable[list[Any]]) -> Iterable[list[Any]]:
    for iterable in iterables:
        yield from (batch for batch in iterable if batch)


def _company_doc(d: docs.CompanyDoc) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_unsigned("cid", d.id)
    doc.add_text("name", d.name)
    doc.add_text("addr", d.address)
    doc.add_text("country", d.country)
    doc.add_unsigned("active", int(d.active))
    for form in d.forms:
        doc.add_text("form", form)
    if d.ranking is not None:
        doc.add_bytes("row", d.ranking.encode())
    return doc


def _person_doc(p: docs.PersonDoc) -> tantivy.Document:
    doc = tantivy.Document()
    doc.add_unsigned("pid", p.id)
    doc.add_text("pname", p.name)
    return doc


def _writer(index: tantivy.Index, big: bool) -> Any:
    try:
        if big:
            return index.writer(heap_size=WRITER_HEAP, num_threads=min(2, os.cpu_count() or 1))
        return index.writer(heap_size=SMALL_HEAP, num_threads=1)
    except ValueError as exc:  # the lock file of another writer
        raise IndexBusy(str(exc)) from None


def _read_state(path: Path) -> docs.Watermark:
    return docs.Watermark.from_dict(json.loads((path / "state.json").read_text(encoding="utf-8")))


def _read_version(path: Path) -> int:
    """The schema version a generation was written with (1: before versions were recorded)."""
    try:
        return int(json.loads((path / "state.json").read_text(encoding="utf-8")).get("schema", 1))
    except FileNotFoundError:
        return SCHEMA_VERSION


def _write_state(path: Path, watermark: docs.Watermark) -> None:
    _atomic_write(path / "state.json", json.dumps(watermark.as_dict() | {"schema": SCHEMA_VERSION}))


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _mtime(path: Path | str) -> float:
    try:
        return os.stat(path).st_mtime_ns / 1e9
    except FileNotFoundError:
        return 0.0


def _file_id(path: str) -> tuple[int, int, int] | None:
    """What tells one `CURRENT` from the next: its inode, size and modification time."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)
