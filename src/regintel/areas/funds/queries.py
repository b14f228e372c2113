"""The funds area's SQL: a company's awards, CORDIS participations, the public summary and the stats
feeds' rankings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import ColumnElement, Table, and_, case, func, literal, null, select, union_all, update
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, data_sources

from .tables import cordis_participants, cordis_projects, fund_awards

Rows = list[Mapping[str, Any]]


def _rows(result: Iterable[Any]) -> Rows:
    return list(cast(Iterable[Mapping[str, Any]], result))


def _awards_where(company_id: int, kind: str, measure_type: str | None) -> ColumnElement[bool]:
    a = fund_awards.c
    where = (a.company_id == company_id) & (a.kind == kind)
    return where & (a.measure_type == measure_type) if measure_type else where


def company_awards(
    conn: Connection, company_id: int, kind: str, measure_type: str | None, offset: int, limit: int
) -> tuple[int, Rows]:
    """(total, one page) of a company's awards of one kind, newest first (start, grant date, year)."""
    a = fund_awards.c
    where = _awards_where(company_id, kind, measure_type)
    total = conn.execute(select(func.count()).select_from(fund_awards).where(where)).scalar_one()
    if not total:
        return 0, []
    order = (
        func.coalesce(a.start_on, a.granted_on).desc().nulls_last(),
        a.year.desc().nulls_last(),
        a.id.desc(),
    )
    rows = conn.execute(
        select(fund_awards).where(where).order_by(*order).offset(offset).limit(limit)
    ).mappings()
    return int(total), _rows(rows)


