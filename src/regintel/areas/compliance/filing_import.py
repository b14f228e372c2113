"""One import of filed statements (`regintel import sk_registeruz_filings FILE`): the run record, the
catalogue entry, the reject file and one transaction for the whole file.

A statement is keyed by (source, the register's statement id). A new one is inserted; a stored one whose
fields differ is updated, unless the file's version is older than the stored one (`datumPoslednejUpravy`:
an old file never rolls a filing back); the same file imported again writes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.compliance import queries
from regintel.ingest.base import RecordError, Skipped, SourceAbort
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import area_run
from regintel.ingest.sources.sk_registeruz_filings import FiledStatement, FiledStatements

FIELDS = tuple(f for f in FiledStatement.__dataclass_fields__ if f != "statement_id")


def run_filing_import(
    engine: Engine, source: FiledStatements, location: str, data_dir: Path
) -> tuple[int, LoadStats, Path | None]:
    """Import one file; returns (run id, stats, reject file or None) like `run_import`."""
    info = source.info
    with (
        area_run(engine, info, location, data_dir, _row_count) as run,
        engine.connect().execution_options(sqlite_immediate=True) as conn,
    ):
        stats = run.stats
        try:
            with open_input(location, Path(data_dir) / "downloads") as inp, conn.begin():
                records: dict[str, FiledStatement] = {}
                for item in source.parse(inp.stream, inp.name):
                    stats.read += 1
                    if isinstance(item, RecordError):
                        stats.reject(item.reason)
                        run.rejects(item.reason, item.raw)
                    elif isinstance(item, Skipped):
                        stats.skip(item.reason)
                    elif item.statement_id in records:
                        stats.skip("the same statement twice in the file")
                    else:
                        records[item.statement_id] = item
                write(conn, info.id, list(records.values()), run.id, stats)
        except SourceAbort as exc:
            run.rejects(f"aborted: {exc}", {"location": location})
            raise
    return run.result()


def write(
    conn: Connection, source_id: str, records: Sequence[FiledStatement], run_id: int | None, stats: LoadStats
) -> None:
    now = datetime.now(UTC)
    stored = queries.stored_statements(conn, source_id, sorted(r.statement_id for r in records), FIELDS)
    inserts: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    for r in records:
        values = {f: v for f, v in asdict(r).items() if f != "statement_id"}
        old = stored.get(r.statement_id)
        if old is None:
            inserts.append(
                {
                    "source": source_id,
                    "statement_id": r.statement_id,
                    "country": "SK",
                    **values,
                    "run_id": run_id,
                    "imported_at": now,
                }
            )
        elif all(old[f] == v for f, v in values.items()):
            stats.unchanged += 1
        elif old["updated_on"] and (r.updated_on is None or r.updated_on < old["updated_on"]):
            stats.skip("older than the stored version of the statement")
        else:
            updates.append({"row_id": old["id"], **values, "run_id": run_id, "imported_at": now})
    if inserts:
        queries.insert_statements(conn, inserts)
    if updates:
        queries.update_statements(conn, updates, (*FIELDS, "run_id", "imported_at"))
    stats.inserted += len(inserts)
    stats.updated += len(updates)
    stats.changes += len(inserts) + len(updates)


def _row_count(conn: Connection, source_id: str) -> int:
    """The source's filed statements (the catalogue's `row_count`)."""
    return queries.statement_count(conn, source_id)
