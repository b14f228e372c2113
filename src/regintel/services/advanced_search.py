"""`/companies/advanced-search`: filtered, sorted, paginated companies with a bounded count.

- `meta.total` is exact up to COUNT_CAP matches; beyond it the count stops there and
  `meta.total_exact` is false (counting millions of matches would cost more than the page, as
  search engines do with their "10,000+").
- Pages reach at most MAX_WINDOW rows deep (OFFSET costs grow with depth); the CSV export walks any
  depth by keyset up to its row cap.
- Sort keys that can be empty (`founded_on`, `revenue`) put empty values last in both directions,
  read in two index-ordered passes (first the rows with a value, then the rest by id).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from regintel.db import company_filters as filters_db
from regintel.db.company_filters import Conditions, Reference, base_query, c, conditions, lf, unindexed
from regintel.db.stats import data_version
from regintel.errors import ValidationFailed
from regintel.services.company_filters import CompanyFilters
from regintel.services.company_view import summary
from regintel.services.result_cache import ResultCache

COUNT_CAP = 10_000
MAX_WINDOW = 10_000
# From this many matches on, a page is read by walking the sort index and testing the filters row by
# row (about per_page × table/matches rows); below it, the filters' indexes find every match and the
# few are sorted. Either way a page costs a bounded number of row reads.
WALK_MIN = 2_000
SORTS = ("name", "founded_on", "revenue", "updated_at")
FINANCIAL_COLUMNS = (lf.year.label("fin_year"), lf.currency.label("fin_currency"), lf.revenue.label("fin_revenue"),
                     lf.profit.label("fin_profit"), lf.total_assets.label("fin_total_assets"),
                     lf.equity.label("fin_equity"), lf.liabilities.label("fin_liabilities"),
                     lf.employees.label("fin_employees"), lf.source.label("fin_source"))


def reference(conn: Connection, cache: ResultCache) -> Reference:
    """NACE sections and stored headcount bands, read once per data version."""
    value, _ = cache.get(("filter-reference", data_version(conn)), lambda: filters_db.reference(conn))
    return value


def planned(conn: Connection, filters: CompanyFilters, ref: Reference) -> tuple[Conditions, int]:
    """The conditions to read matches with, and the match count (up to COUNT_CAP + 1): with many
    matches the conditions are left to row-by-row tests so that the walk follows the sort order."""
    cond = conditions(filters, ref)
    total = count(conn, cond)
    return (unindexed(cond) if total >= WALK_MIN else cond), total


def search(conn: Connection, filters: CompanyFilters, ref: Reference, *, sort: str, direction: str, page: int,
           per_page: int) -> tuple[list[dict[str, Any]], int, bool]:
    """(items, total, total_exact) for one page."""
    offset = (page - 1) * per_page
    if offset + per_page > MAX_WINDOW:
        raise ValidationFailed(
            f"page × per_page may reach at most {MAX_WINDOW} rows; narrow the filters or use the CSV export",
            details=[{"field": "page", "in": "query", "message": f"beyond the first {MAX_WINDOW} rows"}])
    cond, total = planned(conn, filters, ref)
    rows = _page(conn, cond, sort, direction == "desc", offset, per_page) if total else []
    return [item(r) for r in rows], min(total, COUNT_CAP), total <= COUNT_CAP


def count(conn: Connection, cond: Conditions, cap: int = COUNT_CAP) -> int:
    """Matches, counted up to cap + 1."""
    inner = base_query(cond, c.id).limit(cap + 1).subquery()
    return int(conn.execute(select(func.count()).select_from(inner)).scalar_one())


def _page(conn: Connection, cond: Conditions, sort: str, desc: bool, offset: int,
          limit: int) -> list[Mapping[str, Any]]:
    columns = (*companies_columns(), *FINANCIAL_COLUMNS)
    if sort in ("name", "updated_at"):
        key = c.name_norm if sort == "name" else c.updated_at
        order = [key.desc(), c.id.desc()] if desc else [key.asc(), c.id.asc()]
        query = base_query(cond, *columns, outer_financials=True).order_by(*order)
        return list(conn.execute(query.offset(offset).limit(limit)).mappings())
    key = c.founded_on if sort == "founded_on" else lf.revenue
    keyed = Conditions([*cond.where, key.is_not(None)], cond.needs_financials or sort == "revenue")
    order = [key.desc(), c.id.desc()] if desc else [key.asc(), c.id.asc()]
    # Sorting by revenue walks latest_financials' index: an inner join lets the planner start there.
    query = base_query(keyed, *columns, outer_financials=sort != "revenue").order_by(*order)
    rows = list(conn.execute(query.offset(offset).limit(limit)).mappings())
    if len(rows) == limit:
        return rows
    # The rows without a value follow, by id; how many rows with a value came before this page decides
    # where in them the page starts.
    with_value = offset + len(rows) if rows or not offset else count(conn, keyed, cap=MAX_WINDOW)
    empty = Conditions([*cond.where, key.is_(None)], cond.needs_financials)
    query = base_query(empty, *columns, outer_financials=True).order_by(c.id.asc())
    rest = conn.execute(query.offset(max(0, offset - with_value)).limit(limit - len(rows))).mappings()
    return rows + list(rest)


def companies_columns() -> tuple[Any, ...]:
    return tuple(c)


def item(row: Mapping[str, Any]) -> dict[str, Any]:
    fin = None
    if row["fin_year"] is not None:
        fin = {"year": row["fin_year"], "currency": row["fin_currency"], "revenue": row["fin_revenue"],
               "profit": row["fin_profit"], "totalAssets": row["fin_total_assets"], "equity": row["fin_equity"],
               "liabilities": row["fin_liabilities"], "employees": row["fin_employees"],
               "source": row["fin_source"]}
    return summary(row) | {"latestFinancials": fin}
