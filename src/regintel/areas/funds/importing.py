"""One import of a funds source (`regintel import eu_cordis organization.csv`, …): the run record, the
catalogue entry, the reject file, and the whole file in one transaction, so a file that turns out
malformed half-way (`SourceAbort`) leaves nothing of itself behind and its reason goes to the reject file.

Each record is compared with what is stored by its content hash: the same record again writes nothing
(`unchanged`); a changed one is rewritten and its beneficiary linked again (`updated`)."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.config import load_settings
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run
from regintel.search import get_backend
from regintel.search.base import SearchBackend

from . import queries, writing
from .linking import Linker

BATCH = 1_000  # records compared and written together


class FundsSource(Protocol):
    info: SourceInfo

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Any]: ...


def run_funds_import(
    engine: Engine, source: FundsSource, location: str, data_dir: Path, backend: SearchBackend | None = None
) -> tuple[int, LoadStats, Path | None]:
    """Import one file; returns (run id, stats, reject file or None) like `ingest.runner.run_import`.
    A malformed file raises `SourceAbort` after the run is marked failed and nothing of it is kept.
    `backend`: the search index name matches go through (default: the one the settings choose)."""
    info = source.info
    with area_run(engine, info, location, data_dir, row_count) as run:
        try:
            backend = backend or _backend(engine, Path(data_dir))
            with engine.connect().execution_options(sqlite_immediate=True) as conn:
                _import_file(
                    conn,
                    source,
                    location,
                    Path(data_dir),
                    Linker(conn, backend),
                    writing.Run(run.id, info.id, datetime.now(UTC), run.stats),
                    run.rejects,
                )
        except SourceAbort as exc:
            run.stats = LoadStats(read=run.stats.read)
            run.stats.reject(f"aborted: {exc}")
            run.rejects(f"aborted: {exc}", {"location": location})
            raise
    return run.result()


def _import_file(
    conn: Connection,
    source: FundsSource,
    location: str,
    data_dir: Path,
    linker: Linker,
    run: writing.Run,
    rejects: RejectFile,
) -> None:
    """All of the file or (on `SourceAbort`) none of it."""
    batch: list[Any] = []
    with open_input(location, data_dir / "downloads") as inp, conn.begin():
        for item in _parsed(source, inp.stream, inp.name):
            run.stats.read += 1
            if isinstance(item, RecordError):
                run.stats.reject(item.reason)
                rejects(item.reason, item.raw)
            elif isinstance(item, Skipped):
                run.stats.skip(item.reason)
            else:
                batch.append(item)
                if len(batch) >= BATCH:
                    writing.write_batch(conn, batch, linker, run)
                    batch = []
        writing.write_batch(conn, batch, linker, run)


def _parsed(source: FundsSource, stream: IO[bytes], name: str) -> Iterator[Any]:
    """The source's items; a file that cannot be read to its end (a truncated .gz or .zip) is malformed."""
    try:
        yield from source.parse(stream, name)
    except (OSError, EOFError, zlib.error) as exc:
        raise SourceAbort(f"{name}: unreadable input: {exc}") from None


def _backend(engine: Engine, data_dir: Path) -> SearchBackend:
    url = engine.url.render_as_string(hide_password=False)
    return get_backend(engine, load_settings(database_url=url, data_dir=data_dir))


def row_count(conn: Connection, source_id: str) -> int:
    """Records a source holds (the catalogue's `row_count`): CORDIS projects and participations together."""
    if source_id == writing.CORDIS_SOURCE:
        return queries.cordis_rows(conn)
    return queries.award_rows(conn, source_id)
