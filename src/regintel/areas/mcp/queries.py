"""The SQL of the agent brief: financial history and the current roles of one company."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import and_, desc, func, or_, select
from sqlalchemy.engine import Connection, RowMapping

from regintel.db.schema import companies, financial_statements, people, roles

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.

holder = companies.alias("holder")


def financial_history(conn: Connection, company_id: int, years: int) -> list[Mapping[str, Any]]:
    """One statement per year (the first source in id order when several give one), newest first."""
    fs = financial_statements.c
    rows = conn.execute(
        select(financial_statements)
        .where(fs.company_id == company_id)
        .order_by(desc(fs.year), fs.source)
        .limit(years * 4)
    ).mappings()
    seen: dict[int, RowMapping] = {}
    for row in rows:
        seen.setdefault(int(row["year"]), row)
    return cast("list[Mapping[str, Any]]", list(seen.values())[:years])


def _current() -> Any:
    return or_(roles.c.until.is_(None), roles.c.until >= func.current_date())


def current_roles(conn: Connection, company_id: int, limit: int) -> tuple[list[Mapping[str, Any]], int]:
    """Roles held now (no end date, or one still ahead), owners first, with the person's fields or the
    holding company's key; and how many there are in all."""
    r = roles.c
    where = and_(r.company_id == company_id, _current())
    query = (
        select(
            r.role,
            r.holder_name,
            r.title,
            r.share_pct,
            r.voting_pct,
            r.since,
            r.until,
            r.source,
            r.person_id,
            people.c.person_key,
            people.c.birth_date,
            people.c.nationality,
            people.c.country_of_residence,
            holder.c.country.label("holder_country"),
            holder.c.national_id.label("holder_national_id"),
        )
        .select_from(
            roles.outerjoin(people, people.c.id == r.person_id).outerjoin(
                holder, holder.c.id == r.holder_company_id
            )
        )
        .where(where)
        .order_by(desc(r.share_pct).nulls_last(), r.role, r.holder_name, r.id)
        .limit(limit)
    )
    total = conn.execute(select(func.count()).select_from(roles).where(where)).scalar_one()
    rows = list(conn.execute(query).mappings())
    return cast("list[Mapping[str, Any]]", rows), int(total)
