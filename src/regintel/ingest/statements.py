"""Loader part for `StatementRecord`: financial statements published apart from their company.

Runs inside a batch transaction of the loader (given its `Batch`, ingest/batch.py), after the
batch's companies and identifiers are written, so a statement finds a company loaded earlier in the
same batch, file or import. Unlike the statements embedded in a company record, a field a record
leaves None keeps the stored value: RÚZ publishes a statement's header (period, type) and its
figures (the reports) as separate records.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.engine import upsert
from regintel.db.jobs import enqueue_peer_refresh
from regintel.db.schema import companies, financial_statements, identifiers
from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import FinancialRecord, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.batch import Batch
from regintel.ingest.sections import FIGURES, FIN_FIELDS, company_ids_by_key, equal_values

Row = dict[str, Any]


def load_statements(batch: Batch, records: list[StatementRecord]) -> None:
    if not records:
        return
    owners = _resolve(batch, records)
    todo = [(owners[i], fin) for i, rec in enumerate(records) if i in owners for fin in rec.financials]
    outcome = _upsert(batch, todo)
    stats = batch.stats
    position = 0
    for i, rec in enumerate(records):
        if i not in owners:
            continue
        mine = outcome[position : position + len(rec.financials)]
        position += len(rec.financials)
        if "inserted" in mine:
            stats.inserted += 1
        elif "updated" in mine:
            stats.updated += 1
        else:
            stats.unchanged += 1


def _resolve(batch: Batch, records: list[StatementRecord]) -> dict[int, int]:
    """Record index → company id; records whose company cannot be found are rejected."""
    keys: dict[int, tuple[str, str]] = {}
    refs: dict[int, tuple[str, str, str]] = {}
    for i, rec in enumerate(records):
        country = rec.country.upper()
        if rec.national_id:
            try:
                keys[i] = (country, parse_national_id(country, rec.national_id))
            except InvalidIdentifier as exc:
                batch.reject(f"invalid identifier: {exc.message}", rec.national_id)
        elif rec.ref:
            refs[i] = (country, *rec.ref)
        else:
            batch.reject("statement names no company", None)
    by_key = company_ids_by_key(batch.conn, set(keys.values()))
    by_ref = _ref_ids(batch.conn, set(refs.values()))
    owners: dict[int, int] = {}
    for i in sorted({*keys, *refs}):
        cid = by_key.get(keys[i]) if i in keys else by_ref.get(refs[i])
        if cid is None:
            what = keys.get(i) or refs[i]
            batch.reject("statement of a company that is not in the database", ":".join(what))
            continue
        owners[i] = cid
    return owners


def _ref_ids(conn: Connection, refs: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
    """(country, identifier type, value) → company id, through the identifiers table."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for _, kind, value in refs:
        wanted[kind].add(value)
    out: dict[tuple[str, str, str], int] = {}
    for kind, values in wanted.items():
        ordered = sorted(values)
        for start in range(0, len(ordered), 900):
            rows = conn.execute(
                select(identifiers.c.value, identifiers.c.company_id, companies.c.country)
                .join(companies, companies.c.id == identifiers.c.company_id)
                .where(identifiers.c.type == kind, identifiers.c.value.in_(ordered[start : start + 900]))
            )
            for r in rows:
                if (r.country, kind, r.value) in refs:
                    out[(r.country, kind, r.value)] = r.company_id
    return out


def _upsert(batch: Batch, todo: list[tuple[int, FinancialRecord]]) -> list[str]:
    """Merge each statement into the stored one (None keeps the stored value); per item, whether it
    was inserted, updated or unchanged. Items of one batch for the same (company, year) merge in
    order, so the upsert writes one row per key."""
    if not todo:
        return []
    conn, source = batch.conn, batch.source.id
    cids = sorted({cid for cid, _ in todo})
    state: dict[tuple[int, int], Row] = {}
    for start in range(0, len(cids), 900):
        for row in conn.execute(
            select(financial_statements).where(
                financial_statements.c.company_id.in_(cids[start : start + 900]),
                financial_statements.c.source == source,
            )
        ).mappings():
            state[(row["company_id"], row["year"])] = {f: row[f] for f in FIN_FIELDS}
    dirty: set[tuple[int, int]] = set()
    outcome = []
    for cid, fin in todo:
        key = (cid, fin.year)
        old = state.get(key)
        new = {f: getattr(fin, f) for f in FIN_FIELDS}
        if old is not None:
            new = {f: old[f] if value is None else value for f, value in new.items()}
        diff = [f for f in FIN_FIELDS if old is None or not equal_values(old[f], new[f])]
        if not diff:
            outcome.append("unchanged")
            continue
        for f in diff:
            if f in FIGURES and (old is not None or new[f] is not None):
                batch.change(cid, f"financials.{fin.year}.{f}", old[f] if old else None, new[f])
        state[key] = new
        dirty.add(key)
        outcome.append("inserted" if old is None else "updated")
    rows = [
        {"company_id": cid, "year": year, "source": source, **state[(cid, year)]}
        for cid, year in sorted(dirty)
    ]
    upsert(conn, financial_statements, rows, keys=["company_id", "year", "source"])
    if rows:
        enqueue_peer_refresh(conn, batch.now)  # the peer quartiles read every latest statement
    return outcome
