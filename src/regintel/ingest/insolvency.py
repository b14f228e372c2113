"""Loader part for gazette notices (`InsolvencyEventRecord`), in two steps of each batch.

`prepare` runs before the batch's companies are written: it sorts the notices into new, corrected,
already known and waiting ones (about a company nobody has named yet: decided at the end of the
input), and turns them into company records that carry only the insolvency flags the deciding
notices state (`domain.insolvency_events`), so the flags move through the loader's own company
update: `merge_flags` and the bankruptcy/restructuring invariant apply, the change log gets its rows
and the monitoring hook its webhooks, all in the batch transaction. `write_events` runs after the
companies are written and stores the notices with their company ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, insolvency_events
from regintel.domain.identifiers import parse_national_id
from regintel.domain.insolvency import InsolvencyFlags, merge_flags
from regintel.domain.insolvency_events import Notice, deciding, flag_statement
from regintel.domain.types import CompanyRecord, InsolvencyEventRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.batch import Batch

Key = tuple[str, str]
EVENT_FIELDS = (
    "event_type",
    "phase",
    "event_date",
    "published_on",
    "decision_date",
    "court",
    "case_number",
    "reference",
    "link",
    "title",
    "summary",
    "trustee",
)
UNNAMED = "company not in the database and the notice does not name it"


@dataclass
class Pending:
    """What `prepare` found: company records for the loader and the notices to store afterwards."""

    records: list[CompanyRecord] = field(default_factory=list)
    inserts: list[InsolvencyEventRecord] = field(default_factory=list)
    updates: dict[str, int] = field(default_factory=dict)  # notice id -> row id of a corrected notice


def prepare(
    batch: Batch,
    records: list[InsolvencyEventRecord],
    waiting: dict[str, InsolvencyEventRecord],
    *,
    last: bool = False,
) -> Pending:
    """Sort a batch's notices. A notice about a company that neither the database nor the batch
    names waits in `waiting` (the loader's, by notice id) for the end of the input (a later batch
    may create the company); in the `last` pass, which decides the waiting notices, it is skipped."""
    pending = Pending()
    notices = _valid(batch, records)
    for notice_id in notices:  # a later copy of a waiting notice replaces it
        waiting.pop(notice_id, None)
    if not notices:
        return pending
    conn, stats, source = batch.conn, batch.stats, batch.source.id
    rows = _companies(conn, {(r.country, r.national_id) for r in notices.values()})
    stored = _stored(conn, source, list(notices))
    groups: dict[Key, list[InsolvencyEventRecord]] = {}
    for rec in notices.values():
        groups.setdefault((rec.country, rec.national_id), []).append(rec)
    todo: dict[Key, list[InsolvencyEventRecord]] = {}
    for key, recs in groups.items():
        # An unknown company is created from any of the batch's notices that names it.
        if key not in rows and not any(_named(r) for r in recs):
            for rec in recs:
                if last:
                    stats.skip(UNNAMED)
                else:
                    waiting[rec.notice_id] = rec
            continue
        row_id = rows[key]["id"] if key in rows else None
        for rec in recs:
            old = stored.get(rec.notice_id)
            if (
                old is not None
                and row_id == old["company_id"]
                and all(_same(old[f], getattr(rec, f)) for f in EVENT_FIELDS)
            ):
                stats.unchanged += 1
                continue
            if old is None:
                stats.inserted += 1
            else:
                stats.updated += 1
                pending.updates[rec.notice_id] = old["id"]
            pending.inserts.append(rec)
            todo.setdefault(key, []).append(rec)
    known = _known(
        conn,
        [rows[k]["id"] for k in todo if k in rows],
        source,
        {r.notice_id for r in pending.inserts},
    )
    for key, recs in todo.items():
        row = rows.get(key)
        pending.records.append(_company_record(key, recs, row, known.get(row["id"], []) if row else []))
    return pending


def _valid(batch: Batch, records: list[InsolvencyEventRecord]) -> dict[str, InsolvencyEventRecord]:
    """Notices with a well-formed company key, type and phase, by notice id (the last one wins), with
    their keys normalised."""
    out: dict[str, InsolvencyEventRecord] = {}
    for rec in records:
        try:
            country = rec.country.upper()
            national_id = parse_national_id(country, rec.national_id)
            _notice(rec)
        except InvalidIdentifier as exc:
            batch.reject(f"invalid identifier: {exc.message}", rec.notice_id)
            continue
        except ValueError as exc:
            batch.reject(f"invalid insolvency event: {exc}", rec.notice_id)
            continue
        if (country, national_id) != (rec.country, rec.national_id):
            rec = replace(rec, country=country, national_id=national_id)
        out[rec.notice_id] = rec
    return out


def _notice(rec: InsolvencyEventRecord | Any) -> Notice:
    return Notice(rec.event_type, rec.phase, rec.event_date, str(rec.notice_id))


def _company_record(
    key: Key, recs: list[InsolvencyEventRecord], row: Any, known: list[Notice]
) -> CompanyRecord:
    """The company record of a batch's notices for one company: the flags its deciding notices
    state (left unstated when they would change nothing), and name and seat when it is new."""
    bankruptcy, restructuring, liquidation = flag_statement(deciding([_notice(r) for r in recs], known))
    newest = max(recs, key=_recency)
    base = CompanyRecord(country=key[0], national_id=key[1])
    named = [r.debtor for r in sorted(recs, key=_recency) if r.debtor is not None and r.debtor.name]
    if row is None and named:  # the newest notice that names the company gives its name and seat
        base = replace(named[-1], country=key[0], national_id=key[1])
    elif row is not None:
        current = InsolvencyFlags(
            bool(row["in_bankruptcy"]), bool(row["in_restructuring"]), bool(row["in_liquidation"])
        )
        if merge_flags(current, bankruptcy, restructuring, liquidation) == current:
            bankruptcy = restructuring = liquidation = None
    return replace(
        base,
        source_record_id=newest.notice_id,
        published_on=newest.published_on,
        in_bankruptcy=bankruptcy,
        in_restructuring=restructuring,
        in_liquidation=liquidation,
        roles=None,
        financials=(),
        identifiers=(),
    )


def _named(rec: InsolvencyEventRecord) -> bool:
    return rec.debtor is not None and bool(rec.debtor.name)


def _recency(rec: InsolvencyEventRecord) -> tuple[Any, int, str]:
    return rec.published_on or rec.event_date, len(rec.notice_id), rec.notice_id


def write_events(batch: Batch, pending: Pending, ids: dict[Key, int]) -> None:
    """Store the batch's new and corrected notices (after `_load_companies` gave the company ids)."""
    inserts, updates = [], []
    for rec in pending.inserts:
        company_id = ids.get((rec.country, rec.national_id))
        if company_id is None:  # the company record was refused; the loader counted why
            continue
        row = {f: getattr(rec, f) for f in EVENT_FIELDS} | {
            "company_id": company_id,
            "country": rec.country,
            "run_id": batch.run_id,
            "updated_at": batch.now,
        }
        if rec.notice_id in pending.updates:
            updates.append((pending.updates[rec.notice_id], row))
        else:
            inserts.append(
                row | {"notice_id": rec.notice_id, "source": batch.source.id, "created_at": batch.now}
            )
    if inserts:
        batch.conn.execute(insolvency_events.insert(), inserts)
    for row_id, row in updates:
        batch.conn.execute(insolvency_events.update().where(insolvency_events.c.id == row_id).values(**row))


