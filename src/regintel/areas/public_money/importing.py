"""One import of a public-money source (`regintel import ted_eforms FILE`, …): the run record, the
catalogue entry, the reject file and one transaction for the whole file.

The company loader (`ingest.loader`) writes companies; these sources write the area's own tables, so
`ingest.runner.run_import` hands them here (`Source.import_into`). The whole file is one transaction:
a file that turns out malformed half-way (`SourceAbort`) leaves nothing of itself behind, and its reason
is written to the reject file like a rejected record's."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.config import load_settings
from regintel.domain.public_money import PayerList
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run, input_files
from regintel.search import get_backend
from regintel.search.base import SearchBackend

from . import loading
from .linking import Linker
from .queries import importer, payers

BATCH = 1_000  # records written together (one read of what is stored, one delete, one insert)


class SectionSource(Protocol):
    """A source whose records are this area's (notices, contracts, VAT payers), not companies."""

    info: SourceInfo
    suffixes: tuple[str, ...]

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Any]: ...


def run_section_import(
    engine: Engine, source: SectionSource, location: str, data_dir: Path, backend: SearchBackend | None = None
) -> tuple[int, LoadStats, Path | None]:
    """Import `location`, a file or a folder of files (a TED daily package unpacked: one notice a file);
    returns (run id, stats, reject file or None) like `run_import`. Each file is one transaction. A single
    malformed file stops the run (`SourceAbort`); in a folder it is rejected whole, with its reason in the
    reject file, and the other files are imported. `backend` is the search index name matches go through
    (default: the one the settings choose for this database)."""
    info = source.info
    folder = Path(location).is_dir()
    with area_run(engine, info, location, data_dir, row_count) as run:
        files = input_files(location, source.suffixes, run.stats)
        backend = backend or _backend(engine, Path(data_dir))
        with engine.connect().execution_options(sqlite_immediate=True) as conn:
            linker = Linker(conn, backend)
            for path in files:
                before = copy.deepcopy(run.stats)
                try:
                    _import_file(conn, source, path, Path(data_dir), linker, run.stats, run.rejects)
                except SourceAbort as exc:
                    run.stats = before
                    run.stats.reject(f"aborted: {exc}")
                    run.rejects(f"aborted: {exc}", {"location": path})
                    if not folder:
                        raise
    return run.result()


def _import_file(
    conn: Connection,
    source: SectionSource,
    path: str,
    data_dir: Path,
    linker: Linker,
    stats: LoadStats,
    rejects: RejectFile,
) -> None:
    """One input file in one transaction: all of it or (on `SourceAbort`) none of it."""
    batch: list[Any] = []
    with open_input(path, data_dir / "downloads") as inp, conn.begin():
        for item in source.parse(inp.stream, inp.name):
            if isinstance(item, PayerList):  # not a record: a complete list's date and the payers it names
                loading.write_many(conn, batch, linker, stats, source.info.id)
                batch = []
                loading.start_of_list(conn, item, stats, source.info.id)
                continue
            stats.read += 1
            if isinstance(item, RecordError):
                stats.reject(item.reason)
                rejects(item.reason, item.raw)
            elif isinstance(item, Skipped):
                stats.skip(item.reason)
            else:
                batch.append(item)
                if len(batch) >= BATCH:
                    loading.write_many(conn, batch, linker, stats, source.info.id)
                    batch = []
        loading.write_many(conn, batch, linker, stats, source.info.id)


def _backend(engine: Engine, data_dir: Path) -> SearchBackend:
    url = engine.url.render_as_string(hide_password=False)
    return get_backend(engine, load_settings(database_url=url, data_dir=data_dir))


def row_count(conn: Connection, source_id: str) -> int:
    """Records a source has in the area's tables (the catalogue's `row_count`)."""
    if source_id in loading.TED_SOURCES:
        return importer.notice_count(conn, source_id)
    if payers.source_has_payers(conn, source_id):
        return importer.payer_count(conn, source_id)
    return importer.contract_count(conn, source_id)
