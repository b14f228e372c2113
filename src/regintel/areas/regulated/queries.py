"""The regulated area's SQL, and only here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import ColumnElement, Row, Table, delete, func, or_, select, update
from sqlalchemy.engine import Connection

from regintel.db import stats as stats_db
from regintel.db.company_filters import Conditions
from regintel.db.schema import companies, data_sources, identifiers

from .tables import licensed_professionals, regulated_authorisations

A, P = regulated_authorisations, licensed_professionals
SOURCE_COLUMNS = (data_sources.c.licence, data_sources.c.attribution, data_sources.c.last_import_at)


def _rows(result: Iterable[Any]) -> list[Mapping[str, Any]]:
    return list(cast(Iterable[Mapping[str, Any]], result))


def authorisations(conn: Connection, company_id: int, sector: str | None) -> list[Mapping[str, Any]]:
    """The company's licences (of one sector, or all), current ones first, newest grant first."""
    query = (
        select(A, *SOURCE_COLUMNS)
        .join(data_sources, data_sources.c.id == A.c.source, isouter=True)
        .where(A.c.company_id == company_id)
    )
    if sector is not None:
        query = query.where(A.c.sector == sector)
    query = query.order_by((A.c.status == "active").desc(), A.c.granted_on.desc(), A.c.id)
    return _rows(conn.execute(query).mappings())


def professionals(
    conn: Connection, company_id: int, offset: int, limit: int
) -> tuple[int, list[Mapping[str, Any]]]:
    where = P.c.company_id == company_id
    total = conn.execute(select(func.count()).select_from(P).where(where)).scalar_one()
    rows = conn.execute(
        select(P, *SOURCE_COLUMNS)
        .join(data_sources, data_sources.c.id == P.c.source, isouter=True)
        .where(where)
        .order_by(P.c.role, P.c.name, P.c.id)
        .offset(offset)
        .limit(limit)
    ).mappings()
    return int(total), _rows(rows)


def supervised_companies(conn: Connection, limit: int) -> list[Mapping[str, Any]]:
    """Companies holding a current financial authorisation, by name: one row per (company, category,
    register), for the first `limit` companies."""
    current = (A.c.sector == "financial") & (A.c.status == "active") & A.c.company_id.is_not(None)
    first = (
        select(companies.c.id)
        .where(companies.c.id.in_(select(A.c.company_id).where(current)))
        .order_by(companies.c.name, companies.c.id)
        .limit(limit)
        .subquery()
    )
    query = (
        select(
            companies.c.id,
            companies.c.country,
            companies.c.national_id,
            companies.c.name,
            A.c.category,
            A.c.source,
        )
        .distinct()
        .join(A, A.c.company_id == companies.c.id)
        .where(current, companies.c.id.in_(select(first.c.id)))
        .order_by(companies.c.name, companies.c.id, A.c.category, A.c.source)
    )
    return _rows(conn.execute(query).mappings())


def active_authorisations(conn: Connection, company_id: int) -> Sequence[Mapping[str, Any]]:
    return _rows(
        conn.execute(
            select(A.c.source, A.c.sector, A.c.category, A.c.licence_type, A.c.country)
            .where(A.c.company_id == company_id, A.c.status == "active")
            .order_by(A.c.sector, A.c.category, A.c.id)
        ).mappings()
    )


def active_authorisations_of(conn: Connection, company_ids: Sequence[int]) -> Sequence[Mapping[str, Any]]:
    """The current authorisations of many companies (one query per 500 ids), with `company_id`."""
    out: list[Mapping[str, Any]] = []
    ids = sorted(set(company_ids))
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        out.extend(
            _rows(
                conn.execute(
                    select(
                        A.c.company_id, A.c.source, A.c.sector, A.c.category, A.c.licence_type, A.c.country
                    )
                    .where(A.c.company_id.in_(chunk), A.c.status == "active")
                    .order_by(A.c.company_id, A.c.sector, A.c.category, A.c.id)
                ).mappings()
            )
        )
    return out


def licensed_role_groups(conn: Connection, cond: Conditions) -> list[dict[str, Any]]:
    """Matching companies grouped by the role of the professionals linked to them, through (company_id,
    role) once per pair."""
    links = (
        select(P.c.company_id, P.c.role)
        .distinct()
        .where(P.c.company_id.is_not(None))
        .subquery("licensed_roles")
    )
    return stats_db.grouped(conn, cond, (links.c.role,), join=(links, links.c.company_id == companies.c.id))


# -- the importer's reads and writes (importing.py, loading.py, linking.py, designating.py) ------------------


def source_rows(conn: Connection, source: str) -> int:
    """Rows a source has in the area's tables (the catalogue's `row_count`)."""
    return sum(
        int(conn.execute(select(func.count()).select_from(t).where(t.c.source == source)).scalar_one())
        for t in (A, P)
    )


def stored_rows(conn: Connection, table: Table, source: str) -> list[Row[Any, Any, Any, Any]]:
    """`(record_key, id, record_hash, company_id)` of every row the source has in `table`."""
    t = table.c
    return list(
        conn.execute(select(t.record_key, t.id, t.record_hash, t.company_id).where(t.source == source))
    )


def insert_rows(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    conn.execute(table.insert(), list(rows))


def update_row(conn: Connection, table: Table, pk: int | None, values: Mapping[str, Any]) -> None:
    conn.execute(update(table).where(table.c.id == pk).values(**values))


def delete_rows(conn: Connection, table: Table, ids: Sequence[int]) -> None:
    """Delete these rows of `table`, 500 to a statement."""
    for start in range(0, len(ids), 500):
        conn.execute(delete(table).where(table.c.id.in_(ids[start : start + 500])))


def company_by_national_id(conn: Connection, country: str, national_id: str) -> int | None:
    query = select(companies.c.id).where(
        companies.c.country == country, companies.c.national_id == national_id
    )
    found = conn.execute(query).scalar()
    return int(found) if found is not None else None


def vat_holders(conn: Connection, country: str, forms: list[str]) -> list[int]:
    """At most two companies holding one of the VAT number's `forms`, as their VAT number or as an
    identifier (`vat`, `ic_dph`, `dic`)."""
    on_company = (companies.c.country == country) & companies.c.vat_id.in_(forms)
    return _holders(conn, on_company, ("vat", "ic_dph", "dic"), forms)


def lei_holders(conn: Connection, lei: str) -> list[int]:
    """At most two companies holding the LEI, as their LEI or as an identifier."""
    return _holders(conn, companies.c.lei == lei, ("lei",), [lei])


def _holders(
    conn: Connection, on_company: ColumnElement[bool], types: tuple[str, ...], forms: list[str]
) -> list[int]:
    listed = select(identifiers.c.company_id).where(
        identifiers.c.type.in_(types), identifiers.c.value.in_(forms)
    )
    query = select(companies.c.id).where(or_(on_company, companies.c.id.in_(listed))).limit(2)
    return [int(i) for i in conn.execute(query).scalars()]


def trust_services(conn: Connection, source: str) -> list[Row[Any, Any, Any, Any, Any]]:
    """`(company_id, category, status, name, licence_number)` of the source's linked trust services, by
    company."""
    return list(
        conn.execute(
            select(A.c.company_id, A.c.category, A.c.status, A.c.name, A.c.licence_number)
            .where(A.c.source == source, A.c.sector == "trust", A.c.company_id.is_not(None))
            .order_by(A.c.company_id, A.c.id)
        )
    )