def _companies(conn: Connection, keys: set[Key]) -> dict[Key, Any]:
    found: dict[Key, Any] = {}
    national_ids = sorted({k[1] for k in keys})
    for start in range(0, len(national_ids), 900):
        query = select(
            companies.c.id,
            companies.c.country,
            companies.c.national_id,
            companies.c.in_bankruptcy,
            companies.c.in_restructuring,
            companies.c.in_liquidation,
        ).where(companies.c.national_id.in_(national_ids[start : start + 900]))
        for row in conn.execute(query).mappings():
            if (row["country"], row["national_id"]) in keys:
                found[(row["country"], row["national_id"])] = row
    return found


def _stored(conn: Connection, source: str, notice_ids: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for start in range(0, len(notice_ids), 900):
        query = select(insolvency_events).where(
            insolvency_events.c.source == source,
            insolvency_events.c.notice_id.in_(notice_ids[start : start + 900]),
        )
        out.update((row["notice_id"], row) for row in conn.execute(query).mappings())
    return out


def _known(conn: Connection, company_ids: list[int], source: str, batch: set[str]) -> dict[int, list[Notice]]:
    """The stored notices of these companies from any source (the flags are one state), but not the
    batch's new and corrected notices: a corrected notice is judged by its new content."""
    out: dict[int, list[Notice]] = {}
    for start in range(0, len(company_ids), 900):
        query = select(
            insolvency_events.c.company_id,
            insolvency_events.c.event_type,
            insolvency_events.c.phase,
            insolvency_events.c.event_date,
            insolvency_events.c.notice_id,
            insolvency_events.c.source,
        ).where(insolvency_events.c.company_id.in_(company_ids[start : start + 900]))
        for row in conn.execute(query):
            if row.source != source or row.notice_id not in batch:
                out.setdefault(row.company_id, []).append(_notice(row))
    return out


def _same(old: Any, new: Any) -> bool:
    if old is None or new is None:
        return old is None and new is None
    return bool(old == new) or str(old) == str(new)
