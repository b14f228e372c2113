"""Running one import: the run record, the input, the loader, rejects, progress and the summary."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn
from sqlalchemy import Engine, func, select, update
from sqlalchemy.engine import Connection

from regintel.db.engine import begin_write, upsert
from regintel.db.jobs import enqueue_relink
from regintel.db.schema import company_sources, data_sources, import_runs
from regintel.ingest import pipeline
from regintel.ingest.base import Source, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import ChangeHook, Loader, LoadStats

STALE_RUN = timedelta(hours=12)


def catalogue_row(info: SourceInfo) -> dict[str, Any]:
    return {
        "id": info.id,
        "name": info.name,
        "publisher": info.publisher,
        "country": info.country,
        "category": info.category,
        "formats": info.formats,
        "licence": info.licence,
        "licence_url": info.licence_url,
        "attribution": info.attribution,
        "url": info.url,
        "cadence": info.cadence,
    }


def sync_catalogue(engine: Engine, infos: Iterable[SourceInfo]) -> None:
    """Upsert the catalogue entries of the known sources (their import figures are kept)."""
    rows = [catalogue_row(i) for i in infos]
    with begin_write(engine) as conn:
        upsert(conn, data_sources, rows, keys=["id"])


class RejectFile:
    """Rejected rows with their reasons, one JSON object a line, opened on the first reject."""

    def __init__(self, path: Path):
        self.path = path
        self._fh: Any = None

    def __call__(self, reason: str, raw: object) -> None:
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "w", encoding="utf-8")
        self._fh.write(json.dumps({"reason": reason, "record": raw}, ensure_ascii=False, default=str) + "\n")

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()


def run_import(
    engine: Engine,
    source: Source,
    location: str,
    data_dir: Path,
    *,
    progress: bool = False,
    batch_size: int = 2_000,
    hooks: Iterable[ChangeHook] | None = None,
    parse_ahead: bool | None = None,
) -> tuple[int, LoadStats, Path | None]:
    """Import `location` with `source`; returns (run id, stats, reject file or None). `hooks` default
    to the loader's (monitoring events and the webhook/e-mail outbox, in each batch's transaction).

    `parse_ahead` parses in a forked process while this one loads (see `ingest.pipeline`); None
    decides by the input: files of PARSE_AHEAD_BYTES or more, when the machine has a second core."""
    if hasattr(source, "import_into"):  # a section source writes its own area's tables, not companies
        done: tuple[int, LoadStats, Path | None] = source.import_into(engine, location, data_dir)
        return done
    info = source.info
    sync_catalogue(engine, [info])
    now = datetime.now(UTC)
    with begin_write(engine) as conn:
        # A run left 'running' by a crash is over; its batches either committed or did not.
        conn.execute(
            update(import_runs)
            .where(
                import_runs.c.source == info.id,
                import_runs.c.status == "running",
                import_runs.c.started_at < now - STALE_RUN,
            )
            .values(status="interrupted")
        )
        run_id = conn.execute(
            import_runs.insert()
            .values(source=info.id, location=location, status="running", started_at=now)
            .returning(import_runs.c.id)
        ).scalar_one()
    rejects = RejectFile(data_dir / "rejects" / f"{info.id}-{run_id}.jsonl")
    loader = Loader(engine, info, run_id=run_id, batch_size=batch_size, reject=rejects, on_changes=hooks)
    status = "failed"
    try:
        with (
            open_input(
                location, data_dir / "downloads", whole_archive=getattr(source, "reads_archive", False)
            ) as inp,
            loader.holding_connection(),
            pipeline.parsed(
                source, inp, pipeline.worthwhile(inp.size) if parse_ahead is None else parse_ahead
            ) as chunks,
        ):
            with _progress(progress, inp.size, info.id) as bar:
                task = bar.add_task(info.id, total=inp.size)
                for items, read_bytes in chunks:
                    for item in items:
                        loader.add(item)
                    bar.update(task, completed=read_bytes)
                loader.flush()
                bar.update(task, completed=inp.size)
        status = "succeeded"
    except SourceAbort as exc:
        loader.stats.reasons[f"aborted: {exc}"] = 1
        raise
    finally:
        rejects.close()
        finish_run(engine, info, run_id, status, loader.stats)
    return run_id, loader.stats, rejects.path if rejects.path.exists() else None


def _progress(enabled: bool, total: int | None, label: str) -> Progress:
    console = Console(stderr=True)
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not (enabled and console.is_terminal),
        transient=False,
    )


def finish_run(engine: Engine, info: SourceInfo, run_id: int, status: str, stats: LoadStats) -> None:
    now = datetime.now(UTC)
    # The row count is read before the run's row is written: on SQLite the transaction must hold the
    # write lock from its start, or a commit by any other writer in between (the job runner, another
    # import) fails it at once with "database is locked" and leaves the run 'running'.
    with begin_write(engine) as conn:
        _record_end(conn, info.id, run_id, status, stats, company_source_count(conn, info.id), now)
        relink_after_load(info.country)(conn, status, stats, now)


def company_source_count(conn: Connection, source_id: str) -> int:
    """How many companies `source_id` provides (the catalogue's row count of a company register)."""
    count: int = conn.execute(
        select(func.count()).select_from(company_sources).where(company_sources.c.source == source_id)
    ).scalar_one()
    return count


RunEnd = Callable[[Connection, str, LoadStats, datetime], None]
"""Work that follows a run's end, in the transaction that records it: (connection, status, stats, now)."""


def relink_after_load(country: str | None) -> RunEnd:
    """The end of a run that loaded companies of `country`: when it succeeded and inserted or updated
    any, the relink jobs are queued, since records of other areas may now name a company held here."""

    def relink(conn: Connection, status: str, stats: LoadStats, now: datetime) -> None:
        if status == "succeeded" and (stats.inserted or stats.updated):
            enqueue_relink(conn, now, country)

    return relink


def _record_end(
    conn: Connection,
    source_id: str,
    run_id: int,
    status: str,
    stats: LoadStats,
    row_count: int,
    now: datetime,
) -> None:
    """The run's end on its `import_runs` row, and the catalogue's row count, last run and (on success)
    last import time."""
    conn.execute(
        update(import_runs)
        .where(import_runs.c.id == run_id)
        .values(status=status, finished_at=now, stats=stats.as_dict())
    )
    values: dict[str, Any] = {
        "row_count": row_count,
        "last_run": {"run_id": run_id, "status": status, **stats.as_dict()},
    }
    if status == "succeeded":
        values["last_import_at"] = now
    conn.execute(update(data_sources).where(data_sources.c.id == source_id).values(**values))


def input_files(location: str, suffixes: tuple[str, ...], stats: LoadStats) -> list[str]:
    """The files an import of `location` reads: `location` itself, or the files of the folder it names
    whose names end in `suffixes` (any case), in name order, each other file counted as skipped."""
    if not Path(location).is_dir():
        return [location]
    entries = sorted(p for p in Path(location).iterdir() if p.is_file())
    files = [str(p) for p in entries if p.name.lower().endswith(suffixes)]
    for _ in range(len(entries) - len(files)):
        stats.skip(f"files in the folder not ending in {', '.join(suffixes)}")
    return files


class AreaRun:
    """An area importer's run in progress (`area_run`): its id, its reject file and the stats it fills.
    The importer may replace `stats` (the figures from before a file it aborted); the run ends with
    whatever `stats` is then."""

    def __init__(self, run_id: int, rejects: RejectFile) -> None:
        self.id = run_id
        self.rejects = rejects
        self.stats = LoadStats()

    def result(self) -> tuple[int, LoadStats, Path | None]:
        """(run id, stats, reject file or None), as `run_import` returns."""
        return self.id, self.stats, self.rejects.path if self.rejects.path.exists() else None


@contextmanager
def area_run(
    engine: Engine,
    info: SourceInfo,
    location: str,
    data_dir: Path,
    row_count: Callable[[Connection, str], int],
    on_end: RunEnd | None = None,
) -> Iterator[AreaRun]:
    """The run record of an importer that writes its own area's tables instead of going through the
    `Loader` (filed statements, debtor lists, regulated registers, public money): the catalogue entry
    synced, a `running` row in `import_runs`, the reject file `rejects/<source>-<run id>.jsonl`; on
    leaving the block, the reject file closed and the run marked `succeeded` (`failed` when the block
    raised, the exception going on) with its stats, and the catalogue's `row_count` taken from
    `row_count(conn, source id)` in the same transaction; `on_end` runs last in that transaction (the
    GB stream follower, which loads companies, queues its relink there: `relink_after_load`)."""
    sync_catalogue(engine, [info])
    with begin_write(engine) as conn:
        run_id = conn.execute(
            import_runs.insert()
            .values(source=info.id, location=location, status="running", started_at=datetime.now(UTC))
            .returning(import_runs.c.id)
        ).scalar_one()
    run = AreaRun(run_id, RejectFile(Path(data_dir) / "rejects" / f"{info.id}-{run_id}.jsonl"))
    status = "failed"
    try:
        yield run
        status = "succeeded"
    finally:
        run.rejects.close()
        now = datetime.now(UTC)
        with begin_write(engine) as conn:
            _record_end(conn, info.id, run_id, status, run.stats, row_count(conn, info.id), now)
            if on_end is not None:
                on_end(conn, status, run.stats, now)
