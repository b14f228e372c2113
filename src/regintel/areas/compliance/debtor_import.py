"""One import of a debtor list (`regintel import sk_socpoist_debtors FILE`, …): the run record, the
catalogue entry, the reject file and one transaction for the whole file.

A list is a snapshot of (source, creditor) on its date. New entries are inserted; an entry the list still
carries keeps its row (its `last_listed_on` moves on); one it no longer carries is marked `delisted_on`
the list's date, not deleted. Importing the same file again writes nothing; a list older than the one
already imported is refused (an old file must not roll the lists back). Entries are linked to companies
by IČO, or, for the tax list which has none, by the normalised name and the postcode when exactly one
company of the country has both (docs/compliance.md, "Debtor lists")."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import IO, Any, Protocol

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.compliance import queries
from regintel.domain.names import normalise_name
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.inputs import open_input
from regintel.ingest.loader import LoadStats
from regintel.ingest.runner import RejectFile, area_run
from regintel.ingest.sources.sk_debtors import DebtorRecord


class DebtorSource(Protocol):
    info: SourceInfo
    suffixes: tuple[str, ...]

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Any]: ...


def run_debtor_import(
    engine: Engine, source: DebtorSource, location: str, data_dir: Path
) -> tuple[int, LoadStats, Path | None]:
    """Import one list file; returns (run id, stats, reject file or None) like `run_import`. A malformed
    file (`SourceAbort`) writes nothing of itself and stops the run with its reason."""
    info = source.info
    with (
        area_run(engine, info, location, data_dir, queries.debtor_entry_count) as run,
        engine.connect().execution_options(sqlite_immediate=True) as conn,
    ):
        try:
            with (
                open_input(location, Path(data_dir) / "downloads", whole_archive=True) as inp,
                conn.begin(),
            ):
                records = _parse(source, inp.stream, inp.name, run.stats, run.rejects)
                write(conn, info.id, records, run.id, run.stats)
        except SourceAbort as exc:
            run.rejects(f"aborted: {exc}", {"location": location})
            raise
    return run.result()


def _parse(
    source: DebtorSource, stream: IO[bytes], name: str, stats: LoadStats, rejects: RejectFile
) -> list[DebtorRecord]:
    records: list[DebtorRecord] = []
    for item in source.parse(stream, name):
        stats.read += 1
        if isinstance(item, RecordError):
            stats.reject(item.reason)
            rejects(item.reason, item.raw)
        elif isinstance(item, Skipped):
            stats.skip(item.reason)
        else:
            records.append(item)
    return records


def _dedupe(
    records: Sequence[DebtorRecord], stats: LoadStats
) -> dict[tuple[str, str], dict[str, DebtorRecord]]:
    """(creditor, record_key) → the record; a row repeated in one list counts once."""
    lists: dict[tuple[str, str], dict[str, DebtorRecord]] = {}
    for r in records:
        entries = lists.setdefault((r.kind, r.creditor), {})
        if r.record_key in entries:
            stats.skip("the same entry twice in the list")
            continue
        entries[r.record_key] = r
    return lists


def _match(conn: Connection, records: Sequence[DebtorRecord]) -> dict[str, tuple[int | None, str]]:
    """record_key → (company id, how it was matched)."""
    by_id = queries.company_ids_by_national_id(conn, "SK", [r.national_id for r in records if r.national_id])
    named = [r for r in records if not r.national_id]
    candidates: dict[tuple[str, str], list[int]] = {}
    if named:
        for norm, postcode, cid in queries.companies_by_name_norm(
            conn, "SK", [normalise_name(r.name) for r in named]
        ):
            candidates.setdefault((norm, "".join((postcode or "").split())), []).append(cid)
    out: dict[str, tuple[int | None, str]] = {}
    for r in records:
        if r.national_id:
            linked = by_id.get(r.national_id)
            out[r.record_key] = (linked, "identifier" if linked else "none")
            continue
        found = candidates.get((normalise_name(r.name), r.postcode or ""), [])
        out[r.record_key] = (found[0], "name_postcode") if len(found) == 1 and r.postcode else (None, "none")
    return out


def write(
    conn: Connection, source_id: str, records: Sequence[DebtorRecord], run_id: int | None, stats: LoadStats
) -> None:
    now = datetime.now(UTC)
    for (kind, creditor), entries in _dedupe(records, stats).items():
        listed_on = max(r.listed_on for r in entries.values())
        newest: date | None = queries.debtor_list_date(conn, source_id, creditor)
        if newest is not None and listed_on < newest:
            raise SourceAbort(
                f"the list of {creditor} of {listed_on} is older than the one imported "
                f"({newest}); import the newest list"
            )
        stored = queries.stored_debtor_entries(conn, source_id, creditor)
        matches = _match(conn, list(entries.values()))
        inserts: list[dict[str, Any]] = []
        updates: list[dict[str, Any]] = []
        for key, r in entries.items():
            cid, how = matches[key]
            old = stored.get(key)
            if old is None:
                inserts.append(
                    {
                        "source": source_id,
                        "kind": kind,
                        "creditor": creditor,
                        "record_key": key,
                        "country": r.country,
                        "national_id": r.national_id,
                        "company_id": cid,
                        "match": how,
                        "name": r.name,
                        "address": r.address,
                        "amount": r.amount,
                        "currency": r.currency,
                        "listed_on": r.listed_on,
                        "last_listed_on": r.listed_on,
                        "delisted_on": None,
                        "run_id": run_id,
                        "imported_at": now,
                    }
                )
                continue
            change: dict[str, Any] = {}
            if old["delisted_on"] is not None:
                change["delisted_on"] = None
            if old["last_listed_on"] < r.listed_on:
                change["last_listed_on"] = r.listed_on
            if cid is not None and old["company_id"] != cid:
                change |= {"company_id": cid, "match": how}
            if change:
                updates.append({"entry_id": old["id"], **change})
            else:
                stats.unchanged += 1
        gone = [
            {"entry_id": old["id"], "delisted_on": listed_on}
            for key, old in stored.items()
            if key not in entries and old["delisted_on"] is None and old["last_listed_on"] < listed_on
        ]
        queries.insert_debtor_entries(conn, inserts)
        queries.update_debtor_entries(conn, updates + gone)
        stats.inserted += len(inserts)
        stats.updated += len(updates) + len(gone)
        stats.changes += len(inserts) + len(updates) + len(gone)
