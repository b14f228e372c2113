"""The nis2 area's SQL: the facts the rules need (company, latest statement, partner and linked
enterprises, designations, recent changes), in batches, and the precomputed assessments."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import and_, bindparam, delete, func, or_, select, tuple_, update
from sqlalchemy.engine import Connection

from regintel.areas.nis2.tables import nis2_assessments, nis2_designations
from regintel.db.engine import insert_for
from regintel.db.prepared import Prepared, Read
from regintel.db.schema import (
    companies,
    company_changes,
    financial_statements,
    latest_financials,
    ownerships,
    roles,
)

c = companies.c
lf = latest_financials.c
CHUNK = 500

COMPANY_COLUMNS = (
    c.id,
    c.country,
    c.national_id,
    c.name,
    c.status,
    c.legal_form,
    c.nace_primary,
    c.nace_codes,
    c.size_class,
    c.employees,
)
FIN_COLUMNS = (
    lf.year.label("fin_year"),
    lf.currency.label("fin_currency"),
    lf.revenue.label("fin_revenue"),
    lf.total_assets.label("fin_total_assets"),
    lf.employees.label("fin_employees"),
    lf.source.label("fin_source"),
)


def _chunks(values: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def companies_with_financials(conn: Connection, ids: Sequence[int]) -> dict[int, Mapping[str, Any]]:
    out: dict[int, Any] = {}
    source = companies.join(latest_financials, lf.company_id == c.id, isouter=True)
    for part in _chunks(list(ids)):
        for row in conn.execute(
            select(*COMPANY_COLUMNS, *FIN_COLUMNS).select_from(source).where(c.id.in_(part))
        ):
            out[row.id] = row._mapping
    return out


def previous_statements(conn: Connection, latest: Mapping[int, int]) -> dict[int, Mapping[str, Any]]:
    """Each company's statement for the year before its latest (`latest`: company id → latest year), with
    the same column names as `companies_with_financials` (one per company: the last written)."""
    fs = financial_statements.c
    out: dict[int, Any] = {}
    items = sorted(latest.items())
    for part in _chunks(items):
        wanted = {cid: year - 1 for cid, year in part}
        # By company id alone (an index probe each; a row-value IN list is slower on SQLite), the year
        # tested here: a company has a few statements.
        stmt = (
            select(
                fs.company_id,
                fs.year.label("fin_year"),
                fs.currency.label("fin_currency"),
                fs.revenue.label("fin_revenue"),
                fs.total_assets.label("fin_total_assets"),
                fs.employees.label("fin_employees"),
                fs.source.label("fin_source"),
            )
            .where(
                fs.company_id.in_(list(wanted)),
                fs.year >= min(wanted.values()),
                fs.year <= max(wanted.values()),
            )
            .order_by(fs.company_id, fs.id)
        )
        for row in conn.execute(stmt):
            if wanted[row.company_id] == row.fin_year:
                out[row.company_id] = row._mapping
    return out


def relation_edges(conn: Connection, ids: Sequence[int], today: date) -> list[dict[str, Any]]:
    """Ownership edges touching `ids` in force today: `ownerships` (GLEIF accounting consolidation, or
    another source's edge with its share) and company shareholders from registers (`roles` with a holder
    company). `subject` is the company in
    `ids`, `other` the related one, `direction` `owner` (other holds subject) or `owned`."""
    edges: list[dict[str, Any]] = []
    o = ownerships.c
    live_o = or_(o.until.is_(None), o.until >= today)
    r = roles.c
    live_r = or_(r.until.is_(None), r.until >= today)
    for part in _chunks(list(ids)):
        for row in conn.execute(
            select(o.parent_id, o.child_id, o.kind, o.share_pct, o.source).where(
                or_(o.child_id.in_(part), o.parent_id.in_(part)), live_o
            )
        ):
            for subject, other, direction in (
                (row.child_id, row.parent_id, "owner"),
                (row.parent_id, row.child_id, "owned"),
            ):
                if subject in part and other != subject:
                    # GLEIF relationships are accounting consolidation (control); other sources' edges are
                    # judged by the share they give.
                    consolidation = row.source.startswith("gleif")
                    basis = "accounting consolidation" if consolidation else "ownership"
                    edges.append(
                        {
                            "subject": subject,
                            "other": other,
                            "direction": direction,
                            "basis": f"{basis} ({row.kind}, {row.source})",
                            "consolidation": consolidation,
                            "share_pct": row.share_pct,
                        }
                    )
        for row in conn.execute(
            select(r.company_id, r.holder_company_id, r.share_pct, r.voting_pct, r.source).where(
                r.role == "shareholder",
                r.holder_company_id.is_not(None),
                or_(r.company_id.in_(part), r.holder_company_id.in_(part)),
                live_r,
            )
        ):
            share = max((s for s in (row.share_pct, row.voting_pct) if s is not None), default=None)
            for subject, other, direction in (
                (row.company_id, row.holder_company_id, "owner"),
                (row.holder_company_id, row.company_id, "owned"),
            ):
                if subject in part and other != subject:
                    edges.append(
                        {
                            "subject": subject,
                            "other": other,
                            "direction": direction,
                            "basis": f"shareholder ({row.source})",
                            "consolidation": False,
                            "share_pct": share,
                        }
                    )
    return edges


def designations(conn: Connection, ids: Sequence[int]) -> dict[int, list[Mapping[str, Any]]]:
    out: dict[int, list[Any]] = {}
    d = nis2_designations.c
    for part in _chunks(list(ids)):
        for row in conn.execute(
            select(d.company_id, d.kind, d.source, d.reference)
            .where(d.company_id.in_(part))
            .order_by(d.company_id, d.kind, d.source)
        ):
            out.setdefault(row.company_id, []).append(row._mapping)
    return out


def recent_changes(conn: Connection, company_id: int, since: datetime) -> int:
    cc = company_changes.c
    return int(
        conn.execute(
            select(func.count()).where(cc.company_id == company_id, cc.detected_at >= since)
        ).scalar_one()
    )


def ids_by_identifier(conn: Connection, pairs: Sequence[tuple[str, str]]) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for part in _chunks(list(pairs)):
        for row in conn.execute(
            select(c.id, c.country, c.national_id).where(tuple_(c.country, c.national_id).in_(list(part)))
        ):
            out[(row.country, row.national_id)] = row.id
    return out


def id_page(
    conn: Connection, where: Any, after: int, limit: int, needs_financials: bool = False
) -> list[int]:
    """Company ids matching a filter condition list, in id order after `after` (a keyset page)."""
    source = companies.join(latest_financials, lf.company_id == c.id) if needs_financials else companies
    stmt = select(c.id).select_from(source).where(*where, c.id > after).order_by(c.id).limit(limit)
    return list(conn.execute(stmt).scalars())


def save_assessments(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    if not rows:
        return
    a = nis2_assessments.c
    stmt: Any = insert_for(conn, nis2_assessments)  # the dialect's INSERT (ON CONFLICT on both backends)
    stmt = stmt.on_conflict_do_update(  # one statement, many parameter sets (executemany): compiled once
        index_elements=[a.company_id],
        set_={
            k: stmt.excluded[k]
            for k in ("country", "category", "certainty", "ruleset_version", "computed_at")
        },
    )
    conn.execute(stmt, list(rows))


def add_designations(conn: Connection, rows: Sequence[dict[str, Any]]) -> int:
    d = nis2_designations.c
    written = 0
    for row in rows:
        conn.execute(
            delete(nis2_designations).where(
                and_(d.company_id == row["company_id"], d.kind == row["kind"], d.source == row["source"])
            )
        )
        conn.execute(insert_for(conn, nis2_designations).values(row))
        written += 1
    return written


def source_designations(conn: Connection, source: str) -> dict[tuple[int, str], tuple[int, str | None]]:
    """`(company id, kind) -> (row id, reference)` of the designations `source` holds."""
    d = nis2_designations.c
    return {
        (r.company_id, r.kind): (r.id, r.reference)
        for r in conn.execute(select(d.id, d.company_id, d.kind, d.reference).where(d.source == source))
    }


def delete_designations(conn: Connection, ids: Sequence[int]) -> None:
    """Delete the designations with these row ids, 500 to a statement."""
    for part in _chunks(list(ids)):
        conn.execute(delete(nis2_designations).where(nis2_designations.c.id.in_(part)))


def set_designation_reference(conn: Connection, pk: int, reference: str | None, now: datetime) -> None:
    conn.execute(
        update(nis2_designations)
        .where(nis2_designations.c.id == pk)
        .values(reference=reference, loaded_at=now)
    )


def insert_designations(conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
    conn.execute(nis2_designations.insert(), list(rows))


def company_keys(conn: Connection, company_ids: Iterable[int]) -> list[tuple[str, str]]:
    """`(country, national_id)` of these companies, in id order."""
    rows = conn.execute(select(c.country, c.national_id).where(c.id.in_(sorted(company_ids))).order_by(c.id))
    return [(r.country, r.national_id) for r in rows]


def company_ids_after(conn: Connection, after: int, limit: int, country: str | None = None) -> list[int]:
    """Up to `limit` company ids above `after` in id order (only `country`'s when given)."""
    stmt = select(c.id).where(c.id > after).order_by(c.id).limit(limit)
    if country:
        stmt = stmt.where(c.country == country)
    return list(conn.execute(stmt).scalars())


def assessment_counts(conn: Connection) -> dict[tuple[str, str], int]:
    a = nis2_assessments.c
    rows = conn.execute(select(a.country, a.category, func.count()).group_by(a.country, a.category))
    return {(country, category): int(n) for country, category, n in rows}


# Compiled once (db/prepared.py): the LEI record reads it on every call.
_STORED = Prepared(
    select(
        nis2_assessments.c.category,
        nis2_assessments.c.certainty,
        nis2_assessments.c.ruleset_version,
        nis2_assessments.c.computed_at,
    ).where(nis2_assessments.c.company_id == bindparam("company_id"))
)


def stored_assessment(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    """The company's stored assessment (written by sweeps and `nis2.refresh` jobs): one primary-key read."""
    return _STORED.first(conn, company_id=company_id)


def stored_assessment_read(company_id: int) -> Read:
    return (_STORED, {"company_id": company_id}, True)
