"""All SQL of the scores area."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, and_, bindparam, delete, false, func, insert, or_, select
from sqlalchemy.engine import Connection

from regintel.areas.scores.tables import peer_benchmarks, score_disputes
from regintel.db.prepared import Prepared, Read, run_together
from regintel.db.schema import (
    NACE_DIGITS,
    companies,
    data_sources,
    financial_statements,
    insolvency_events,
    latest_financials,
)
from regintel.db.sql_hints import Common

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.

FIGURES = (
    latest_financials.c.currency,
    latest_financials.c.revenue,
    latest_financials.c.profit,
    latest_financials.c.total_assets,
    latest_financials.c.equity,
    latest_financials.c.liabilities,
    latest_financials.c.employees.label("statement_employees"),
)


# The reads of every score (the company's statements and its dated insolvency notices) are compiled once
# and, on PostgreSQL, sent in one round trip (`run_together`).
_STATEMENTS = Prepared(
    select(financial_statements)
    .where(financial_statements.c.company_id == bindparam("company_id"))
    .order_by(financial_statements.c.year, financial_statements.c.id)
)
_EVENTS = Prepared(
    select(
        insolvency_events.c.event_type,
        insolvency_events.c.phase,
        insolvency_events.c.event_date,
        insolvency_events.c.source,
    )
    .where(insolvency_events.c.company_id == bindparam("company_id"))
    .order_by(insolvency_events.c.event_date, insolvency_events.c.id)
)


def list_statements(conn: Connection, company_id: int) -> list[dict[str, Any]]:
    return _STATEMENTS.all(conn, company_id=company_id)


def list_insolvency_events(conn: Connection, company_id: int) -> list[dict[str, Any]]:
    return _EVENTS.all(conn, company_id=company_id)


def company_reads(company_id: int) -> list[Read]:
    """The company's statements and insolvency notices, as the scores read them (`read_ahead`)."""
    params = {"company_id": company_id}
    return [(_STATEMENTS, params, False), (_EVENTS, params, False)]


