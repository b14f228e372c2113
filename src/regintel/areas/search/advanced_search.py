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

from typing import Any

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.views import summary
from regintel.areas.search import queries
from regintel.areas.search.company_filters import CompanyFilters
from regintel.areas.search.schemas import AdvancedSearchHit, HitFinancials
from regintel.db import company_filters as filters_db
from regintel.db import name_trigrams
from regintel.db.company_filters import Conditions, Reference, conditions, unindexed
from regintel.db.name_trigrams import NameContains
from regintel.db.stats import data_version
from regintel.errors import ValidationFailed
from regintel.result_cache import ResultCache

COUNT_CAP = 10_000
MAX_WINDOW = 10_000
# A page is read one of two ways. Walking the sort index and testing the filters row by row reads about
# (offset + per_page) × companies / matches rows; finding every match by the filters' indexes and
# sorting them reads about `matches` rows. The walk wins once matches² > (offset + per_page) ×
# companies, and always beyond the count cap; never below WALK_MIN matches.
WALK_MIN = 2_000
# PostgreSQL, a page in name order under `name_contains` with many matches: how far to walk the name index
# before sorting the matches instead (see _name_page_ids).
WALK_PROBE = 20_000
SORTS = ("name", "founded_on", "revenue", "updated_at")


def reference(conn: Connection, cache: ResultCache) -> Reference:
    """NACE sections and stored headcount bands, read once per data version."""
    value, _ = cache.get(("filter-reference", data_version(conn)), lambda: filters_db.reference(conn))
    return value


def planned(
    conn: Connection, filters: CompanyFilters, ref: Reference, sort: str
) -> tuple[Conditions, int, list[int] | None]:
    """The conditions, the match count (up to COUNT_CAP + 1) and, for a PostgreSQL page in name order
    under `name_contains` with other filters, the matches' ids themselves: counting them joins each
    match of the term to its company, and the page in name order is then a sort of those ids
    (10M, `nace=62&name_contains=nord`: 3,060 ids sorted in 8 ms instead of a second join, 120 ms)."""
    cond = conditions(filters, ref)
    name = _indexed_name(cond) if sort == "name" else None
    if name is not None and not _sqlite(conn) and not _alone(cond, name):
        found = list(conn.execute(queries.match_ids(cond, COUNT_CAP)).scalars())
        return cond, len(found), found
    return cond, count(conn, cond), None


def export_plan(
    conn: Connection, filters: CompanyFilters, ref: Reference, row_cap: int, page: int
) -> tuple[Conditions, int]:
    """Conditions for a keyset walk in id order, and the matches (counted up to `row_cap` + 1).

    Each page of `page` rows either re-finds the remaining matches by the filters' indexes (about
    matches² / page reads in all) or follows the primary key testing every row (one pass over all
    companies): the first while matches² / page < companies."""
    cond = conditions(filters, ref)
    total = count(conn, cond, cap=row_cap)
    walk = total * total > page * _size(conn)
    return (unindexed(cond) if walk else cond), total


def search(
    conn: Connection,
    filters: CompanyFilters,
    ref: Reference,
    *,
    sort: str,
    direction: str,
    page: int,
    per_page: int,
) -> tuple[list[AdvancedSearchHit], int, bool]:
    """(items, total, total_exact) for one page."""
    offset = (page - 1) * per_page
    if offset + per_page > MAX_WINDOW:
        raise ValidationFailed(
            f"page × per_page may reach at most {MAX_WINDOW} rows; narrow the filters or use the CSV export",
            details=[{"field": "page", "in": "query", "message": f"beyond the first {MAX_WINDOW} rows"}],
        )
    cond, total, found = planned(conn, filters, ref, sort)
    walk = total >= WALK_MIN and (total > COUNT_CAP or total * total > (offset + per_page) * _size(conn))
    desc = direction == "desc"
    name = _indexed_name(cond) if sort == "name" else None
    if name is not None and total:
        rows = _rows(conn, _name_page_ids(conn, cond, name, total, found, desc, offset, per_page))
    else:
        # Walking, the conditions are left to row-by-row tests so that the plan follows the sort index.
        page_cond = unindexed(cond) if walk else cond
        rows = _page(conn, page_cond, sort, desc, offset, per_page, walk) if total else []
    return [item(r) for r in rows], min(total, COUNT_CAP), total <= COUNT_CAP


