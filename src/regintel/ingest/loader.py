"""The one loader every source shares: batched, idempotent upserts with a field-level change log.

Each batch is one transaction: companies, identifiers, provenance, roles, financials, LEI data,
ownership edges and the change log rows are written together or not at all, so an interrupted
import re-run converges to the same state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.engine import Connection

from regintel.db.engine import execute_many, insert_returning
from regintel.db.jobs import enqueue_search_index
from regintel.db.schema import companies, company_changes, company_sources
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
_NO_FLAGS = InsolvencyFlags()


@dataclass
class LoadStats:
    read: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    skipped: int = 0
    changes: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    skip_reasons: dict[str, int] = field(default_factory=dict)

    def reject(self, reason: str) -> None:
        self.rejected += 1
        key = reason.split(":")[0][:120]
        self.reasons[key] = self.reasons.get(key, 0) + 1

    def skip(self, reason: str) -> None:
        self.skipped += 1
        self.skip_reasons[reason] = self.skip_reasons.get(reason, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "read": self.read,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rejected": self.rejected,
            "skipped": self.skipped,
            "changes": self.changes,
            "reject_reasons": dict(sorted(self.reasons.items(), key=lambda kv: -kv[1])[:20]),
            "skip_reasons": dict(sorted(self.skip_reasons.items(), key=lambda kv: -kv[1])[:20]),
        }


ChangeHook = Callable[[Connection, list[dict[str, Any]]], None]


def default_hooks() -> list[ChangeHook]:
    """Hooks every load runs unless told otherwise: monitoring events, webhook and e-mail outbox rows."""
    from regintel.db.outbox import record_monitoring

    return [record_monitoring]


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
            self._reject(item.reason, item.raw)
            return
        if isinstance(item, Skipped):
            self.stats.skip(item.reason)
            return
        self._buffer.append(item)
        if len(self._buffer) >= self.batch_size:
            batch, self._buffer = self._buffer, []
            self._write_batch(batch)

    def _reject(self, reason: str, raw: object) -> None:
        self.stats.reject(reason)
        if self._reject_sink is not None:
            self._reject_sink(reason, raw)

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

    def _write(self, conn: Connection, batch: list[Record], last: bool = False) -> None:
        now = datetime.now(UTC)
        changes: list[dict[str, Any]] = []
        self._unchanged_ids: set[int] = set()
        # Gazette notices move flags through company records of their own (ingest/insolvency.py).
        notices = insolvency.prepare(
            conn, self, [r for r in batch if isinstance(r, InsolvencyEventRecord)], last=last
        )
        company_records = [r for r in batch if isinstance(r, CompanyRecord)] + notices.records
        ids = self._load_companies(conn, company_records, changes, now)
        insolvency.write_events(conn, self, notices, ids, now)
        sections.load_roles(conn, self, company_records, ids, changes, now)
        sections.load_financials(conn, self, company_records, ids, changes, now)
        statements.load_statements(
            conn, self, [r for r in batch if isinstance(r, StatementRecord)], changes, now
        )
        sections.load_lei(conn, self, [r for r in batch if isinstance(r, LeiRecord)])
        sections.load_lei_relationships(
            conn, self, [r for r in batch if isinstance(r, LeiRelationshipRecord)]
        )
        sections.load_reporting_exceptions(
            conn, self, [r for r in batch if isinstance(r, ReportingExceptionRecord)]
        )
        sections.load_ownerships(
            conn, self, [r for r in batch if isinstance(r, OwnershipRecord)], changes, now
        )
        sections.load_registration_authorities(
            conn, self, [r for r in batch if isinstance(r, RegistrationAuthorityRecord)]
        )
        self._count_section_updates(conn, changes, now)
        if changes:
            # The ids let the hooks point monitoring events and deliveries at their change row.
            _insert_changes(conn, changes)
            self.stats.changes += len(changes)
            for hook in self._hooks:
                hook(conn, changes)
            # Last, so that on PostgreSQL a concurrent batch queueing the same job waits only for this
            # commit (the dedupe key's unique index); the index follows what the batch wrote.
            enqueue_search_index(conn, now)

    def _count_section_updates(self, conn: Connection, changes: list[dict[str, Any]], now: datetime) -> None:
        """A company whose own fields stayed but whose roles or statements changed was updated."""
        moved = self._unchanged_ids & {c["company_id"] for c in changes}
        if not moved:
            return
        self.stats.unchanged -= len(moved)
        self.stats.updated += len(moved)
        conn.execute(companies.update().where(companies.c.id.in_(sorted(moved))).values(updated_at=now))

    def change(self, company_id: int, name: str, old: Any, new: Any, now: datetime) -> dict[str, Any]:
        return {
            "company_id": company_id,
            "field": name,
            "old_value": _text(old),
            "new_value": _text(new),
            "source": self.source.id,
            "run_id": self.run_id,
            "detected_at": now,
        }

    # -- companies -------------------------------------------------------------------------------

    def _load_companies(
        self, conn: Connection, records: list[CompanyRecord], changes: list[dict[str, Any]], now: datetime
    ) -> dict[tuple[str, str], int]:
        valid: dict[tuple[str, str], CompanyRecord] = {}
        for rec in records:
            try:
                rec.country = rec.country.upper()
                rec.national_id = parse_national_id(rec.country, rec.national_id)
            except InvalidIdentifier as exc:
                self._reject(f"invalid identifier: {exc.message}", rec.source_record_id or rec.national_id)
                continue
            if rec.in_bankruptcy and rec.in_restructuring:
                self._reject("bankruptcy and restructuring declared at once (spec 2.2)", rec.national_id)
                continue
            valid[(rec.country, rec.national_id)] = rec  # the last record for a key wins
        for key in sections.withheld_companies(conn, list(valid)):
            del valid[key]  # a withheld sole trader stays withheld: `regintel privacy lift` brings it back
            self.stats.skip("withheld after a data-protection request")
        if not valid:
            return {}
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
                    self._reject("unknown company and the record has no name", rec.national_id)
                    continue
                inserts.append((key, self._new_row(rec, now)))
                continue
            ids[key] = row["id"]
            self._update(
                rec, row, changes, updates, now, fill_only=self.source.fill_only and row["id"] not in own
            )
        for columns, rows in updates.items():
            # One cached statement a set of changed columns, executed over the batch's companies.
            execute_many(conn, _update_statement(columns), rows)
        if inserts:
            # RETURNING without sort_by_parameter_order lets the driver batch the rows (with it,
            # SQLite inserts one row per statement); the key columns map the ids back instead.
            for new_id, country, national_id in insert_returning(
                conn, companies, [row for _, row in inserts], ("id", "country", "national_id")
            ):
                ids[(country, national_id)] = new_id
            for key, row in inserts:
                changes.append(self.change(ids[key], "created", None, row["name"], now))
            self.stats.inserted += len(inserts)
        self._provenance(conn, valid, ids, now)
        sections.load_identifiers(conn, self, valid, ids)
        return ids

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
        rec: CompanyRecord,
        row: Any,
        changes: list[dict[str, Any]],
        updates: dict[tuple[str, ...], list[dict[str, Any]]],
        now: datetime,
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
            self._unchanged_ids.add(row["id"])
            return
        if "name" in new:
            new["name_norm"] = normalise_name(new["name"])
        if {"street", "city", "postal_code", "address_text"} & set(new):
            new["address_norm"] = normalise_address(_address({**dict(row), **new}))
        new["updated_at"] = now
        params = {f"v_{name}": value for name, value in new.items()}
        params["row_id"] = row["id"]
        updates.setdefault(tuple(new), []).append(params)
        for name, value in new.items():
            if name in COMPANY_FIELDS or name in FLAG_FIELDS:
                changes.append(self.change(row["id"], name, row[name], value, now))
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


def _insert_changes(conn: Connection, changes: list[dict[str, Any]]) -> None:
    """Insert change rows and give each its id (hooks point monitoring events at them).

    Ids come back unordered from a batched RETURNING, so they are matched on (company, field);
    two changes of one field of one company in one batch may swap ids, which changes nothing
    downstream since both rows exist.
    """
    pending: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for row in changes:
        pending.setdefault((row["company_id"], row["field"]), []).append(row)
    for change_id, company_id, field_name in insert_returning(
        conn, company_changes, changes, ("id", "company_id", "field")
    ):
        pending[(company_id, field_name)].pop(0)["id"] = change_id


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


def _address(row: dict[str, Any]) -> str:
    if row.get("address_text"):
        return str(row["address_text"])
    return " ".join(str(row[k]) for k in ("street", "postal_code", "city") if row.get(k))


def _same(old: Any, new: Any) -> bool:
    if old is None:
        return False
    if isinstance(new, list):
        return list(old or []) == new
    return bool(old == new) or str(old) == str(new)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)
