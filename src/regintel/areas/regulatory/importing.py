"""One import of a regulator's feed (`regintel import sk_nbs_news FILE_OR_URL`, or the refresh job): the
run record, the catalogue entry, the reject file, and the whole feed in one transaction.

Entries are found again by (source, SHA-256 of the feed id): an unchanged entry writes nothing, a
changed one (title, summary, link, dates, categories) is updated with its tags recomputed, so a second
import of the same feed writes no entry. A feed that is not well-formed stops the import
(`SourceAbort`): its reason goes to the reject file and nothing of it is written."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.db.engine import begin_write
from regintel.domain.names import fold
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run
from regintel.ingest.sources.regulatory_feeds import FeedEntry

from . import queries as q
from .tags import tags_of


class FeedSource(Protocol):
    info: SourceInfo

    def parse(self, stream: IO[bytes], name: str) -> Iterator[FeedEntry | RecordError]: ...


def run_feed_import(
    engine: Engine, source: FeedSource, location: str, data_dir: Path | str
) -> tuple[int, LoadStats, Path | None]:
    """Import one feed file or URL; returns (run id, stats, reject file or None) like `run_import`."""
    info = source.info
    with area_run(engine, info, location, Path(data_dir), q.count_source) as run:
        try:
            with open_input(location, Path(data_dir) / "downloads") as inp, begin_write(engine) as conn:
                items = list(source.parse(inp.stream, inp.name))  # a malformed feed aborts before any write
                write_entries(conn, info.id, items, run.id, run.stats, run.rejects)
        except SourceAbort as exc:
            run.stats.reject(f"aborted: {exc}")
            run.rejects(f"aborted: {exc}", {"location": location})
            raise
    return run.result()


def write_entries(
    conn: Connection,
    source: str,
    items: list[FeedEntry | RecordError],
    run_id: int,
    stats: LoadStats,
    rejects: RejectFile,
) -> None:
    now = datetime.now(UTC)
    good: dict[str, FeedEntry] = {}
    for item in items:
        stats.read += 1
        if isinstance(item, RecordError):
            stats.reject(item.reason)
            rejects(item.reason, item.raw)
        elif (key := entry_key(item.guid)) in good:
            stats.skip("the same entry id twice in one feed (the first is kept)")
        else:
            good[key] = item
    stored = q.stored_hashes(conn, source, list(good))
    for key, item in good.items():
        row = entry_row(source, key, item) | {"retrieved_at": now, "import_run_id": run_id}
        tags = tags_of(item.title, item.summary, item.categories)
        if key not in stored:
            entry_id = q.insert_entry(conn, row | {"first_seen_at": now})
            stats.inserted += 1
        elif stored[key][1] != row["content_hash"]:
            entry_id = stored[key][0]
            q.update_entry(conn, entry_id, row)
            stats.updated += 1
        else:
            stats.unchanged += 1
            continue
        q.replace_tags(conn, entry_id, tags)


def entry_key(guid: str) -> str:
    return hashlib.sha256(guid.encode()).hexdigest()


def entry_row(source: str, key: str, e: FeedEntry) -> dict[str, Any]:
    content = {
        "guid": e.guid,
        "title": e.title,
        "summary": e.summary,
        "link": e.link,
        "language": e.language,
        "published_at": e.published_at.isoformat(),
        "categories": list(e.categories),
        "updated_at": e.updated_at.isoformat() if e.updated_at else None,
    }
    digest = hashlib.sha256(json.dumps(content, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return {
        "source": source,
        "entry_key": key,
        "guid": e.guid,
        "title": e.title,
        "summary": e.summary,
        "link": e.link,
        "language": e.language,
        "categories": list(e.categories) or None,
        "search_text": fold(f"{e.title} {e.summary}"),
        "content_hash": digest,
        "published_at": e.published_at,
        "updated_at": e.updated_at,
    }
