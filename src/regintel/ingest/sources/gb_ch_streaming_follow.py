"""Importing Companies House stream events: from a saved file or by following the live HTTP stream.

The events are committed in steps (every `batch_size` events, and at each keep-alive line the stream
sends while idle): the company records through the shared loader, the filings as change-log rows
with their monitoring hooks, then the step's last timepoint is saved. A run started without a
`timepoint` in its URL resumes from the saved one (`data_dir/streams/gb_ch_streaming.json`, one
entry per stream path). Companies House starts a stream at the timepoint given, so the last event
of the previous run is read again, which writes nothing (the import is idempotent).

A live stream never ends by itself: a run stops when the server closes the connection, after
`max_events` events or after `max_seconds` (defaults from REGINTEL_CH_STREAM_MAX_EVENTS and
REGINTEL_CH_STREAM_MAX_SECONDS). The stream key (HTTP basic user name) is REGINTEL_CH_STREAM_KEY.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Engine, select
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, company_changes
from regintel.domain.identifiers import parse_national_id
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import SourceAbort
from regintel.ingest.batch import LoadStats, insert_changes
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import Loader, default_hooks
from regintel.ingest.runner import area_run, company_source_count, relink_after_load
from regintel.ingest.sources.gb_ch_streaming import INFO, FilingEvent, events
from regintel.ingest.streams import buffered

FILING_FIELD = "filing"
NOT_HELD = "filing of a company not in the database"


def import_into(
    engine: Engine,
    location: str,
    data_dir: Path,
    *,
    batch_size: int = 2_000,
    max_events: int | None = None,
    max_seconds: float | None = None,
    api_key: str | None = None,
) -> tuple[int, LoadStats, Path | None]:
    """Import a stream file or follow a stream URL; returns (run id, stats, reject file or None)."""
    if max_events is None:
        max_events = _env_number("REGINTEL_CH_STREAM_MAX_EVENTS", int)
    if max_seconds is None:
        max_seconds = _env_number("REGINTEL_CH_STREAM_MAX_SECONDS", float)
    with area_run(
        engine, INFO, location, data_dir, company_source_count, on_end=relink_after_load(INFO.country)
    ) as run:
        loader = Loader(engine, INFO, run_id=run.id, batch_size=batch_size, reject=run.rejects)
        run.stats = loader.stats
        try:
            if location.startswith(("http://", "https://")):
                store = TimepointStore(data_dir / "streams" / f"{INFO.id}.json")
                url = store.resume_url(location)
                with _stream(url, api_key or os.environ.get("REGINTEL_CH_STREAM_KEY"), max_seconds) as lines:
                    consume(
                        loader,
                        lines,
                        batch_size=batch_size,
                        max_events=max_events,
                        max_seconds=max_seconds,
                        on_commit=lambda tp: store.save(url, tp),
                        live=True,
                    )
            else:
                with open_input(location, data_dir / "downloads") as inp:
                    consume(loader, buffered(inp.stream), batch_size=batch_size)
        except SourceAbort as exc:
            loader.stats.reasons[f"aborted: {exc}"] = 1
            raise
    return run.result()


def consume(
    loader: Loader,
    lines: Iterable[bytes],
    *,
    batch_size: int,
    max_events: int | None = None,
    max_seconds: float | None = None,
    on_commit: Any = None,
    live: bool = False,
) -> None:
    """Feed the events to the loader, committing a step at `batch_size` events and at keep-alives."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    filings: list[FilingEvent] = []
    seen, last_tp, pending = 0, None, 0
    for event in events(lines, heartbeats=True, empty_ok=live):
        if event is not None:
            seen += 1
            pending += 1
            last_tp = event.timepoint if event.timepoint is not None else last_tp
            if isinstance(event.item, FilingEvent):
                loader.stats.read += 1
                filings.append(event.item)
            else:
                loader.add(event.item)
        done = (max_events is not None and seen >= max_events) or (
            deadline is not None and time.monotonic() >= deadline
        )
        if pending and (pending >= batch_size or event is None or done):
            _commit(loader, filings, last_tp, on_commit)
            filings, pending = [], 0
        if done:
            return
    if pending:
        _commit(loader, filings, last_tp, on_commit)


def _commit(loader: Loader, filings: list[FilingEvent], timepoint: int | None, on_commit: Any) -> None:
    loader.flush()
    if filings:
        with loader.engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
            record_filings(conn, loader, filings)
    if on_commit is not None and timepoint is not None:
        on_commit(timepoint)


