"""One import of a legal-records source (`regintel import sk_court_decisions FILE`, …): the run record,
the catalogue entry, the reject file and one transaction per input file.

These sources write the area's own tables, so `ingest.runner.run_import` hands them here
(`Source.import_into`). A file that turns out malformed half-way (`SourceAbort`) leaves nothing of itself
behind, and its reason goes to the reject file like a rejected record's. The same run is what the
refresh job (`jobs.py`, kind `legal_records.import`) does."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.config import load_settings
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run, input_files
from regintel.search import get_backend
from regintel.search.base import SearchBackend

from . import queries
from .linking import Linker
from .loading import Writer
from .tables import antitrust_cases, court_decisions, ipkz_installations, sbirka_acts

TABLE_OF = {
    "sk_court_decisions": court_decisions,
    "sk_pmu": antitrust_cases,
    "sk_ipkz": ipkz_installations,
    "cz_esbirka": sbirka_acts,
}


class LegalSource(Protocol):
    info: SourceInfo
    suffixes: tuple[str, ...]

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Any]: ...


def run_legal_import(
    engine: Engine, source: LegalSource, location: str, data_dir: Path, backend: SearchBackend | None = None
) -> tuple[int, LoadStats, Path | None]:
    """Import `location`, a file or a folder of files; returns (run id, stats, reject file or None) like
    `run_import`. Each file is one transaction. A malformed single file stops the run (`SourceAbort`,
    raised); in a folder it is rejected whole and the other files are imported."""
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
                    _import_file(
                        conn,
                        source,
                        path,
                        Path(data_dir),
                        Writer(conn, linker, run.stats, info.id, run.id),
                        run.rejects,
                    )
                except SourceAbort as exc:
                    run.stats = before
                    run.stats.reject(f"aborted: {exc}")
                    run.rejects(f"aborted: {exc}", {"location": path})
                    if not folder:
                        raise
    return run.result()


def _import_file(
    conn: Connection, source: LegalSource, path: str, data_dir: Path, writer: Writer, rejects: RejectFile
) -> None:
    """One input file in one transaction: all of it or (on `SourceAbort`) none of it."""
    stats = writer.stats
    with open_input(path, data_dir / "downloads") as inp, conn.begin():
        for item in source.parse(inp.stream, inp.name):
            stats.read += 1
            if isinstance(item, RecordError):
                stats.reject(item.reason)
                rejects(item.reason, item.raw)
            elif isinstance(item, Skipped):
                stats.skip(item.reason)
            else:
                writer.write(item)


def _backend(engine: Engine, data_dir: Path) -> SearchBackend:
    url = engine.url.render_as_string(hide_password=False)
    return get_backend(engine, load_settings(database_url=url, data_dir=data_dir))


def row_count(conn: Connection, source_id: str) -> int:
    """Records a source holds in the area's tables (the catalogue's `row_count`)."""
    return queries.source_rows(conn, TABLE_OF[source_id], source_id)
