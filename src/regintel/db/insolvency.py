"""Reading insolvency events: gazette notices (`insolvency_events`) and the flag flips the register
sources write to the change log (the only insolvency data there is for countries without a gazette
source, spec 1: the Czech side is "derived only from a register denormalised field")."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Integer, desc, func, select, true
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.sql import Select

from regintel.db.schema import companies, company_changes, data_sources, insolvency_events

FLAG_OF = {
    "bankruptcy": "in_bankruptcy",
    "restructuring": "in_restructuring",
    "liquidation": "in_liquidation",
}


def list_company_events(conn: Connection, company_id: int) -> list[RowMapping]:
    query = select(insolvency_events).where(insolvency_events.c.company_id == company_id)
    return list(conn.execute(query).mappings())


def _gazette_sources() -> Any:
    """Sources whose flips come with their notices (category `insolvency`): counted once, as notices."""
    return select(data_sources.c.id).where(data_sources.c.category == "insolvency")


def _notices(types: Sequence[str], phases: Sequence[str], country: str | None) -> Select[Any]:
    query = (
        select(insolvency_events, companies.c.name, companies.c.national_id)
        .join(companies, companies.c.id == insolvency_events.c.company_id)
        .where(insolvency_events.c.event_type.in_(types), insolvency_events.c.phase.in_(phases))
    )
    return query.where(insolvency_events.c.country == country) if country else query


def _flips(types: Sequence[str], phases: Sequence[str], country: str | None) -> Select[Any]:
    values = [v for phase, v in (("start", "true"), ("end", "false")) if phase in phases]
    query = (
        select(company_changes, companies.c.name, companies.c.national_id, companies.c.country)
        .join(companies, companies.c.id == company_changes.c.company_id)
        .where(
            company_changes.c.field.in_([FLAG_OF[t] for t in types]),
            company_changes.c.new_value.in_(values),
            company_changes.c.source.not_in(_gazette_sources()),
        )
    )
    return query.where(companies.c.country == country) if country else query


def list_recent_notices(
    conn: Connection, types: Sequence[str], phases: Sequence[str], country: str | None, limit: int
) -> list[RowMapping]:
    query = (
        _notices(types, phases, country)
        .order_by(desc(insolvency_events.c.event_date), desc(insolvency_events.c.id))
        .limit(limit)
    )
    return list(conn.execute(query).mappings())


def list_recent_flips(
    conn: Connection, types: Sequence[str], phases: Sequence[str], country: str | None, limit: int
) -> list[RowMapping]:
    """Flag flips written by register sources, newest first (the change-log id orders detection)."""
    query = _flips(types, phases, country).order_by(desc(company_changes.c.id)).limit(limit)
    return list(conn.execute(query).mappings())


def monthly_notice_counts(
    conn: Connection, types: Sequence[str], country: str | None, since: date
) -> list[tuple[str, int, int, str, str, int]]:
    """(country, year, month, event type, phase, count) of the notices dated `since` or later."""
    year = func.extract("year", insolvency_events.c.event_date).cast(Integer)
    month = func.extract("month", insolvency_events.c.event_date).cast(Integer)
    query = (
        select(
            insolvency_events.c.country,
            year,
            month,
            insolvency_events.c.event_type,
            insolvency_events.c.phase,
            func.count(),
        )
        .where(insolvency_events.c.event_type.in_(types), insolvency_events.c.event_date >= since)
        .group_by(
            insolvency_events.c.country,
            year,
            month,
            insolvency_events.c.event_type,
            insolvency_events.c.phase,
        )
    )
    if country:
        query = query.where(insolvency_events.c.country == country)
    return [tuple(row) for row in conn.execute(query)]


def monthly_flip_counts(
    conn: Connection, types: Sequence[str], country: str | None, since: datetime
) -> list[tuple[str, int, int, str, str, int]]:
    """The same for the register sources' flag flips, by the month they were detected."""
    year = func.extract("year", company_changes.c.detected_at).cast(Integer)
    month = func.extract("month", company_changes.c.detected_at).cast(Integer)
    query = (
        _flips(types, ("start", "end"), country)
        .with_only_columns(
            companies.c.country,
            year,
            month,
            company_changes.c.field,
            company_changes.c.new_value,
            func.count(),
        )
        .where(company_changes.c.detected_at >= since)
        .group_by(companies.c.country, year, month, company_changes.c.field, company_changes.c.new_value)
    )
    kinds = {flag: kind for kind, flag in FLAG_OF.items()}
    return [
        (cc, y, m, kinds[f], "start" if v == "true" else "end", n)
        for cc, y, m, f, v, n in conn.execute(query)
    ]


def current_counts(conn: Connection, types: Sequence[str], country: str | None) -> list[tuple[str, str, int]]:
    """(country, event type, companies now flagged) for each type, from the companies' flags."""
    out: list[tuple[str, str, int]] = []
    for kind in types:
        query = (
            select(companies.c.country, func.count())
            .where(companies.c[FLAG_OF[kind]] == true())
            .group_by(companies.c.country)
        )
        if country:
            query = query.where(companies.c.country == country)
        out += [(cc, kind, n) for cc, n in conn.execute(query)]
    return out


def source_attributions(conn: Connection, sources: Sequence[str]) -> list[RowMapping]:
    query = select(
        data_sources.c.id,
        data_sources.c.name,
        data_sources.c.attribution,
        data_sources.c.licence,
        data_sources.c.url,
    ).where(data_sources.c.id.in_(sorted(set(sources))))
    return list(conn.execute(query.order_by(data_sources.c.id)).mappings())
