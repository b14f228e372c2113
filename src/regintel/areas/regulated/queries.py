"""The regulated area's SQL, and only here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, data_sources

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


def role_links() -> Any:
    """(company_id, role) once per pair: what the `licensed_type` breakdown joins companies to."""
    return (
        select(P.c.company_id, P.c.role)
        .distinct()
        .where(P.c.company_id.is_not(None))
        .subquery("licensed_roles")
    )
