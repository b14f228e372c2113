"""One import of register domains into `company_domains`: the run record, the catalogue entry, the reject
file, and the differences written in one transaction (docs/security-posture.md, "Data"). The KBO contact
set (`run_contacts_import`) and the websites of other registers' files (`run_register_domains`: the
Brønnøysund and PRH sources hand their parsed websites here) share it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.security import queries
from regintel.areas.security.contacts import INFO, ContactSet, DomainRow, read_set
from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import area_run


def run_contacts_import(engine: Engine, location: str, data_dir: Path) -> tuple[int, LoadStats, Path | None]:
    """Import `location`; returns (run id, stats, reject file or None) like `ingest.runner.run_import`."""
    return _run(engine, INFO, "BE", location, data_dir, lambda: read_set(location))


def run_register_domains(
    engine: Engine,
    info: SourceInfo,
    country: str,
    location: str,
    data_dir: Path,
    read: Callable[[IO[bytes]], ContactSet],
) -> tuple[int, LoadStats, Path | None]:
    """Import the websites `read` finds in a register file (a path or URL, `.gz` accepted) under `info`."""

    def parsed() -> ContactSet:
        with open_input(location, Path(data_dir) / "downloads") as inp:
            return read(inp.stream)

    return _run(engine, info, country, location, data_dir, parsed)


def _run(
    engine: Engine,
    info: SourceInfo,
    country: str,
    location: str,
    data_dir: Path,
    parse: Callable[[], ContactSet],
) -> tuple[int, LoadStats, Path | None]:
    with area_run(engine, info, location, data_dir, row_count) as run:
        try:
            parsed = parse()
            run.stats.read = parsed.read
            for err in parsed.rejects:
                run.stats.reject(err.reason)
                run.rejects(err.reason, err.raw)
            for reason, n in parsed.skips.items():
                for _ in range(n):
                    run.stats.skip(reason)
            with engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
                _apply(conn, parsed, run.id, run.stats, info.id, country)
        except SourceAbort as exc:
            run.rejects(f"aborted: {exc}", {"location": location})
            raise
    return run.result()


def _key(row: Any) -> tuple[str, str, str]:
    return (row.national_id, row.host, row.kind)


def _apply(
    conn: Connection, parsed: ContactSet, run_id: int, stats: LoadStats, source: str, country: str
) -> None:
    """Write what differs from what the source stored for the enterprises the input speaks of."""
    rows = (
        queries.source_domains(conn, source, country)
        if parsed.full
        else queries.source_domains_of(conn, source, country, sorted(parsed.touched))
    )
    stored = {_key(r): r for r in rows}
    wanted: dict[tuple[str, str, str], DomainRow] = {}
    for row in parsed.rows:
        wanted.setdefault(_key(row), row)
    gone = [r.id for k, r in stored.items() if k not in wanted]
    now = datetime.now(UTC)
    new = [
        {
            "country": country,
            "national_id": r.national_id,
            "host": r.host,
            "registered_domain": r.registered_domain,
            "kind": r.kind,
            "value": r.value,
            "source": source,
            "source_record": r.record,
            "published_on": parsed.published_on,
            "run_id": run_id,
            "retrieved_at": now,
        }
        for k, r in wanted.items()
        if k not in stored
    ]
    changed = [
        (stored[k].id, r.value) for k, r in wanted.items() if k in stored and stored[k].value != r.value
    ]
    queries.delete_domains(conn, gone)
    if new:
        queries.insert_domains(conn, new)
    for row_id, value in changed:
        queries.refresh_domain(conn, row_id, value, run_id, now, parsed.published_on)
    stats.inserted, stats.updated = len(new), len(changed)
    stats.unchanged = len(wanted) - len(new) - len(changed)
    stats.changes = len(new) + len(changed) + len(gone)
    if gone:
        stats.skip_reasons["domains removed (the enterprise no longer lists them)"] = len(gone)


def row_count(conn: Connection, source: str = INFO.id) -> int:
    return queries.domain_count(conn, source)