def _name_page_ids(
    conn: Connection,
    cond: Conditions,
    name: NameContains,
    total: int,
    found: list[int] | None,
    desc: bool,
    offset: int,
    limit: int,
) -> list[int]:
    """A page in name order under `name_contains` (three characters or more). The names holding a term
    cluster in name order (most names holding "nord" start with it), so a walk of the name index reads
    far more names than matches² predicts (10M: 1.48 million names before the 20th "nord", 288 ms).
    The trigram table gives the matches in name order instead."""
    others = _others(cond, name)
    if _sqlite(conn):
        if _alone(cond, name) or total >= WALK_MIN:
            # The trigram table streams the matches in name order: each match read (and its row, for
            # other filters) brings the page closer.
            where = unindexed(Conditions(others, cond.needs_financials)).where
            return name_trigrams.page_ids(conn, name, where, cond.needs_financials, desc, offset, limit)
        return _page_ids(conn, cond, "name", desc, offset, limit, walk=False)
    if total <= COUNT_CAP:
        if found is None:  # the name filter alone (planned() keeps ids only with other filters)
            return name_trigrams.pg_page_ids(conn, name, [], False, desc, offset, limit)
        return name_trigrams.pg_sorted(conn, found, desc, offset, limit)  # every match is known
    # Many matches: a term common all over the alphabet ("bau") fills a page within a short walk of the
    # name index; one whose matches cluster does not, and its matches are sorted from the name table
    # (10M, "nord": 87,448 matches on 748 pages of it, 25 ms), each tested on its row for other filters.
    walked = _bounded_walk(conn, cond, desc, offset, limit)
    if walked is not None:
        return walked
    return name_trigrams.pg_page_ids(conn, name, others, cond.needs_financials, desc, offset, limit)


def _bounded_walk(
    conn: Connection, cond: Conditions, desc: bool, offset: int, limit: int
) -> list[int] | None:
    """PostgreSQL: the page from the first WALK_PROBE entries of the name index, or None when they do
    not hold it (a second index scan finds where those entries end: 10M, 20,000 entries in about 6 ms)."""
    edge = conn.execute(queries.name_edge(desc, WALK_PROBE)).first()
    bound = None if edge is None else (edge[0], edge[1])
    ids = list(conn.execute(queries.bounded_walk(unindexed(cond), bound, desc, offset, limit)).scalars())
    return ids if len(ids) == limit or edge is None else None


def _size(conn: Connection) -> int:
    """About how many companies there are: the highest id (one index seek, not a count)."""
    return int(conn.execute(queries.size()).scalar() or 0)


def count(conn: Connection, cond: Conditions, cap: int = COUNT_CAP) -> int:
    """Matches, counted up to cap + 1."""
    name = _indexed_name(cond)
    alone = name if name is not None and _alone(cond, name) else None  # the trigram table alone
    return int(conn.execute(queries.count(cond, cap, alone, conn.dialect.name)).scalar_one())


def _indexed_name(cond: Conditions) -> NameContains | None:
    """The `name_contains` condition a trigram index answers (three characters or more), if any."""
    return next((w for w in cond.where if isinstance(w, NameContains) and w.indexed()), None)


def _sqlite(conn: Connection) -> bool:
    return conn.dialect.name == "sqlite"


def _alone(cond: Conditions, name: NameContains) -> bool:
    """The trigram table answers every condition (the name, and the countries it is tagged with)."""
    return not _others(cond, name) and not cond.needs_financials


def _others(cond: Conditions, name: NameContains) -> list[Any]:
    return [w for w in cond.where if w is not name and w is not name.covers]


def _page(
    conn: Connection, cond: Conditions, sort: str, desc: bool, offset: int, limit: int, walk: bool
) -> list[RowMapping]:
    """The page's ids in order (a sort that carries only the key and the id), then their rows."""
    return _rows(conn, _page_ids(conn, cond, sort, desc, offset, limit, walk))


def _rows(conn: Connection, ids: list[int]) -> list[RowMapping]:
    """The rows of `ids` (with their latest financials), in that order."""
    if not ids:
        return []
    rows = {r["id"]: r for r in conn.execute(queries.rows(ids)).mappings()}
    return [rows[i] for i in ids if i in rows]


def _page_ids(
    conn: Connection, cond: Conditions, sort: str, desc: bool, offset: int, limit: int, walk: bool
) -> list[int]:
    if sort in ("name", "updated_at"):
        return list(conn.execute(queries.ordered_ids(cond, sort, desc, offset, limit, walk)).scalars())
    ids = list(conn.execute(queries.valued_ids(cond, sort, desc, offset, limit, walk)).scalars())
    if len(ids) == limit:
        return ids
    # The rows without a value follow, by id; how many rows with a value came before this page decides
    # where in them the page starts.
    keyed = queries.with_value(cond, sort)
    with_value = offset + len(ids) if ids or not offset else count(conn, keyed, cap=MAX_WINDOW)
    empty = queries.empty_ids(cond, sort, max(0, offset - with_value), limit - len(ids))
    return ids + list(conn.execute(empty).scalars())


def item(row: RowMapping) -> AdvancedSearchHit:
    """One company of the page: its summary and its latest financial statement's figures."""
    fin: HitFinancials | None = None
    if row["fin_year"] is not None:
        fin = {
            "year": row["fin_year"],
            "currency": row["fin_currency"],
            "revenue": row["fin_revenue"],
            "profit": row["fin_profit"],
            "totalAssets": row["fin_total_assets"],
            "equity": row["fin_equity"],
            "liabilities": row["fin_liabilities"],
            "employees": row["fin_employees"],
            "source": row["fin_source"],
        }
    return {**summary(row), "latestFinancials": fin}
