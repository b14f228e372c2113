"""The one loader every source shares: batched, idempotent upserts with a field-level change log.

Each batch is one transaction: companies, identifiers, provenance, roles, financials, LEI data,
ownership edges and the change log rows are written together or not at all, so an interrupted
import re-run converges to the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.engine import Connection

from regintel.db.engine import execute_many
from regintel.db.jobs import enqueue_search_index
from regintel.db.schema import companies, company_sources
from regintel.domain.identifiers import parse_national_id
from regintel.domain.insolvency import InsolvencyFlags, merge_flags
from regintel.domain.names import normalise_address, normalise_name
from regintel.domain.types import (
    CompanyRecord,
    InsolvencyEventRecord,
    LeiRecord,
    LeiRelationshipRecord,
    OwnershipRecord,
    Record,
    RegistrationAuthorityRecord,
    ReportingExceptionRecord,
    StatementRecord,
)
from regintel.errors import InvalidIdentifier
from regintel.ingest import insolvency, sections, statements
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.batch import Batch, ChangeRow, change_row, insert_changes
from regintel.ingest.batch import LoadStats as LoadStats  # imported from here by the importers
from regintel.ingest.company_inserts import insert_companies
from regintel.ingest.sections import activity_digits

# Company columns a source record may set (everything but ids, derived columns and bookkeeping).
COMPANY_FIELDS = (
    "name",
    "legal_form",
    "legal_form_name",
    "status",
    "founded_on",
    "dissolved_on",
    "street",
    "city",
    "postal_code",
    "address_text",
    "region_code",
    "district_code",
    "municipality_code",
    "nuts3",
    "nace_primary",
    "nace_codes",
    "size_class",
    "employees",
    "vat_id",
    "tax_id",
    "lei",
)
FLAG_FIELDS = ("in_bankruptcy", "in_restructuring", "in_liquidation")
_NACE = {"nace_primary", "nace_codes"}  # what company_activities is derived from
_NO_FLAGS = InsolvencyFlags()


ChangeHook = Callable[[Connection, list[ChangeRow]], None]


def default_hooks() -> list[ChangeHook]:
    """Hooks every load runs unless told otherwise: monitoring events, webhook and e-mail outbox rows, and
    the screening of the companies the batch added or renamed."""
    from regintel.areas.monitoring.outbox import record_monitoring
    from regintel.db.jobs import queue_screening

    return [record_monitoring, queue_screening]


# Tables an import grows, analysed as it goes on PostgreSQL (Loader._analyse_if_grown).
ANALYSED_TABLES = (
    "companies",
    "company_sources",
    "identifiers",
    "people",
    "roles",
    "ownerships",
    "financial_statements",
    "company_changes",
    "lei_records",
    "insolvency_events",
)
ANALYSE_FIRST = 10_000


class Loader:
    """Buffer records and write them in batches. `on_changes` hooks run inside each batch's
    transaction with the change rows written (with their ids), so monitoring and outbox rows commit
    with the data; None means `default_hooks()`, an empty list none."""

    def __init__(
        self,
        engine: Engine,
        source: SourceInfo,
        *,
        run_id: int | None = None,
        batch_size: int = 2_000,
        reject: Callable[[str, object], None] | None = None,
        on_changes: Iterable[ChangeHook] | None = None,
    ):
        self.engine = engine
        self.source = source
        self.run_id = run_id
        self.batch_size = batch_size
        self.stats = LoadStats()
        self._reject_sink = reject
        self._hooks = default_hooks() if on_changes is None else list(on_changes)
        self._buffer: list[Record] = []
        # Gazette notices about a company neither the database nor their batch names, by notice id:
        # a later batch may create it, so they are decided at the end of the input (`flush`).
        self.waiting_notices: dict[str, InsolvencyEventRecord] = {}
        self._conn: Connection | None = None
        self._analysed_at = 0

    def add(self, item: Record | RecordError | Skipped) -> None:
        self.stats.read += 1
        if isinstance(item, RecordError):
            self.stats.reject(item.reason)
            if self._reject_sink is not None:
                self._reject_sink(item.reason, item.raw)
            return
        if isinstance(item, Skipped):
            self.stats.skip(item.reason)
            return
        self._buffer.append(item)
        if len(self._buffer) >= self.batch_size:
            batch, self._buffer = self._buffer, []
            self._write_batch(batch)

    def flush(self) -> None:
        """Write what is buffered: the end of the input. The gazette notices that waited for their
        company are decided last, so a file imported twice stores the same notices both times (a
        notice read before the one that names its company is not left for the next run)."""
        if self._buffer:
            batch, self._buffer = self._buffer, []
            self._write_batch(batch)
        waiting = list(self.waiting_notices.values())
        self.waiting_notices.clear()
        for start in range(0, len(waiting), self.batch_size):
            self._write_batch(list(waiting[start : start + self.batch_size]), last=True)

    def _write_batch(self, batch: list[Record], *, last: bool = False) -> None:
        # Read-then-write: on SQLite take the write lock first, or a concurrent writer (the worker)
        # would fail this batch with "database is locked".
        if self._conn is not None:
            with self._conn.begin():
                self._write(self._conn, batch, last)
        else:
            with self.engine.connect().execution_options(sqlite_immediate=True) as conn, conn.begin():
                self._write(conn, batch, last)
        self._analyse_if_grown()

    def _analyse_if_grown(self) -> None:
        """PostgreSQL: refresh planner statistics each time this run has doubled what it wrote. Without
        them (autovacuum off, as on this project's test server, or behind after a big first import)
        the planner plans for an empty table: a synth build without statistics answered a by-LEI
        lookup by walking the primary key (240 ms instead of 0.6 ms at 1M). ANALYZE samples a fixed
        number of rows, so the doubling keeps the total cost small."""
        if self.engine.dialect.name != "postgresql":
            return
        written = self.stats.inserted + self.stats.updated
        if written < max(ANALYSE_FIRST, 2 * self._analysed_at):
            return
        self._analysed_at = written
        with self.engine.connect() as conn, conn.begin():
            for table in ANALYSED_TABLES:
                conn.exec_driver_sql(f"ANALYZE {table}")

    @contextmanager
    def holding_connection(self) -> Iterator[None]:
        """Write every batch flushed inside through one connection (still one transaction each):
        SQLite keeps its page cache and WAL file between batches instead of reopening, checkpointing
        and deleting them per batch, and PostgreSQL without a pool connects once."""
        with self.engine.connect().execution_options(sqlite_immediate=True) as conn:
            self._conn = conn
            try:
                yield
            finally:
                self._conn = None

    def _write(self, conn: Connection, records: list[Record], last: bool = False) -> None:
        batch = Batch(conn, self.source, self.run_id, datetime.now(UTC), self.stats, self._reject_sink)
        # Gazette notices move flags through company records of their own (ingest/insolvency.py).
        notices = insolvency.prepare(
            batch,
            [r for r in records if isinstance(r, InsolvencyEventRecord)],
            self.waiting_notices,
            last=last,
        )
        company_records = [r for r in records if isinstance(r, CompanyRecord)] + notices.records
        ids, company_records = self._load_companies(batch, company_records)
        insolvency.write_events(batch, notices, ids)
        sections.load_roles(batch, company_records, ids)
        sections.load_financials(batch, company_records, ids)
        statements.load_statements(batch, [r for r in records if isinstance(r, StatementRecord)])
        sections.load_lei(batch, [r for r in records if isinstance(r, LeiRecord)])
        sections.load_lei_relationships(batch, [r for r in records if isinstance(r, LeiRelationshipRecord)])
        sections.load_reporting_exceptions(
            batch, [r for r in records if isinstance(r, ReportingExceptionRecord)]
        )
        sections.load_ownerships(batch, [r for r in records if isinstance(r, OwnershipRecord)])
        sections.load_registration_authorities(
            batch, [r for r in records if isinstance(r, RegistrationAuthorityRecord)]
        )
        self._count_section_updates(batch)
        if batch.changes:
            # The ids let the hooks point monitoring events and deliveries at their change row.
            insert_changes(conn, batch.changes)
            self.stats.changes += len(batch.changes)
            for hook in self._hooks:
                hook(conn, batch.changes)
            # Last, so that on PostgreSQL a concurrent batch queueing the same job waits only for this
            # commit (the dedupe key's unique index); the index follows what the batch wrote.
            enqueue_search_index(conn, batch.now)

    def _count_section_updates(self, batch: Batch) -> None:
        """A company whose own fields stayed but whose roles or statements changed was updated."""
        moved = batch.unchanged_ids & {c["company_id"] for c in batch.changes}
        if not moved:
            return
        self.stats.unchanged -= len(moved)
        self.stats.updated += len(moved)
        batch.conn.execute(
            companies.update().where(companies.c.id.in_(sorted(moved))).values(updated_at=batch.now)
        )

    def change(self, company_id: int, name: str, old: Any, new: Any, now: datetime) -> ChangeRow:
        """A change row of this load (for writers outside a batch: the streaming follower's filings)."""
        return change_row(self.source.id, self.run_id, company_id, name, old, new, now)

    # -- companies -------------------------------------------------------------------------------

    def _load_companies(
        self, batch: Batch, records: list[CompanyRecord]
    ) -> tuple[dict[tuple[str, str], int], list[CompanyRecord]]:
        """Write the batch's companies; their ids by key and the records with their keys normalised
        (the roles and statements they carry are written by those keys)."""
        conn, now = batch.conn, batch.now
        keyed: list[CompanyRecord] = []
        valid: dict[tuple[str, str], CompanyRecord] = {}
        for rec in records:
            country = rec.country.upper()
            try:
                national_id = parse_national_id(country, rec.national_id)
            except InvalidIdentifier as exc:
                keyed.append(rec if rec.country == country else replace(rec, country=country))
                batch.reject(f"invalid identifier: {exc.message}", rec.source_record_id or rec.national_id)
                continue
            if (country, national_id) != (rec.country, rec.national_id):
                rec = replace(rec, country=country, national_id=national_id)
            keyed.append(rec)
            if rec.in_bankruptcy and rec.in_restructuring:
                batch.reject("bankruptcy and restructuring declared at once (spec 2.2)", rec.national_id)
                continue
            valid[(rec.country, rec.national_id)] = rec  # the last record for a key wins
        for key in sections.withheld_companies(conn, list(valid)):
            del valid[key]  # a withheld sole trader stays withheld: `regintel privacy lift` brings it back
            self.stats.skip("withheld after a data-protection request")
        if not valid:
            return {}, keyed
        existing = _existing(conn, list(valid))
        self._drop_stale(conn, valid, existing)
        own = self._described_only_here(conn, existing.values()) if self.source.keeps_own_current else set()
        ids: dict[tuple[str, str], int] = {}
        inserts: list[tuple[tuple[str, str], dict[str, Any]]] = []
        updates: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for key, rec in valid.items():
            row = existing.get(key)
            if row is None:
                if not rec.name:
                    batch.reject("unknown company and the record has no name", rec.national_id)
                    continue
                inserts.append((key, self._new_row(rec, now)))
                continue
            ids[key] = row["id"]
            self._update(batch, rec, row, updates, fill_only=self.source.fill_only and row["id"] not in own)
        for columns, rows in updates.items():
            # One cached statement a set of changed columns, executed over the batch's companies.
            execute_many(conn, _update_statement(columns), rows)
        if inserts:
            # RETURNING without sort_by_parameter_order lets the driver batch the rows (with it,
            # SQLite inserts one row per statement); the key columns map the ids back instead.
            for new_id, country, national_id in insert_companies(conn, [row for _, row in inserts]):
                ids[(country, national_id)] = new_id
            for key, row in inserts:
                batch.change(ids[key], "created", None, row["name"])
            self.stats.inserted += len(inserts)
        self._provenance(conn, valid, ids, now)
        sections.load_identifiers(batch, valid, ids)
        sections.load_activities(batch, _activities(inserts, ids, updates, existing))
        return ids, keyed

    def _drop_stale(
        self,
        conn: Connection,
        valid: dict[tuple[str, str], CompanyRecord],
        existing: dict[tuple[str, str], Any],
    ) -> None:
        """Skip records published before what this source already gave for the company, so that
        re-importing an old file after a newer one (or a delta before the golden copy) never
        rolls data back."""
        dated = {
            existing[k]["id"]: k for k, r in valid.items() if r.published_on is not None and k in existing
        }
        if not dated or not self.source.snapshots:
            return
        rows = conn.execute(
            select(company_sources.c.company_id, company_sources.c.published_on).where(
                company_sources.c.source == self.source.id, company_sources.c.company_id.in_(list(dated))
            )
        )
        for company_id, published_on in rows:
            key = dated[company_id]
            if published_on is not None and valid[key].published_on < published_on:
                del valid[key]
                self.stats.skip("older than the data already loaded from this source")

    def _new_row(self, rec: CompanyRecord, now: datetime) -> dict[str, Any]:
        row: dict[str, Any] = {f: getattr(rec, f) for f in COMPANY_FIELDS}
        row["status"] = row["status"] or "active"
        flags = _NO_FLAGS
        if rec.in_bankruptcy or rec.in_restructuring or rec.in_liquidation:  # most records set none
            flags = merge_flags(_NO_FLAGS, rec.in_bankruptcy, rec.in_restructuring, rec.in_liquidation)
        row.update(
            in_bankruptcy=flags.in_bankruptcy,
            in_restructuring=flags.in_restructuring,
            in_liquidation=flags.in_liquidation,
            country=rec.country,
            national_id=rec.national_id,
            name_norm=normalise_name(rec.name or ""),
            address_norm=normalise_address(_address(row)),
            source=self.source.id,
            created_at=now,
            updated_at=now,
        )
        return row

    def _described_only_here(self, conn: Connection, rows: Iterable[Any]) -> set[int]:
        """The companies no other source describes (see `SourceInfo.keeps_own_current`)."""
        ids = [row["id"] for row in rows]
        elsewhere: set[int] = set()
        for start in range(0, len(ids), 900):
            elsewhere.update(
                conn.execute(
                    select(company_sources.c.company_id).where(
                        company_sources.c.company_id.in_(ids[start : start + 900]),
                        company_sources.c.source != self.source.id,
                    )
                ).scalars()
            )
        return set(ids) - elsewhere

    def _update(
        self,
        batch: Batch,
        rec: CompanyRecord,
        row: Any,
        updates: dict[tuple[str, ...], list[dict[str, Any]]],
        *,
        fill_only: bool = False,
    ) -> None:
        """Compare a record with its stored row: log the changes and queue the row's update under
        its set of changed columns."""
        new: dict[str, Any] = {}
        for name in COMPANY_FIELDS:
            value = getattr(rec, name)
            if value is None or _same(row[name], value):
                continue
            if fill_only and row[name] not in (None, "", []):
                continue
            new[name] = value
        current = InsolvencyFlags(
            bool(row["in_bankruptcy"]), bool(row["in_restructuring"]), bool(row["in_liquidation"])
        )
        if not fill_only:
            flags = merge_flags(current, rec.in_bankruptcy, rec.in_restructuring, rec.in_liquidation)
            for name in FLAG_FIELDS:
                if getattr(flags, name) != getattr(current, name):
                    new[name] = getattr(flags, name)
        if not new:
            self.stats.unchanged += 1
            batch.unchanged_ids.add(row["id"])
            return
        if "name" in new:
            new["name_norm"] = normalise_name(new["name"])
        if {"street", "city", "postal_code", "address_text"} & set(new):
            new["address_norm"] = normalise_address(_address({**dict(row), **new}))
        new["updated_at"] = batch.now
        params = {f"v_{name}": value for name, value in new.items()}
        params["row_id"] = row["id"]
        updates.setdefault(tuple(new), []).append(params)
        for name, value in new.items():
            if name in COMPANY_FIELDS or name in FLAG_FIELDS:
                batch.change(row["id"], name, row[name], value)
        self.stats.updated += 1

    def _provenance(
        self,
        conn: Connection,
        valid: dict[tuple[str, str], CompanyRecord],
        ids: dict[tuple[str, str], int],
        now: datetime,
    ) -> None:
        from regintel.db.engine import upsert

        rows = [
            {
                "company_id": ids[k],
                "source": self.source.id,
                "source_record_id": r.source_record_id,
                "published_on": r.published_on,
                "first_seen": now,
                "last_seen": now,
                "run_id": self.run_id,
            }
            for k, r in valid.items()
            if k in ids
        ]
        upsert(
            conn,
            company_sources,
            rows,
            keys=["company_id", "source"],
            update=["source_record_id", "published_on", "last_seen", "run_id"],
        )


@lru_cache(maxsize=256)
def _update_statement(columns: tuple[str, ...]) -> Any:
    """UPDATE companies SET c = :v_c, ... WHERE id = :row_id, built once per column set."""
    return (
        companies.update()
        .where(companies.c.id == bindparam("row_id"))
        .values({c: bindparam(f"v_{c}", type_=companies.c[c].type) for c in columns})
    )


def _existing(conn: Connection, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Any]:
    wanted = set(keys)
    out: dict[tuple[str, str], Any] = {}
    national_ids = sorted({k[1] for k in keys})
    for start in range(0, len(national_ids), 900):
        chunk = national_ids[start : start + 900]
        for row in conn.execute(select(companies).where(companies.c.national_id.in_(chunk))).mappings():
            key = (row["country"], row["national_id"])
            if key in wanted:
                out[key] = row
    return out


def _activities(
    inserts: list[tuple[tuple[str, str], dict[str, Any]]],
    ids: dict[tuple[str, str], int],
    updates: dict[tuple[str, ...], list[dict[str, Any]]],
    existing: dict[tuple[str, str], Any],
) -> dict[int, tuple[str, ...]]:
    """The activity rows, as stored now, of the companies inserted that have any and of those whose
    primary activity or activity list changed (an empty tuple deletes theirs); the others keep theirs."""
    out = {
        ids[key]: digits
        for key, row in inserts
        if (digits := activity_digits(row["nace_primary"], row["nace_codes"]))
    }
    changed = [p for columns, rows in updates.items() if _NACE & set(columns) for p in rows]
    if changed:
        stored = {row["id"]: row for row in existing.values()}
        for p in changed:
            row = stored[p["row_id"]]
            out[p["row_id"]] = activity_digits(
                p.get("v_nace_primary", row["nace_primary"]), p.get("v_nace_codes", row["nace_codes"])
            )
    return out


def _address(row: dict[str, Any]) -> str:
    if row.get("address_text"):
        return str(row["address_text"])
    return " ".join(str(row[k]) for k in ("street", "postal_code", "city") if row.get(k))


def _same(old: Any, new: Any) -> bool:
    if old is None:
        return False
    if isinstance(new, (list, tuple)):  # a record's list field against the stored JSON list
        return list(old or []) == list(new)
    return bool(old == new) or str(old) == str(new)
