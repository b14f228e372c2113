"""One import of a register list (`regintel import sk_nbs FILE`, ...): the run record, the catalogue
entry, the reject file, and one transaction for the whole file.

`ingest.runner.run_import` hands these sources here (`import_into`): their rows are this area's, not
companies. The file is the whole list, so it is written whole or not at all: a file that turns out wrong
(`SourceAbort`: not the register's columns, empty, no usable row) leaves nothing of itself behind and its
reason goes to the reject file; a row that cannot be read is rejected alone, with its reason, and then the
rows the file lacks are kept rather than delisted (the rejected row may be one of them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.config import load_settings
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run
from regintel.search import get_backend
from regintel.search.base import SearchBackend

from . import queries
from .designating import designate
from .linking import Linker
from .loading import Writer, table_for
from .records import Authorisation, Professional

BATCH = 1_000


class RegisterSource(Protocol):
    info: SourceInfo

    def parse(self, stream: Any, name: str) -> Any: ...


def run_regulated_import(
    engine: Engine,
    source: RegisterSource,
    location: str,
    data_dir: Path,
    backend: SearchBackend | None = None,
) -> tuple[int, LoadStats, Path | None]:
    """Import one list file (or URL); returns (run id, stats, reject file or None) like `run_import`.
    `backend`: the search index that name links go through (default: the one the settings choose)."""
    info = source.info
    with area_run(engine, info, location, data_dir, row_count) as run:
        try:
            _import_file(engine, source, location, Path(data_dir), backend, run.stats, run.rejects)
        except SourceAbort as exc:
            run.rejects(f"aborted: {exc}", {"location": location})
            run.stats = LoadStats(read=run.stats.read)
            run.stats.reject(f"aborted: {exc}")
            raise
    return run.result()


def _import_file(
    engine: Engine,
    source: RegisterSource,
    location: str,
    data_dir: Path,
    backend: SearchBackend | None,
    stats: LoadStats,
    rejects: RejectFile,
) -> None:
    if Path(location).is_dir():
        raise SourceAbort(f"{location} is a folder: give the register's list file")
    backend = backend or _backend(engine, data_dir)
    with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
        linker = Linker(conn, backend)
        writer: Writer | None = None
        batch: list[Authorisation | Professional] = []
        with open_input(location, data_dir / "downloads") as inp:
            for item in source.parse(inp.stream, inp.name):
                stats.read += 1
                if isinstance(item, RecordError):
                    stats.reject(item.reason)
                    rejects(item.reason, item.raw)
                    continue
                if isinstance(item, Skipped):
                    stats.skip(item.reason)
                    continue
                writer = writer or Writer(conn, table_for(item), source.info.id, linker, stats)
                batch.append(item)
                if len(batch) >= BATCH:
                    writer.write(batch)
                    batch = []
        if writer is None:
            raise SourceAbort(f"{Path(location).name}: no usable row, so nothing is replaced")
        writer.write(batch)
        writer.remove_unseen(apply=not stats.rejected)  # a rejected row may be one of the rows it lacks
        if getattr(source, "designates", False):  # a trusted list: its providers' NIS2 designations
            stats.changes += designate(conn, source.info.id)


def _backend(engine: Engine, data_dir: Path) -> SearchBackend:
    url = engine.url.render_as_string(hide_password=False)
    return get_backend(engine, load_settings(database_url=url, data_dir=data_dir))


def row_count(conn: Connection, source_id: str) -> int:
    """Rows a source has in the area's tables (the catalogue's `row_count`)."""
    return queries.source_rows(conn, source_id)
