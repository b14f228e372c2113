"""What ranking reads of candidate companies: the few columns every candidate needs (name, legal
form, country, town, status, size, age), and for the namesakes that tie at the top the latest
revenue and the number of sources (prominence, `domain.matching.Prominence`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, cast, func, null, select, union_all
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, company_sources, financial_statements

_COLS = (
    companies.c.id,
    companies.c.name,
    companies.c.name_norm,
    companies.c.legal_form,
    companies.c.status,
    companies.c.country,
    companies.c.city,
    companies.c.address_norm,
    companies.c.employees,
    companies.c.founded_on,
)
CHUNK = 900


def ranking_rows(conn: Connection, ids: Sequence[int]) -> list[Any]:
    out: list[Any] = []
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), CHUNK):
        out += conn.execute(select(*_COLS).where(companies.c.id.in_(wanted[start : start + CHUNK]))).all()
    return out


def prominence_extras(conn: Connection, ids: Sequence[int]) -> dict[int, tuple[float | None, int]]:
    """Company id -> (revenue of its latest statement, number of sources), in one statement."""
    wanted = list(dict.fromkeys(ids))
    revenue: dict[int, tuple[int, float]] = {}
    sources: dict[int, int] = {}
    fs, cs = financial_statements.c, company_sources.c
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        statements = select(fs.company_id, fs.year, fs.revenue, cast(null(), Integer).label("n")).where(
            fs.company_id.in_(chunk), fs.revenue.is_not(None)
        )
        counted = (
            select(cs.company_id, cast(null(), fs.year.type), cast(null(), fs.revenue.type), func.count())
            .where(cs.company_id.in_(chunk))
            .group_by(cs.company_id)
        )
        for cid, year, amount, count in conn.execute(union_all(statements, counted)):
            if count is not None:
                sources[int(cid)] = int(count)
            elif int(cid) not in revenue or year > revenue[int(cid)][0]:
                revenue[int(cid)] = (int(year), float(amount))
    return {cid: (revenue[cid][1] if cid in revenue else None, sources.get(cid, 0)) for cid in wanted}