def record_filings(conn: Connection, loader: Loader, filings: list[FilingEvent]) -> None:
    """One `filing` change row per new filing of a company held here; the loader's hooks (monitoring
    events, webhook and e-mail outbox) run on them in the same transaction."""
    wanted: dict[str, list[FilingEvent]] = {}
    for filing in filings:
        try:
            number = parse_national_id("GB", filing.company_number)
        except InvalidIdentifier as exc:
            loader.stats.reject(f"invalid identifier: {exc.message}")
            continue
        wanted.setdefault(number, []).append(filing)
    ids = dict(
        conn.execute(
            select(companies.c.national_id, companies.c.id).where(
                companies.c.country == "GB", companies.c.national_id.in_(sorted(wanted))
            )
        ).all()
    )
    known = {
        (r.company_id, r.new_value)
        for r in conn.execute(
            select(company_changes.c.company_id, company_changes.c.new_value).where(
                company_changes.c.field == FILING_FIELD,
                company_changes.c.company_id.in_(sorted(ids.values())),
            )
        )
    }
    now = datetime.now(UTC)
    rows = []
    for number, items in wanted.items():
        company_id = ids.get(number)
        for filing in items:
            if company_id is None:
                loader.stats.skip(NOT_HELD)
            elif (company_id, filing.summary) in known:
                loader.stats.unchanged += 1
            else:
                known.add((company_id, filing.summary))
                rows.append(loader.change(company_id, FILING_FIELD, None, filing.summary, now))
    if rows:
        insert_changes(conn, rows)
        loader.stats.changes += len(rows)
        for hook in default_hooks():
            hook(conn, rows)


class TimepointStore:
    """The last committed timepoint of each stream path, in a small JSON file."""

    def __init__(self, path: Path):
        self.path = path

    def _read(self) -> dict[str, int]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except ValueError:
            raise SourceAbort(f"{self.path} is not a timepoint file (JSON object)") from None
        return {k: v for k, v in data.items() if isinstance(v, int)} if isinstance(data, dict) else {}

    def get(self, url: str) -> int | None:
        return self._read().get(httpx.URL(url).path)

    def resume_url(self, url: str) -> str:
        parsed = httpx.URL(url)
        if "timepoint" in parsed.params:
            return url
        saved = self.get(url)
        return url if saved is None else str(parsed.copy_merge_params({"timepoint": saved}))

    def save(self, url: str, timepoint: int) -> None:
        data = self._read()
        data[httpx.URL(url).path] = timepoint
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, sort_keys=True), encoding="utf-8")
        tmp.replace(self.path)  # atomic: a crash leaves the old or the new timepoint, never half a file


class _stream:
    """The response lines of a long-lived GET, as a context manager."""

    def __init__(self, url: str, key: str | None, max_seconds: float | None):
        read = 90.0 if max_seconds is None else max(1.0, min(90.0, max_seconds))
        self._client = httpx.Client(timeout=httpx.Timeout(10.0, read=read), auth=(key, "") if key else None)
        self._url = url
        self._cm: Any = None

    def __enter__(self) -> Iterator[bytes]:
        try:
            self._cm = self._client.stream("GET", self._url)
            response = self._cm.__enter__()
        except httpx.HTTPError as exc:
            self._client.close()
            raise SourceAbort(f"cannot open {self._url}: {exc}") from None
        if response.status_code != 200:
            self.__exit__(None, None, None)
            raise SourceAbort(f"{self._url} answered HTTP {response.status_code}")
        return _lines(response)

    def __exit__(self, *exc: object) -> None:
        try:
            self._cm.__exit__(None, None, None)
        finally:
            self._client.close()


def _lines(response: httpx.Response) -> Iterator[bytes]:
    try:
        for line in response.iter_lines():
            yield line.encode("utf-8")
    except httpx.ReadTimeout:
        return  # no event and no keep-alive within the read timeout: end the run, resume later
    except httpx.HTTPError as exc:
        raise SourceAbort(f"the stream broke off: {exc}") from None


def _env_number(name: str, kind: type[Any]) -> Any:
    raw = os.environ.get(name)
    if not raw:
        return None
    try:
        return kind(raw)
    except ValueError:
        raise SourceAbort(f"{name} is not a number: {raw!r}") from None
