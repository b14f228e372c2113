"""The compliance area's SQL: the latest annual statement of a company (core table), the debtor lists
(`debtor_entries`), the reads of the exposure answer and the filed statements (`filed_statements`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import bindparam, func, insert, or_, select, tuple_, update
from sqlalchemy.engine import Connection

from regintel.areas.compliance.tables import debtor_entries
from regintel.areas.compliance.tables import filed_statements as fst
from regintel.db.prepared import Prepared, Read
from regintel.db.schema import companies, data_sources, identifiers
from regintel.db.schema import financial_statements as fs

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.


def latest_statement(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    """The statement of the latest year we hold (one indexed read by company id)."""
    item = (
        conn.execute(
            select(fs.c.year, fs.c.period_to, fs.c.source)
            .where(fs.c.company_id == company_id)
            .order_by(fs.c.year.desc(), fs.c.id.desc())
            .limit(1)
        )
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


# Debtor lists (`debtor_entries`, migration 0018_debtors).


def debtor_list_date(conn: Connection, source: str, creditor: str) -> Any:
    """The date of the newest list of (source, creditor) imported, or None."""
    de = debtor_entries
    return conn.execute(
        select(func.max(de.c.last_listed_on)).where(de.c.source == source, de.c.creditor == creditor)
    ).scalar()


def stored_debtor_entries(conn: Connection, source: str, creditor: str) -> dict[str, Mapping[str, Any]]:
    de = debtor_entries
    rows = conn.execute(
        select(
            de.c.id, de.c.record_key, de.c.company_id, de.c.match, de.c.last_listed_on, de.c.delisted_on
        ).where(de.c.source == source, de.c.creditor == creditor)
    ).mappings()
    return {r["record_key"]: cast("Mapping[str, Any]", r) for r in rows}


def company_ids_by_national_id(conn: Connection, country: str, ids: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for i in range(0, len(ids), 500):
        chunk = sorted(ids)[i : i + 500]
        rows = conn.execute(
            select(companies.c.national_id, companies.c.id).where(
                companies.c.country == country, companies.c.national_id.in_(chunk)
            )
        )
        out.update({nid: int(cid) for nid, cid in rows})
    return out


def companies_by_name_norm(
    conn: Connection, country: str, names: Sequence[str]
) -> list[tuple[str, str | None, int]]:
    """(name_norm, postal code, id) of the companies of `country` with one of `names` (the name index)."""
    out: list[tuple[str, str | None, int]] = []
    todo = sorted(set(names))
    for i in range(0, len(todo), 500):
        rows = conn.execute(
            select(companies.c.name_norm, companies.c.postal_code, companies.c.id).where(
                companies.c.name_norm.in_(todo[i : i + 500]), companies.c.country == country
            )
        )
        out.extend((n, p, int(cid)) for n, p, cid in rows)
    return out


def insert_debtor_entries(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    if rows:
        conn.execute(insert(debtor_entries), [dict(r) for r in rows])


def update_debtor_entries(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Each row: `entry_id` and the columns to set (executemany, grouped by the columns set)."""
    groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(tuple(sorted(k for k in r if k != "entry_id")), []).append(dict(r))
    for cols, items in groups.items():
        stmt = (
            update(debtor_entries)
            .where(debtor_entries.c.id == bindparam("entry_id"))
            .values({c: bindparam(f"v_{c}") for c in cols})
        )
        conn.execute(stmt, [{"entry_id": it["entry_id"], **{f"v_{c}": it[c] for c in cols}} for it in items])


def debtor_entry_count(conn: Connection, source: str) -> int:
    return int(
        conn.execute(
            select(func.count())
            .select_from(debtor_entries)
            .where(debtor_entries.c.source == source, debtor_entries.c.delisted_on.is_(None))
        ).scalar_one()
    )


_DEBTS_COLUMNS = (
    debtor_entries.c.company_id,
    debtor_entries.c.source,
    debtor_entries.c.kind,
    debtor_entries.c.creditor,
    debtor_entries.c.name,
    debtor_entries.c.address,
    debtor_entries.c.amount,
    debtor_entries.c.currency,
    debtor_entries.c.listed_on,
    debtor_entries.c.last_listed_on,
    debtor_entries.c.delisted_on,
    debtor_entries.c.match,
)


