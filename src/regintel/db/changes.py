"""Reading the append-only change log across companies (the changes list, feed and stream of spec 4.4)
and per company for the timeline. Keyset paging on the row id, which orders rows as they were written."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import desc, func, or_, select
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.sql import Select

from regintel.db.schema import companies, company_changes, data_sources, lei_records


@dataclass(frozen=True)
class ChangeFilter:
    country: str | None = None
    field: str | None = None
    source: str | None = None


def _query(flt: ChangeFilter) -> Select[Any]:
    query = select(company_changes, companies.c.country, companies.c.national_id, companies.c.name).join(
        companies, companies.c.id == company_changes.c.company_id
    )
    if flt.country:
        query = query.where(companies.c.country == flt.country)
    if flt.field:
        query = query.where(company_changes.c.field == flt.field)
    if flt.source:
        query = query.where(company_changes.c.source == flt.source)
    return query


def first_id_since(conn: Connection, since: datetime) -> int | None:
    """The id of the first change detected at or after `since` (the detection-time index answers)."""
    return conn.execute(
        select(func.min(company_changes.c.id)).where(company_changes.c.detected_at >= since)
    ).scalar()


def list_after(conn: Connection, after_id: int, flt: ChangeFilter, limit: int) -> list[RowMapping]:
    """Changes with an id above `after_id`, oldest first: what a follower has not seen yet."""
    query = _query(flt).where(company_changes.c.id > after_id).order_by(company_changes.c.id).limit(limit)
    return list(conn.execute(query).mappings())


def list_latest(conn: Connection, flt: ChangeFilter, limit: int) -> list[RowMapping]:
    query = _query(flt).order_by(desc(company_changes.c.id)).limit(limit)
    return list(conn.execute(query).mappings())


def last_id(conn: Connection) -> int:
    return int(conn.execute(select(func.max(company_changes.c.id))).scalar() or 0)


def list_company_changes(
    conn: Connection, company_id: int, fields: Iterable[str], prefixes: Iterable[str], limit: int
) -> list[RowMapping]:
    """A company's change rows of the given fields (or field prefixes), newest first."""
    wanted = or_(
        company_changes.c.field.in_(list(fields)),
        *[company_changes.c.field.startswith(p, autoescape=True) for p in prefixes],
    )
    query = (
        select(company_changes)
        .where(company_changes.c.company_id == company_id, wanted)
        .order_by(desc(company_changes.c.id))
        .limit(limit)
    )
    return list(conn.execute(query).mappings())


def list_company_leis(conn: Connection, company_id: int) -> list[RowMapping]:
    query = select(lei_records).where(lei_records.c.company_id == company_id).order_by(lei_records.c.lei)
    return list(conn.execute(query).mappings())


def insolvency_sources(conn: Connection) -> set[str]:
    """Sources whose flag flips come with gazette notices (category `insolvency`)."""
    return set(
        conn.execute(select(data_sources.c.id).where(data_sources.c.category == "insolvency")).scalars()
    )
