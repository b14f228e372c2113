"""TED notices: the filtered search, one notice, its parties, lots and CPV codes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, cast

from sqlalchemy import (
    exists,
    func,
    or_,
    select,
)
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.schema import companies

from ..tables import (
    ted_buyers,
    ted_lots,
    ted_notice_cpv,
    ted_notices,
    ted_winners,
)
from .common import company_columns, mappings


@dataclass(frozen=True)
class TedFilters:
    country: str | None = None
    cpv_prefix: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    value_min: Decimal | None = None
    value_max: Decimal | None = None
    currency: str | None = None
    buyer_name: str | None = None  # normalised, matched as a substring
    winner_name: str | None = None


def _party(table: Any, name: str) -> ColumnElement[bool]:
    return exists().where(
        table.c.notice_pk == ted_notices.c.id, table.c.name_norm.like(f"%{_escape(name)}%", escape="\\")
    )


def _prefix_range(column: Any, prefix: str) -> list[ColumnElement[bool]]:
    """`column LIKE 'prefix%'` for digit strings as a range, which a plain b-tree index serves on both
    backends (PostgreSQL uses an index for LIKE only under the C collation or with pattern_ops)."""
    out = [column >= prefix]
    digits = prefix.rstrip("9")
    if digits:
        out.append(column < digits[:-1] + str(int(digits[-1]) + 1))
    return out


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _only_cpv_country_dates(f: TedFilters) -> bool:
    return all(v is None for v in (f.value_min, f.value_max, f.currency, f.buyer_name, f.winner_name))


def _cpv_entries(prefix: str, f: TedFilters) -> list[ColumnElement[bool]]:
    """The `ted_notice_cpv` entries a CPV filter matches, narrowed by country and period when given: one
    range of `ix_ted_notice_cpv_search` (division, country, issue date), whatever the number of notices."""
    c = ted_notice_cpv.c
    out = [c.division == prefix[:2], *_prefix_range(c.cpv, prefix)]
    if f.country:
        out.append(c.country == f.country)
    if f.date_from is not None:
        out.append(c.issue_date >= f.date_from)
    if f.date_to is not None:
        out.append(c.issue_date <= f.date_to)
    return out


def _where(f: TedFilters) -> list[ColumnElement[bool]]:
    n = ted_notices.c
    out: list[ColumnElement[bool]] = []
    if f.country:
        out.append(n.country == f.country)
    if f.cpv_prefix:
        out.append(n.id.in_(select(ted_notice_cpv.c.notice_pk).where(*_cpv_entries(f.cpv_prefix, f))))
    for column, op_value in ((n.issue_date, (f.date_from, f.date_to)), (n.value, (f.value_min, f.value_max))):
        low, high = op_value
        if low is not None:
            out.append(column >= low)
        if high is not None:
            out.append(column <= high)
    if f.currency:
        out.append(n.currency == f.currency)
    if f.buyer_name:
        out.append(_party(ted_buyers, f.buyer_name))
    if f.winner_name:
        out.append(_party(ted_winners, f.winner_name))
    return out


def search_notices(
    conn: Connection, f: TedFilters, offset: int, limit: int
) -> tuple[int, list[Mapping[str, Any]]]:
    """(total, one page newest first). With a CPV filter and no other filter than country and period, the
    count and the page's ids come from `ix_ted_notice_cpv_search` alone, so their cost follows the matches,
    not the notices of the country and period; the page's rows are then read by id."""
    n = ted_notices.c
    if f.cpv_prefix and _only_cpv_country_dates(f):
        c = ted_notice_cpv.c
        entries = _cpv_entries(f.cpv_prefix, f)
        total = conn.execute(select(func.count(func.distinct(c.notice_pk))).where(*entries)).scalar_one()
        page = (
            select(c.notice_pk, c.issue_date)
            .where(*entries)
            .distinct()
            .order_by(c.issue_date.desc(), c.notice_pk.desc())
        )
    else:
        where = _where(f)
        total = conn.execute(select(func.count()).select_from(ted_notices).where(*where)).scalar_one()
        page = select(n.id).where(*where).order_by(n.issue_date.desc(), n.id.desc())
    ids = [int(r[0]) for r in conn.execute(page.offset(offset).limit(limit))]
    if not ids:
        return int(total), []
    rows = (
        conn.execute(select(ted_notices).where(n.id.in_(ids)).order_by(n.issue_date.desc(), n.id.desc()))
        .mappings()
        .all()
    )
    return int(total), mappings(rows)


def find_notice(conn: Connection, pub: str) -> Mapping[str, Any] | None:
    """By TED publication number or by notice id (a notice not yet published has only the latter)."""
    row = (
        conn.execute(
            select(ted_notices).where(
                or_(ted_notices.c.publication_number == pub, ted_notices.c.notice_id == pub)
            )
        )
        .mappings()
        .first()
    )
    return cast(Mapping[str, Any] | None, row)


def parties(conn: Connection, table: Any, notice_pks: Sequence[int]) -> list[Mapping[str, Any]]:
    """Buyers or winners of these notices with the company each is linked to."""
    if not notice_pks:
        return []
    query = (
        select(table, *company_columns())
        .select_from(table.outerjoin(companies, companies.c.id == table.c.company_id))
        .where(table.c.notice_pk.in_(list(notice_pks)))
        .order_by(table.c.notice_pk, table.c.org_ref)
    )
    return mappings(conn.execute(query).mappings())


def lots(conn: Connection, notice_pk: int) -> list[Mapping[str, Any]]:
    return mappings(
        conn.execute(
            select(ted_lots).where(ted_lots.c.notice_pk == notice_pk).order_by(ted_lots.c.lot_id)
        ).mappings()
    )


def cpv_codes(conn: Connection, notice_pk: int) -> list[str]:
    return [
        str(c)
        for c in conn.execute(
            select(ted_notice_cpv.c.cpv)
            .where(ted_notice_cpv.c.notice_pk == notice_pk)
            .order_by(ted_notice_cpv.c.cpv)
        ).scalars()
    ]