def company_debts(conn: Connection, company_ids: Sequence[int]) -> list[Mapping[str, Any]]:
    """Every entry (current and delisted) of the companies, newest list first (the company index)."""
    if not company_ids:
        return []
    de = debtor_entries
    rows = conn.execute(
        select(*_DEBTS_COLUMNS)
        .where(de.c.company_id.in_(sorted(set(company_ids))))
        .order_by(de.c.company_id, de.c.last_listed_on.desc(), de.c.id)
    ).mappings()
    return [cast("Mapping[str, Any]", r) for r in rows]


def newest_list_dates(conn: Connection, sources: Sequence[str]) -> dict[str, Any]:
    """source → the date of its newest imported list (None when never imported): one statement, one index
    probe per source."""
    prepared, params, _ = newest_list_dates_read(sources)
    row = prepared.first(conn, **params) or {}
    return {s: row.get(f"s{i}") for i, s in enumerate(sources)}


def newest_list_dates_read(sources: Sequence[str]) -> Read:
    key = tuple(sources)
    prepared = _NEWEST_DATES.get(key)
    if prepared is None:
        de = debtor_entries
        cols = [
            select(func.max(de.c.last_listed_on))
            .where(de.c.source == bindparam(f"p{i}"))
            .scalar_subquery()
            .label(f"s{i}")
            for i in range(len(key))
        ]
        prepared = _NEWEST_DATES[key] = Prepared(select(*cols))
    return prepared, {f"p{i}": s for i, s in enumerate(key)}, True


# One compiled statement per set of sources (a country's lists: a handful in all), because the LEI
# record and every credit score ask (db/prepared.py); built by SQLAlchemy each time it cost more than
# the rest of the LEI record.
_NEWEST_DATES: dict[tuple[str, ...], Prepared] = {}


def companies_by_keys(conn: Connection, keys: Sequence[tuple[str, str]]) -> list[Mapping[str, Any]]:
    """The state of the companies named by (country, national id): one read by the unique key."""
    if not keys:
        return []
    c = companies.c
    rows = conn.execute(
        select(
            c.id,
            c.country,
            c.national_id,
            c.name,
            c.status,
            c.in_bankruptcy,
            c.in_restructuring,
            c.in_liquidation,
        ).where(tuple_(c.country, c.national_id).in_(list(keys)))
    ).mappings()
    return [cast("Mapping[str, Any]", r) for r in rows]


# -- filed statements: the import (filing_import.py) and the `/annual-reports` answer (filings.py) -----------


def stored_statements(
    conn: Connection, source_id: str, ids: Sequence[str], fields: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """`statement id -> id, statement_id and fields` of the stored statements of a source among `ids`,
    read 500 ids at a time."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(0, len(ids), 500):
        rows = conn.execute(
            select(fst.c.id, fst.c.statement_id, *(fst.c[f] for f in fields)).where(
                fst.c.source == source_id, fst.c.statement_id.in_(ids[i : i + 500])
            )
        ).mappings()
        out |= {r["statement_id"]: dict(r) for r in rows}
    return out


def insert_statements(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    conn.execute(insert(fst), list(rows))


def update_statements(conn: Connection, rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> None:
    """Each row: `row_id` and the `columns` to set (one executemany)."""
    conn.execute(
        update(fst).where(fst.c.id == bindparam("row_id")).values({c: bindparam(c) for c in columns}),
        list(rows),
    )


def statement_count(conn: Connection, source_id: str) -> int:
    return int(
        conn.execute(select(func.count()).select_from(fst).where(fst.c.source == source_id)).scalar_one()
    )


def last_import_at(conn: Connection, source_id: str) -> Any:
    """When a source was last imported (None: never)."""
    return conn.execute(select(data_sources.c.last_import_at).where(data_sources.c.id == source_id)).scalar()


def filed_of_company(
    conn: Connection, country: str, national_id: str, company_id: int, unit_type: str, limit: int
) -> tuple[int, list[Mapping[str, Any]]]:
    """(how many, the newest `limit`) statements filed under the company's national id or one of its
    identifiers of `unit_type` (a statement names its company by IČO or only by its RÚZ unit id)."""
    units = select(identifiers.c.value).where(
        identifiers.c.company_id == company_id, identifiers.c.type == unit_type
    )
    where = (fst.c.country == country, or_(fst.c.national_id == national_id, fst.c.unit_id.in_(units)))
    total = int(conn.execute(select(func.count()).select_from(fst).where(*where)).scalar_one())
    rows = conn.execute(
        select(fst)
        .where(*where)
        .order_by(fst.c.period_to.desc(), fst.c.updated_on.desc(), fst.c.statement_id.desc())
        .limit(limit)
    ).mappings()
    return total, cast("list[Mapping[str, Any]]", list(rows))
