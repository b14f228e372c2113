"""SQL of the pages area, and only here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, case, delete, desc, func, select, text
from sqlalchemy.dialects import postgresql, sqlite

from regintel.areas.public_money.contracts import supplier_totals
from regintel.db.company_filters import Conditions
from regintel.db.schema import companies, latest_financials

from .tables import contract_totals, csp_reports, page_renders, page_views

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.

c = companies.c
COMPANY_COLUMNS = (c.id, c.country, c.national_id, c.name, c.status, c.city, c.legal_form_name)


def add_views(conn: Connection, counts: Mapping[int, int], now: datetime) -> None:
    """One upsert per flushed batch: views are added, never overwritten (several processes flush)."""
    if not counts:
        return
    rows = [{"company_id": cid, "views": n, "last_viewed_at": now} for cid, n in sorted(counts.items())]
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    stmt = insert(page_views)
    stmt = stmt.on_conflict_do_update(
        index_elements=[page_views.c.company_id],
        set_={
            "views": page_views.c.views + stmt.excluded.views,
            "last_viewed_at": stmt.excluded.last_viewed_at,
        },
    )
    existing = {r[0] for r in conn.execute(select(companies.c.id).where(companies.c.id.in_(list(counts))))}
    rows = [r for r in rows if r["company_id"] in existing]  # a company deleted since its view was counted
    if rows:
        conn.execute(stmt, rows)


def views_of(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    item = conn.execute(select(page_views).where(page_views.c.company_id == company_id)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def most_viewed(conn: Connection, country: str | None, limit: int) -> list[Mapping[str, Any]]:
    query = (
        select(*COMPANY_COLUMNS, page_views.c.views, page_views.c.last_viewed_at)
        .join(companies, companies.c.id == page_views.c.company_id)
        .order_by(desc(page_views.c.views), c.id)
        .limit(limit)
    )
    if country:
        query = query.where(c.country == country)
    rows = list(conn.execute(query).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def largest(conn: Connection, country: str | None, currency: str, limit: int) -> list[Mapping[str, Any]]:
    lf = latest_financials.c
    query = (
        select(
            *COMPANY_COLUMNS,
            lf.year,
            lf.currency,
            lf.revenue,
            func.coalesce(lf.employees, c.employees).label("employees"),
        )
        .join(companies, companies.c.id == lf.company_id)
        .where(lf.currency == currency, lf.revenue.is_not(None))
        .order_by(desc(lf.revenue), c.id)
        .limit(limit)
    )
    if country:
        query = query.where(lf.country == country)
    rows = list(conn.execute(query).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def latest_financials_of(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    item = (
        conn.execute(select(latest_financials).where(latest_financials.c.company_id == company_id))
        .mappings()
        .first()
    )
    return cast("Mapping[str, Any] | None", item)


def companies_page(conn: Connection, country: str, after_id: int, limit: int) -> list[Mapping[str, Any]]:
    """Active companies of a country in id order, keyset-paged (the directory pages)."""
    rows = list(
        conn.execute(
            select(*COMPANY_COLUMNS).where(c.country == country, c.id > after_id).order_by(c.id).limit(limit)
        ).mappings()
    )
    return cast("list[Mapping[str, Any]]", rows)


# The id ranges of `:size` that hold a company, in one statement: each step seeks the first id past the last
# range found on the primary key (a loose index scan): one index entry read per filled range, at any size.
FILLED_RANGES = text(
    """
    WITH RECURSIVE filled(page) AS (
        SELECT (SELECT (min(id) - 1) / :size FROM companies)
        UNION ALL
        SELECT (SELECT (min(c.id) - 1) / :size FROM companies AS c WHERE c.id > (filled.page + 1) * :size)
        FROM filled WHERE filled.page IS NOT NULL
    )
    SELECT page + 1 FROM filled WHERE page IS NOT NULL
    """
)


def filled_ranges(conn: Connection, size: int) -> list[int]:
    """The numbers (from 1) of the id ranges `[(n-1)*size+1, n*size]` that hold at least one company."""
    return [int(n) for n in conn.execute(FILLED_RANGES, {"size": size}).scalars()]


def sitemap_rows(conn: Connection, low: int, high: int, chunk: int = 5000) -> list[tuple[int, str, str, Any]]:
    """(id, lower-case country, national id, updated_at) of the companies with `low <= id < high`, in id
    order, read in keyset chunks off the primary key (so no statement holds 50,000 rows at once)."""
    out: list[tuple[int, str, str, Any]] = []
    after = low - 1
    while True:
        rows = conn.execute(
            select(c.id, func.lower(c.country), c.national_id, c.updated_at)
            .where(c.id > after, c.id < high)
            .order_by(c.id)
            .limit(chunk)
        ).all()
        out.extend((r[0], r[1], r[2], r[3]) for r in rows)
        if len(rows) < chunk:
            return out
        after = rows[-1][0]


def company_countries(conn: Connection) -> list[str]:
    """The countries that have companies (the country index alone answers it)."""
    return [r[0] for r in conn.execute(select(c.country).distinct().order_by(c.country))]


def recently_updated(conn: Connection, limit: int) -> list[Mapping[str, Any]]:
    """The `limit` most recently updated companies, newest first (ties by id, newest first). Ordered by
    `updated_at` alone in SQL, which its index answers read backwards; ordering by `(updated_at, id)`
    there made PostgreSQL sort the whole table (4.4 s at 10M: its index holds no id). Rows tied at
    the cut are taken in the index's order."""
    rows = list(
        conn.execute(
            select(c.id, c.country, c.national_id, c.updated_at).order_by(desc(c.updated_at)).limit(limit)
        ).mappings()
    )
    rows.sort(key=lambda r: (r["updated_at"], r["id"]), reverse=True)
    return cast("list[Mapping[str, Any]]", rows)


