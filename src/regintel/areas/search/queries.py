"""The SQL of `/companies/advanced-search` and its CSV export: every statement they run is built here, as
SQLAlchemy Core; `advanced_search.py` decides which to run (the plan) and composes the answer from their
rows, `export.py` walks the export's pages.

The filter conditions themselves come from `db/company_filters.py` and the name trigram statements from
`db/name_trigrams.py`; the functions here put them into pages, counts and row reads.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, func, literal, select, tuple_

from regintel.db import company_filters
from regintel.db.company_filters import Conditions, c, lf
from regintel.db.name_trigrams import NameContains, matches
from regintel.db.schema import company_sources, identifiers, lei_records
from regintel.db.sql_hints import Unordered

FINANCIAL_COLUMNS = (
    lf.year.label("fin_year"),
    lf.currency.label("fin_currency"),
    lf.revenue.label("fin_revenue"),
    lf.profit.label("fin_profit"),
    lf.total_assets.label("fin_total_assets"),
    lf.equity.label("fin_equity"),
    lf.liabilities.label("fin_liabilities"),
    lf.employees.label("fin_employees"),
    lf.source.label("fin_source"),
)


def base_query(cond: Conditions, *columns: Any, outer_financials: bool = False) -> Select[Any]:
    """`db.company_filters.base_query` (SELECT `columns` FROM companies WHERE every condition), typed."""
    query: Select[Any] = company_filters.base_query(cond, *columns, outer_financials=outer_financials)
    return query


def match_ids(cond: Conditions, cap: int) -> Select[Any]:
    """The ids of the matches, at most `cap` + 1 (in no particular order)."""
    return base_query(cond, c.id).limit(cap + 1)


def size() -> Select[Any]:
    """About how many companies there are: the highest id (one index seek, not a count)."""
    return select(func.max(c.id))


def count(cond: Conditions, cap: int, name: NameContains | None, dialect: str) -> Select[Any]:
    """The matches counted up to `cap` + 1; with `name`, the trigram table alone answers (the caller
    passes it only when it holds every condition)."""
    if name is not None:
        inner = matches(name, dialect).limit(cap + 1).subquery()
    else:
        inner = match_ids(cond, cap).subquery()
    return select(func.count()).select_from(inner)


def _key(column: Any, walk: bool) -> Any:
    """The sort key as the plan needs it: read in index order when walking, sorted after finding the few
    matches otherwise (SQLite without statistics would walk the sort index either way)."""
    return column if walk else Unordered(column)


def _name_order(desc: bool) -> list[Any]:
    return [c.name_norm.desc(), c.id.desc()] if desc else [c.name_norm.asc(), c.id.asc()]


def name_edge(desc: bool, probe: int) -> Select[Any]:
    """The name index entry `probe` entries in (the end of a bounded walk)."""
    return select(c.name_norm, c.id).order_by(*_name_order(desc)).offset(probe).limit(1)


def bounded_walk(
    cond: Conditions, edge: tuple[Any, Any] | None, desc: bool, offset: int, limit: int
) -> Select[Any]:
    """A page in name order walking the name index no further than `edge`, each row tested for every
    condition."""
    where = list(cond.where)
    if edge is not None:
        key, last = tuple_(c.name_norm, c.id), tuple_(literal(edge[0]), literal(edge[1]))
        where.append(key >= last if desc else key <= last)
    query = base_query(Conditions(where, cond.needs_financials), c.id, outer_financials=cond.needs_financials)
    return query.order_by(*_name_order(desc)).offset(offset).limit(limit)


def rows(ids: list[int]) -> Select[Any]:
    """The rows of `ids` with their latest financials (in no particular order)."""
    return base_query(Conditions([c.id.in_(ids)], False), *c, *FINANCIAL_COLUMNS, outer_financials=True)


def ordered_ids(cond: Conditions, sort: str, desc: bool, offset: int, limit: int, walk: bool) -> Select[Any]:
    """A page's ids by a key every company has (`name`, `updated_at`), ties by id."""
    key = _key(c.name_norm if sort == "name" else c.updated_at, walk)
    order = [key.desc(), c.id.desc()] if desc else [key.asc(), c.id.asc()]
    query = base_query(cond, c.id, outer_financials=cond.needs_financials).order_by(*order)
    return query.offset(offset).limit(limit)


def sort_column(sort: str) -> Any:
    """The column of a sort key that can be empty (`founded_on`, `revenue`)."""
    return c.founded_on if sort == "founded_on" else lf.revenue


def with_value(cond: Conditions, sort: str) -> Conditions:
    """The conditions and a value of the sort key (`founded_on`, `revenue`)."""
    return Conditions(
        [*cond.where, sort_column(sort).is_not(None)], cond.needs_financials or sort == "revenue"
    )


def valued_ids(cond: Conditions, sort: str, desc: bool, offset: int, limit: int, walk: bool) -> Select[Any]:
    """A page's ids among the matches with a value of the sort key (`founded_on`, `revenue`), by it, ties
    by id. Sorting by revenue walks latest_financials' index: an inner join lets the planner start there."""
    key = _key(sort_column(sort), walk)
    order = [key.desc(), c.id.desc()] if desc else [key.asc(), c.id.asc()]
    outer = cond.needs_financials and sort != "revenue"
    return (
        base_query(with_value(cond, sort), c.id, outer_financials=outer)
        .order_by(*order)
        .offset(offset)
        .limit(limit)
    )


def empty_ids(cond: Conditions, sort: str, offset: int, limit: int) -> Select[Any]:
    """Ids of the matches without a value of the sort key (`founded_on`, `revenue`), by id."""
    empty = Conditions([*cond.where, sort_column(sort).is_(None)], cond.needs_financials)
    query = base_query(empty, c.id, outer_financials=sort == "revenue" or cond.needs_financials)
    return query.order_by(c.id.asc()).offset(offset).limit(limit)


EXPORT_COLUMNS = (
    *tuple(c),
    lf.year.label("financial_year"),
    lf.currency.label("currency"),
    lf.revenue.label("revenue"),
    lf.profit.label("profit"),
    lf.total_assets.label("total_assets"),
    lf.equity.label("equity"),
    lf.liabilities.label("liabilities"),
    lf.employees.label("financial_employees"),
    lei_records.c.registration_status.label("lei_registration_status"),
    lei_records.c.next_renewal.label("lei_next_renewal"),
)


def export_page(cond: Conditions, last: int, limit: int) -> Select[Any]:
    """A page of the CSV export (`export.py`): the matches after id `last` in id order, with their latest
    financials and LEI record."""
    return (
        base_query(cond, *EXPORT_COLUMNS, outer_financials=True)
        .join(lei_records, lei_records.c.lei == c.lei, isouter=True)
        .where(c.id > last)
        .order_by(c.id)
        .limit(limit)
    )


def export_identifiers(ids: list[int]) -> Select[Any]:
    """(company id, type, value) of the identifiers of `ids`, by type and value."""
    return (
        select(identifiers.c.company_id, identifiers.c.type, identifiers.c.value)
        .where(identifiers.c.company_id.in_(ids))
        .order_by(identifiers.c.type, identifiers.c.value)
    )


def export_sources(ids: list[int]) -> Select[Any]:
    """(company id, source) of the sources of `ids`, by source."""
    return (
        select(company_sources.c.company_id, company_sources.c.source)
        .where(company_sources.c.company_id.in_(ids))
        .order_by(company_sources.c.source)
    )
