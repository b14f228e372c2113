"""Loader part for `StatementRecord`: financial statements published apart from their company.

Runs inside the batch transaction of `Loader.flush`, after the batch's companies and identifiers are
written, so a statement finds a company loaded earlier in the same batch, file or import. Unlike the
statements embedded in a company record, a field a record leaves None keeps the stored value: RÚZ
publishes a statement's header (period, type) and its figures (the reports) as separate records.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.engine import upsert
from regintel.db.jobs import enqueue_peer_refresh
from regintel.db.schema import companies, financial_statements, identifiers
from regintel.domain.identifiers import parse_national_id
from regintel.domain.types import FinancialRecord, StatementRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.sections import FIGURES, FIN_FIELDS, _equal

if TYPE_CHECKING:
    from regintel.ingest.loader import Loader

Row = dict[str, Any]


def load_statements(
    conn: Connection, loader: Loader, records: list[StatementRecord], changes: list[Row], now: datetime
) -> None:
    if not records:
        return
    owners = _resolve(conn, loader, records)
    todo = [(owners[i], fin) for i, rec in enumerate(records) if i in owners for fin in rec.financials]
    outcome = _upsert(conn, loader, todo, changes, now)
    position = 0
    for i, rec in enumerate(records):
        if i not in owners:
            continue
        mine = outcome[position : position + len(rec.financials)]
        position += len(rec.financials)
        if "inserted" in mine:
            loader.stats.inserted += 1
        elif "updated" in mine:
            loader.stats.updated += 1
        else:
            loader.stats.unchanged += 1


def _resolve(conn: Connection, loader: Loader, records: list[StatementRecord]) -> dict[int, int]:
    """Record index → company id; records whose company cannot be found are rejected."""
    keys: dict[int, tuple[str, str]] = {}
    refs: dict[int, tuple[str, str, str]] = {}
    for i, rec in enumerate(records):
        country = rec.country.upper()
        if rec.national_id:
            try:
                keys[i] = (country, parse_national_id(country, rec.national_id))
            except InvalidIdentifier as exc:
                loader._reject(f"invalid identifier: {exc.message}", rec.national_id)
        elif rec.ref:
            refs[i] = (country, *rec.ref)
        else:
            loader._reject("statement names no company", None)
    by_key = _company_ids(conn, set(keys.values()))
    by_ref = _ref_ids(conn, set(refs.values()))
    owners: dict[int, int] = {}
    for i in sorted({*keys, *refs}):
        cid = by_key.get(keys[i]) if i in keys else by_ref.get(refs[i])
        if cid is None:
            what = keys.get(i) or refs[i]
            loader._reject("statement of a company that is not in the database", ":".join(what))
            continue
        owners[i] = cid
    return owners


def _company_ids(conn: Connection, keys: set[tuple[str, str]]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    national_ids = sorted({k[1] for k in keys})
    for start in range(0, len(national_ids), 900):
        rows = conn.execute(
            select(companies.c.id, companies.c.country, companies.c.national_id).where(
                companies.c.national_id.in_(national_ids[start : start + 900])
            )
        )
        out.update({(r.country, r.national_id): r.id for r in rows if (r.country, r.national_id) in keys})
    return out


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


def _upsert(
    conn: Connection,
    loader: Loader,
    todo: list[tuple[int, FinancialRecord]],
    changes: list[Row],
    now: datetime,
) -> list[str]:
    """Merge each statement into the stored one (None keeps the stored value); per item, whether it
    was inserted, updated or unchanged. Items of one batch for the same (company, year) merge in
    order, so the upsert writes one row per key."""
    if not todo:
        return []
    cids = sorted({cid for cid, _ in todo})
    state: dict[tuple[int, int], Row] = {}
    for start in range(0, len(cids), 900):
        for row in conn.execute(
            select(financial_statements).where(
                financial_statements.c.company_id.in_(cids[start : start + 900]),
                financial_statements.c.source == loader.source.id,
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
        diff = [f for f in FIN_FIELDS if old is None or not _equal(old[f], new[f])]
        if not diff:
            outcome.append("unchanged")
            continue
        for f in diff:
            if f in FIGURES and (old is not None or new[f] is not None):
                changes.append(
                    loader.change(cid, f"financials.{fin.year}.{f}", old[f] if old else None, new[f], now)
                )
        state[key] = new
        dirty.add(key)
        outcome.append("inserted" if old is None else "updated")
    rows = [
        {"company_id": cid, "year": year, "source": loader.source.id, **state[(cid, year)]}
        for cid, year in sorted(dirty)
    ]
    upsert(conn, financial_statements, rows, keys=["company_id", "year", "source"])
    if rows:
        enqueue_peer_refresh(conn, now)  # the peer quartiles read every latest statement
    return outcome
