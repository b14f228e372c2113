"""Reading companies and what hangs off them (conn-first functions returning plain mappings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import bindparam, desc, select
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.prepared import Prepared, run_together
from regintel.db.schema import (
    companies,
    company_changes,
    company_sources,
    data_sources,
    financial_statements,
    identifiers,
)

# The statements of the exact-lookup path are built once and run through `Prepared`: constructing and
# executing a select the usual way costs more Python than SQLite spends answering it (bench_lookup.py).
_FIND = Prepared(
    select(companies).where(
        companies.c.country == bindparam("country"), companies.c.national_id == bindparam("national_id")
    )
)
_IDENTIFIERS = Prepared(
    select(identifiers.c.type, identifiers.c.value, identifiers.c.source)
    .where(identifiers.c.company_id == bindparam("company_id"))
    .order_by(identifiers.c.type, identifiers.c.value)
)
_SOURCES = Prepared(
    select(
        company_sources,
        data_sources.c.name,
        data_sources.c.licence,
        data_sources.c.attribution,
        data_sources.c.url,
        data_sources.c.publisher,
    )
    .join(data_sources, data_sources.c.id == company_sources.c.source, isouter=True)
    .where(company_sources.c.company_id == bindparam("company_id"))
    .order_by(company_sources.c.source)
)
_LATEST = Prepared(
    select(financial_statements)
    .where(financial_statements.c.company_id == bindparam("company_id"))
    .order_by(desc(financial_statements.c.year))
    .limit(1)
)


def find_company(conn: Connection, country: str, national_id: str) -> Mapping[str, Any] | None:
    return _FIND.first(conn, country=country, national_id=national_id)


def list_by_national_id(conn: Connection, national_ids: list[str]) -> list[RowMapping]:
    """Companies in any country whose national id is one of `national_ids` (for country-less paths)."""
    rows = conn.execute(
        select(companies).where(companies.c.national_id.in_(national_ids)).order_by(companies.c.country)
    ).mappings()
    return list(rows)


def ids_by_national_id(conn: Connection, country: str, national_ids: list[str]) -> dict[str, int]:
    """`national_id -> company id` of the companies of `country` holding one of `national_ids` (the
    importers' linkers look a batch up at once)."""
    query = select(companies.c.national_id, companies.c.id).where(
        companies.c.country == country, companies.c.national_id.in_(national_ids)
    )
    return {national_id: company_id for national_id, company_id in conn.execute(query)}


def latest_financials(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    return _LATEST.first(conn, company_id=company_id)


def record_parts(
    conn: Connection, company_id: int
) -> tuple[Mapping[str, Any] | None, list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(latest financial statement, sources, identifiers) of a company: on PostgreSQL in one round trip."""
    params = {"company_id": company_id}
    fin, sources, ids = run_together(
        conn, [(_LATEST, params, True), (_SOURCES, params, False), (_IDENTIFIERS, params, False)]
    )
    return (fin[0] if fin else None), list(sources), list(ids)


def list_changes(
    conn: Connection, company_id: int, *, before_id: int | None, limit: int, field: str | None = None
) -> list[RowMapping]:
    """Change-log rows of a company, newest first, keyset-paginated on the row id."""
    query = select(company_changes).where(company_changes.c.company_id == company_id)
    if before_id is not None:
        query = query.where(company_changes.c.id < before_id)
    if field is not None:
        query = query.where(company_changes.c.field == field)
    return list(conn.execute(query.order_by(desc(company_changes.c.id)).limit(limit)).mappings())