def statements_and_events(
    conn: Connection, company_id: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    statements, events = run_together(conn, company_reads(company_id))
    return statements, events


def statements_and_events_of(
    conn: Connection, company_ids: Sequence[int]
) -> tuple[dict[int, list[dict[str, Any]]], dict[int, list[dict[str, Any]]]]:
    """The statements and insolvency notices of several companies (two reads by the company indexes), in the
    order `statements_and_events` gives for one."""
    statements: dict[int, list[dict[str, Any]]] = {int(i): [] for i in company_ids}
    events: dict[int, list[dict[str, Any]]] = {int(i): [] for i in company_ids}
    ids = sorted(statements)
    fs, ie = financial_statements, insolvency_events
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        for r in conn.execute(
            select(fs).where(fs.c.company_id.in_(chunk)).order_by(fs.c.company_id, fs.c.year, fs.c.id)
        ).mappings():
            statements[int(r["company_id"])].append(dict(r))
        for r in conn.execute(
            select(ie.c.company_id, ie.c.event_type, ie.c.phase, ie.c.event_date, ie.c.source)
            .where(ie.c.company_id.in_(chunk))
            .order_by(ie.c.company_id, ie.c.event_date, ie.c.id)
        ).mappings():
            events[int(r["company_id"])].append(dict(r))
    return statements, events


def peer_rows(
    conn: Connection, country: str, nace_range: tuple[str, str], currency: str
) -> list[Mapping[str, Any]]:
    """Active companies of one country in a NACE digit range with a latest statement in `currency`
    (the NACE index narrows by code and country; each company's statement is read by its key)."""
    c = companies
    stmt = (
        select(c.c.id, c.c.size_class, c.c.employees, *FIGURES)
        .join(latest_financials, latest_financials.c.company_id == c.c.id)
        .where(
            NACE_DIGITS >= nace_range[0],
            NACE_DIGITS < nace_range[1],
            Common(c.c.country == country),
            Common(c.c.status == "active"),
            latest_financials.c.currency == currency,
        )
    )
    rows = list(conn.execute(stmt).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def iter_peer_population(conn: Connection, digits: int, batch: int = 10_000) -> Iterator[Mapping[str, Any]]:
    """Every active company with a NACE code and a latest statement, ordered by (country, the first
    `digits` digits of its NACE code, currency): the benchmark refresh reads one group after another."""
    c = companies
    group = func.substr(NACE_DIGITS, 1, digits)
    stmt = (
        select(c.c.id, c.c.country, group.label("nace"), c.c.size_class, c.c.employees, *FIGURES)
        .join(latest_financials, latest_financials.c.company_id == c.c.id)
        .where(c.c.status == "active", func.length(NACE_DIGITS) >= digits)
        .order_by(c.c.country, group, latest_financials.c.currency)
    )
    result = conn.execution_options(stream_results=True, yield_per=batch).execute(stmt)
    yield from cast("Iterator[Mapping[str, Any]]", result.mappings())


def latest_statement(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    lf = latest_financials
    item = conn.execute(select(lf.c.year, *FIGURES).where(lf.c.company_id == company_id)).mappings().first()
    return cast("Mapping[str, Any] | None", item)


def similar_candidates(
    conn: Connection,
    nace_range: tuple[str, str],
    country: str | None,
    region: str | None,
    size: ColumnElement[bool],
    limit: int,
) -> list[Mapping[str, Any]]:
    """Active companies in a NACE digit range (of one country or region) that pass the `size` test,
    neither in bankruptcy nor in liquidation (no longer competing)."""
    c = companies
    # A country, the active status and a size span hold many rows: the NACE range leads (its index
    # carries the country and the status).
    cond = [
        NACE_DIGITS >= nace_range[0],
        NACE_DIGITS < nace_range[1],
        Common(c.c.status == "active"),
        Common(size.self_group()),  # parenthesised: Common renders the bare clause on PostgreSQL
        c.c.in_bankruptcy == false(),
        c.c.in_liquidation == false(),
    ]
    if country is not None:
        cond.append(Common(c.c.country == country))
    if region is not None:
        cond.append(c.c.nuts3 == region)
    stmt = (
        select(
            c.c.id,
            c.c.country,
            c.c.national_id,
            c.c.name,
            c.c.nace_primary,
            c.c.nuts3,
            c.c.city,
            c.c.employees,
            latest_financials.c.year,
            *FIGURES,
        )
        .outerjoin(latest_financials, latest_financials.c.company_id == c.c.id)
        .where(and_(*cond))
        .limit(limit)
    )
    rows = list(conn.execute(stmt).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def revenue_between(bounds: Mapping[str, tuple[float, float]]) -> ColumnElement[bool]:
    """Latest revenue within per-currency bounds (the same euro range in each currency)."""
    lf = latest_financials
    return or_(
        *(
            and_(lf.c.currency == cur, lf.c.revenue >= lo, lf.c.revenue <= hi)
            for cur, (lo, hi) in sorted(bounds.items())
        )
    )


def employees_between(lo: int, hi: int) -> ColumnElement[bool]:
    return companies.c.employees.between(lo, hi)


def insert_dispute(conn: Connection, values: Mapping[str, Any]) -> Mapping[str, Any]:
    item = (
        conn.execute(insert(score_disputes).values(dict(values)).returning(*score_disputes.c))
        .mappings()
        .one()
    )
    return cast("Mapping[str, Any]", item)


def find_benchmarks(
    conn: Connection, level: str, nace: str, country: str, size_class: str, currency: str
) -> list[Mapping[str, Any]]:
    pb = peer_benchmarks
    stmt = select(pb).where(
        pb.c.level == level,
        pb.c.nace == nace,
        pb.c.country == country,
        pb.c.size_class == size_class,
        pb.c.currency == currency,
    )
    rows = list(conn.execute(stmt).mappings())
    return cast("list[Mapping[str, Any]]", rows)


def benchmarks_computed_at(conn: Connection) -> datetime | None:
    return conn.execute(select(peer_benchmarks.c.computed_at).limit(1)).scalar()


def replace_benchmarks(conn: Connection, rows: Sequence[Mapping[str, Any]], batch: int = 2_000) -> None:
    conn.execute(delete(peer_benchmarks))
    for i in range(0, len(rows), batch):
        conn.execute(insert(peer_benchmarks), list(rows[i : i + batch]))


def list_sources(conn: Connection, ids: Sequence[str]) -> list[Mapping[str, Any]]:
    """The catalogue entries (name, publisher, licence) of the sources an answer cites."""
    ds = data_sources
    stmt = (
        select(ds.c.id, ds.c.name, ds.c.publisher, ds.c.licence, ds.c.licence_url)
        .where(ds.c.id.in_(sorted(set(ids))))
        .order_by(ds.c.id)
    )
    rows = list(conn.execute(stmt).mappings())
    return cast("list[Mapping[str, Any]]", rows)