def companies_by_ids(conn: Connection, ids: Sequence[int]) -> list[Mapping[str, Any]]:
    rows = list(conn.execute(select(companies).where(c.id.in_(list(ids)))).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def store_csp_report(conn: Connection, row: Mapping[str, Any], keep: int) -> None:
    conn.execute(csp_reports.insert().values(**row))
    newest = conn.execute(
        select(csp_reports.c.id).order_by(desc(csp_reports.c.id)).offset(keep).limit(1)
    ).scalar()
    if newest is not None:
        conn.execute(delete(csp_reports).where(csp_reports.c.id <= newest))


def csp_report_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(csp_reports)).scalar() or 0)


# -- public-contract totals (the `public-contracts` ranking) ------------------------------------------------


def refresh_contract_totals(conn: Connection, now: datetime) -> int:
    """Replace the totals with one aggregate over the contracts, server-side (INSERT ... SELECT of the
    public-money area's `contracts.supplier_totals`)."""
    source = supplier_totals(now)
    conn.execute(delete(contract_totals))
    conn.execute(
        contract_totals.insert().from_select(
            ["company_id", "currency", "total", "contracts", "computed_at"], source
        )
    )
    # counted, not rowcount: PostgreSQL's driver reports -1 for INSERT ... SELECT here
    return int(conn.execute(select(func.count()).select_from(contract_totals)).scalar_one())


def contract_ranking(
    conn: Connection, country: str | None, currency: str, limit: int
) -> list[Mapping[str, Any]]:
    t = contract_totals.c
    query = (
        select(*COMPANY_COLUMNS, t.currency, t.total, t.contracts)
        .join(companies, c.id == t.company_id)
        .where(t.currency == currency)
        .order_by(desc(t.total), c.id)
        .limit(limit)
    )
    if country:
        query = query.where(c.country == country)
    return cast("list[Mapping[str, Any]]", list(conn.execute(query).mappings()))


def contract_totals_as_of(conn: Connection) -> datetime | None:
    """One row's time: a refresh writes every row with the same `computed_at` (max() would scan them all)."""
    value = conn.execute(select(contract_totals.c.computed_at).limit(1)).scalar()
    return cast("datetime | None", value)


def region_counts(conn: Connection) -> list[Mapping[str, Any]]:
    """Companies and active companies per NUTS 3 region (the `ix_companies_nuts3` index covers it)."""
    active = func.sum(case((c.status == "active", 1), else_=0))
    rows = conn.execute(
        select(c.nuts3, c.country, func.count().label("companies"), active.label("active"))
        .where(c.nuts3.is_not(None))
        .group_by(c.nuts3, c.country)
        .order_by(c.nuts3, c.country)
    )
    return cast("list[Mapping[str, Any]]", list(rows.mappings()))


# -- stored renders (og.png, sitemap pages) ------------------------------------------------------------------


def find_render(conn: Connection, key: str, version: str | None = None) -> bytes | None:
    """The stored body of `key`, if it was made at `version` (None: content-addressed, any)."""
    r = page_renders.c
    query = select(r.body).where(r.key == key)
    if version is not None:
        query = query.where(r.version == version)
    value = conn.execute(query).scalar()
    return None if value is None else bytes(value)


def has_render(conn: Connection, key: str, version: str | None = None) -> bool:
    """Whether `key` is stored (made at `version` when one is given), without reading its body."""
    r = page_renders.c
    query = select(r.key).where(r.key == key)
    if version is not None:
        query = query.where(r.version == version)
    return conn.execute(query).first() is not None


def renders_of(conn: Connection, pattern: str) -> list[bytes]:
    """The bodies stored under keys LIKE `pattern` (the few `sitemap-base:` rows)."""
    r = page_renders.c
    return [
        bytes(b) for b in conn.execute(select(r.body).where(r.key.like(pattern)).order_by(r.key)).scalars()
    ]


def store_render(
    conn: Connection, key: str, version: str | None, body: bytes, size: int, now: datetime, keep: int
) -> None:
    """Insert or replace one render, then drop the oldest of its kind (`og:`, `sitemap:`) beyond `keep`."""
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    values = {"key": key, "version": version, "body": body, "size": size, "computed_at": now}
    stmt = insert(page_renders).values(**values)
    conn.execute(stmt.on_conflict_do_update(index_elements=[page_renders.c.key], set_=values))
    kind = key.split(":", 1)[0] + ":%"
    r = page_renders.c
    oldest = conn.execute(
        select(r.computed_at).where(r.key.like(kind)).order_by(desc(r.computed_at)).offset(keep).limit(1)
    ).scalar()
    if oldest is not None:
        conn.execute(delete(page_renders).where(r.key.like(kind), r.computed_at <= oldest))


def country_conditions(country: str | None) -> Conditions:
    """The companies of `country` (every company without one), as the statistics service filters them."""
    return Conditions([companies.c.country == country] if country else [], False)


def first_company(conn: Connection) -> tuple[str, str] | None:
    """(country, national id) of the company with the lowest id."""
    first = conn.execute(
        select(companies.c.country, companies.c.national_id).order_by(companies.c.id).limit(1)
    ).first()
    return None if first is None else (str(first.country), str(first.national_id))