def company_participations(conn: Connection, company_id: int, offset: int, limit: int) -> tuple[int, Rows]:
    """(total, one page) of a company's CORDIS participations with their projects, newest project first."""
    p, j = cordis_participants.c, cordis_projects.c
    total = conn.execute(
        select(func.count()).select_from(cordis_participants).where(p.company_id == company_id)
    ).scalar_one()
    if not total:
        return 0, []
    query = (
        select(
            cordis_participants,
            j.acronym,
            j.title,
            j.status,
            j.framework,
            j.funding_scheme,
            j.start_on,
            j.end_on,
            j.total_cost.label("project_total_cost"),
            j.ec_max_contribution,
        )
        .select_from(cordis_participants.outerjoin(cordis_projects, j.project_id == p.project_id))
        .where(p.company_id == company_id)
        .order_by(j.start_on.desc().nulls_last(), p.project_id.desc(), p.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return int(total), _rows(conn.execute(query).mappings())


def catalogue(conn: Connection, ids: Sequence[str]) -> Rows:
    """The catalogue entries (licence, attribution, last import) of the sources a response shows."""
    if not ids:
        return []
    d = data_sources.c
    return _rows(
        conn.execute(
            select(d.id, d.name, d.licence, d.licence_url, d.attribution, d.last_import_at)
            .where(d.id.in_(sorted(set(ids))))
            .order_by(d.id)
        ).mappings()
    )


def _eu_funding(company_id: int | None = None) -> Any:
    """One row per EU-funded project a company benefits from: cohesion and FTS awards (their EU share, in
    euro) and CORDIS participations (the EC contribution)."""
    a, p, j = fund_awards.c, cordis_participants.c, cordis_projects.c
    awards = select(
        a.company_id,
        a.source,
        a.title,
        a.programme,
        a.fund,
        a.start_on,
        a.end_on,
        a.year,
        func.coalesce(a.eu_amount, a.amount).label("eu_amount"),
        a.link,
    ).where(a.kind == "eu_project", a.currency == "EUR", a.company_id.is_not(None))
    research = (
        select(
            p.company_id,
            literal("eu_cordis").label("source"),
            j.title,
            j.framework.label("programme"),
            j.funding_scheme.label("fund"),
            j.start_on,
            j.end_on,
            literal(None).label("year"),
            p.ec_contribution.label("eu_amount"),
            (literal("https://cordis.europa.eu/project/id/") + p.project_id).label("link"),
        )
        .select_from(cordis_participants.outerjoin(cordis_projects, j.project_id == p.project_id))
        .where(p.company_id.is_not(None))
    )
    if company_id is not None:
        awards = awards.where(a.company_id == company_id)
        research = research.where(p.company_id == company_id)
    return union_all(awards, research).subquery("eu_funding")


def eu_funding(conn: Connection, company_id: int) -> Rows:
    """Every EU-funded project of a company (for the public summary: counted, summed, top five)."""
    sub = _eu_funding(company_id)
    return _rows(
        conn.execute(select(sub).order_by(sub.c.eu_amount.desc().nulls_last(), sub.c.title)).mappings()
    )


def top_eu_beneficiaries(conn: Connection, limit: int) -> Rows:
    """Linked companies by the EU funding they received, largest first (the `eu-funds` feed)."""
    sub = _eu_funding()
    ranked = (
        select(sub.c.company_id, func.count().label("projects"), func.sum(sub.c.eu_amount).label("eu_amount"))
        .group_by(sub.c.company_id)
        .order_by(func.sum(sub.c.eu_amount).desc().nulls_last(), sub.c.company_id)
        .limit(limit)
        .subquery()
    )
    return _with_company(conn, ranked, [ranked.c.projects, ranked.c.eu_amount])


def top_cordis_participants(conn: Connection, limit: int) -> Rows:
    """Linked companies by their CORDIS EC contribution, largest first (the `cordis-projects` feed)."""
    p = cordis_participants.c
    coordinated = func.sum(case((p.role == "coordinator", 1), else_=0))
    ranked = (
        select(
            p.company_id,
            func.count().label("projects"),
            coordinated.label("coordinated"),
            func.sum(p.ec_contribution).label("ec_contribution"),
        )
        .where(p.company_id.is_not(None))
        .group_by(p.company_id)
        .order_by(func.sum(p.ec_contribution).desc().nulls_last(), p.company_id)
        .limit(limit)
        .subquery()
    )
    return _with_company(conn, ranked, [ranked.c.projects, ranked.c.coordinated, ranked.c.ec_contribution])


def _with_company(conn: Connection, ranked: Any, figures: list[Any]) -> Rows:
    c = companies.c
    order = figures[-1]
    return _rows(
        conn.execute(
            select(c.country, c.national_id, c.name, *figures)
            .select_from(ranked.join(companies, c.id == ranked.c.company_id))
            .order_by(order.desc().nulls_last(), c.id)
        ).mappings()
    )


# -- the importer's reads and writes (importing.py, writing.py) ---------------------------------------------


def cordis_rows(conn: Connection) -> int:
    """CORDIS projects and participations together (the catalogue's `row_count` of `eu_cordis`)."""
    return sum(
        int(conn.execute(select(func.count()).select_from(t)).scalar_one())
        for t in (cordis_projects, cordis_participants)
    )


def award_rows(conn: Connection, source_id: str) -> int:
    """The awards a source holds (its catalogue `row_count`)."""
    return int(
        conn.execute(
            select(func.count()).select_from(fund_awards).where(fund_awards.c.source == source_id)
        ).scalar_one()
    )


def stored_hashes(
    conn: Connection, table: Table, key_cols: Sequence[str], keys: Sequence[tuple[str, ...]]
) -> dict[tuple[Any, ...], tuple[Any, Any]]:
    """`key -> (record_hash, company_id)` of the stored rows of `table` (company_id None where the table has
    none), read with one IN list per key column: a superset of `keys`, which the caller filters."""
    cols = [table.c[c] for c in key_cols]
    where = and_(*(col.in_(sorted({k[i] for k in keys})) for i, col in enumerate(cols)))
    extra = [table.c.record_hash, table.c.company_id if "company_id" in table.c else null()]
    return {tuple(r[:-2]): (r[-2], r[-1]) for r in conn.execute(select(*cols, *extra).where(where))}


def set_company(
    conn: Connection,
    table: Table,
    key_cols: Sequence[str],
    key: Sequence[Any],
    company_id: int | None,
    method: str | None,
    score: float | None,
) -> None:
    """Link the row of `table` with `key` to a company."""
    conn.execute(
        update(table)
        .where(*(table.c[k] == v for k, v in zip(key_cols, key, strict=True)))
        .values(company_id=company_id, match_method=method, match_score=score)
    )
