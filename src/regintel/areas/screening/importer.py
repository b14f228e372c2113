"""Importing a sanctions list: parse the whole file first (a malformed file writes nothing), then write
only what changed, entry by entry, by content digest (the same file twice writes nothing). A full list
removes the entries it no longer holds; a delta file (OpenSanctions) only applies its operations.

Each import registers the list in the data-source catalogue (licence and attribution) and, when entries
changed, queues the `screening.company_hits` job in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.screening import queries
from regintel.db import jobs as job_queue
from regintel.db.engine import begin_write
from regintel.domain.screening import normalise_identifier, normalise_name
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import sync_catalogue
from regintel.ingest.sources.sanctions_common import ListedEntry, SanctionSource, sanction_sources

HITS_JOB = "screening.company_hits"


@dataclass
class ImportStats:
    list_id: str
    read: int = 0
    inserted: int = 0
    updated: int = 0
    deleted: int = 0
    unchanged: int = 0

    @property
    def changed(self) -> int:
        return self.inserted + self.updated + self.deleted

    def as_dict(self) -> dict[str, Any]:
        return {
            "list": self.list_id,
            "read": self.read,
            "inserted": self.inserted,
            "updated": self.updated,
            "deleted": self.deleted,
            "unchanged": self.unchanged,
        }


def get_list_source(source_id: str) -> SanctionSource:
    sources = sanction_sources()
    if source_id not in sources:
        raise SourceAbort(f"unknown sanctions list {source_id!r}; lists: {', '.join(sorted(sources))}")
    return sources[source_id]


def read_entries(source: SanctionSource, location: Path) -> tuple[list[ListedEntry], bool]:
    """Every entry of the file (the last one wins for a repeated key), and whether it is a delta."""
    if not location.exists():
        raise SourceAbort(f"{location}: no such file or folder")
    entries: dict[str, ListedEntry] = {}
    try:
        for entry in source.parse(location):
            entries[entry.key] = entry
    except UnicodeDecodeError as exc:
        raise SourceAbort(f"{location.name}: not text in the expected encoding ({exc})") from exc
    delta = any(e.op is not None for e in entries.values())
    if not entries:
        raise SourceAbort(f"{location.name}: no {source.info.name} entries found; nothing was changed")
    return list(entries.values()), delta


def import_list(
    engine: Engine, source_id: str, location: str | Path, *, now: datetime | None = None
) -> ImportStats:
    source = get_list_source(source_id)
    entries, delta = read_entries(source, Path(location))
    now = now or datetime.now(UTC)
    sync_catalogue(engine, [source.info])
    with begin_write(engine) as conn:
        stats = write_entries(conn, source, entries, delta=delta, now=now, location=str(location))
        count = queries.count_entries(conn, source.info.id)
        last_run = {"status": "succeeded", **stats.as_dict()}
        queries.record_catalogue_import(conn, source.info.id, count, now, last_run)
    return stats


def write_entries(
    conn: Connection,
    source: SanctionSource,
    entries: list[ListedEntry],
    *,
    delta: bool,
    now: datetime,
    location: str | None = None,
) -> ImportStats:
    """Write the changed entries of one list in the caller's transaction."""
    list_id = source.info.id
    stats = ImportStats(list_id, read=len(entries))
    if queries.list_row(conn, list_id) is None:
        queries.upsert_list(conn, list_id, {"name": source.info.name, "mode": source.mode, "version": 0})
    existing = queries.existing_entries(conn, list_id)
    new_rows: list[dict[str, Any]] = []
    new_entries: dict[str, ListedEntry] = {}
    changed: dict[int, ListedEntry] = {}
    gone: list[int] = []
    for entry in entries:
        found = existing.get(entry.key)
        if entry.op == "delete":
            if found:
                gone.append(found[0])
            continue
        digest = entry.content_hash()
        if found and found[1] == digest:
            stats.unchanged += 1
        elif found:
            queries.update_entry(conn, found[0], _entry_row(list_id, entry, digest, now))
            changed[found[0]] = entry
        else:
            new_rows.append(_entry_row(list_id, entry, digest, now))
            new_entries[entry.key] = entry
    if not delta:
        keys = {e.key for e in entries}
        gone += [id_ for key, (id_, _) in existing.items() if key not in keys]
    queries.delete_children(conn, list(changed))
    queries.delete_entries(conn, gone)
    ids = queries.insert_entries(conn, new_rows)
    changed.update((ids[key], entry) for key, entry in new_entries.items())
    queries.insert_children(conn, _child_rows(changed))
    stats.inserted, stats.updated, stats.deleted = len(new_rows), len(changed) - len(new_rows), len(gone)
    if stats.changed:
        row = queries.list_row(conn, list_id)
        queries.upsert_list(
            conn,
            list_id,
            {
                "version": int(row["version"] if row else 0) + 1,
                "changed_at": now,
                "imported_at": now,
                "entry_count": queries.count_entries(conn, list_id),
                "location": location,
            },
        )
        job_queue.enqueue(conn, HITS_JOB, {"reason": f"{list_id} changed"}, now=now, dedupe_key=HITS_JOB)
    return stats


def _entry_row(list_id: str, entry: ListedEntry, digest: str, now: datetime) -> dict[str, Any]:
    return {
        "list_id": list_id,
        "entry_key": entry.key[:128],
        "schema": entry.schema,
        "caption": entry.caption,
        "topics": ",".join(entry.topics),
        "listed_on": entry.listed_on,
        "remarks": entry.remarks,
        "content_hash": digest,
        "updated_at": now,
    }


def _child_rows(entries: dict[int, ListedEntry]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {t.name: [] for t in queries.CHILDREN}
    for entry_id, e in entries.items():
        seen_names: set[tuple[str, str]] = set()
        for n in e.names:
            norm = normalise_name(n.name)
            if norm and (n.name, n.kind) not in seen_names:
                seen_names.add((n.name, n.kind))
                out["sanction_names"].append(
                    {
                        "entry_id": entry_id,
                        "name": n.name,
                        "name_norm": norm,
                        "kind": n.kind,
                        "lang": (n.lang or None) and n.lang[:8],
                    }
                )
        for i in {(i.type, i.value, i.country) for i in e.identifiers}:
            if norm := normalise_identifier(i[1]):
                out["sanction_identifiers"].append(
                    {
                        "entry_id": entry_id,
                        "id_type": i[0][:48],
                        "value": i[1],
                        "value_norm": norm[:128],
                        "country": i[2],
                    }
                )
        out["sanction_birth_dates"] += [
            {"entry_id": entry_id, "birth_date": d} for d in sorted(set(e.birth_dates))
        ]
        out["sanction_countries"] += [
            {"entry_id": entry_id, "country": c, "role": r[:16]} for c, r in sorted(set(e.countries))
        ]
        out["sanction_programmes"] += [
            {"entry_id": entry_id, "programme": p} for p in sorted(set(e.programmes))
        ]
    return out
