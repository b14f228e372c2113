"""The legal-records area's SQL, and only here. Rows come back as mappings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from sqlalchemy import Integer, Table, and_, column, func, or_, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.name_trigrams import MIN_TRIGRAM, trigram_query
from regintel.db.schema import companies, data_sources

from .tables import (
    antitrust_cases,
    antitrust_parties,
    court_decision_parties,
    court_decisions,
    ipkz_installations,
    sbirka_acts,
    sbirka_mentions,
)

Row = Mapping[str, Any]
TEXT_TABLE = "court_decisions_text"  # SQLite: FTS5 trigram table over court_decisions.search_text
_COMPANY = (
    companies.c.country.label("company_country"),
    companies.c.national_id.label("company_national_id"),
    companies.c.name.label("company_name"),
)


@dataclass(frozen=True)
class DecisionFilters:
    national_id: str | None = None  # a party's IČO
    company_id: int | None = None  # or the company it was linked to
    court_id: str | None = None  # the publisher's court id
    court_text: str | None = None  # or part of the folded court name
    date_from: date | None = None
    date_to: date | None = None
    text: str | None = None  # folded, searched in `search_text`


def _rows(conn: Connection, query: Any) -> list[Row]:
    return [cast(Row, r) for r in conn.execute(query).mappings()]


def _decision_where(f: DecisionFilters, dialect: str) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = []
    d, p = court_decisions.c, court_decision_parties.c
    if f.national_id is not None or f.company_id is not None:
        who = [p.national_id == f.national_id] if f.national_id is not None else []
        if f.company_id is not None:
            who.append(p.company_id == f.company_id)
        # IN, not EXISTS: the parties' indexes give the few decisions, instead of probing every decision.
        where.append(d.id.in_(select(p.decision_pk).where(or_(*who))))
    if f.court_id or f.court_text:
        where.append(
            or_(d.court_id == f.court_id, d.court_norm.contains(f.court_text or "", autoescape=True))
        )
    if f.date_from:
        where.append(d.decided_on >= f.date_from)
    if f.date_to:
        where.append(d.decided_on <= f.date_to)
    if f.text:
        where.extend(_text_where(f.text, dialect))
    return where


def _text_where(words: str, dialect: str) -> list[ColumnElement[bool]]:
    """`search_text` holds `words` (folded) as a substring. On SQLite the trigram table (migration
    0022_legal_records_text_index) names the candidates holding every trigram of the words, and the
    substring test runs on those only; PostgreSQL's pg_trgm index serves the test itself. Words shorter
    than a trigram are tested on every decision."""
    test = court_decisions.c.search_text.contains(words, autoescape=True)
    if dialect != "sqlite" or len(words) < MIN_TRIGRAM:
        return [test]
    candidates = (
        text(f"SELECT rowid FROM {TEXT_TABLE} WHERE {TEXT_TABLE} MATCH :decision_words")
        .bindparams(decision_words=trigram_query(words))
        .columns(column("rowid", Integer))
    )
    return [court_decisions.c.id.in_(candidates), test]


def company_id(conn: Connection, country: str, national_id: str) -> int | None:
    found = conn.execute(
        select(companies.c.id).where(companies.c.country == country, companies.c.national_id == national_id)
    ).first()
    return int(found[0]) if found else None


def decisions(conn: Connection, f: DecisionFilters, offset: int, limit: int) -> tuple[int, list[Row]]:
    where = _decision_where(f, conn.dialect.name)
    total = int(conn.execute(select(func.count()).select_from(court_decisions).where(*where)).scalar_one())
    if total <= offset:
        return total, []
    query = (
        select(court_decisions)
        .where(*where)
        .order_by(court_decisions.c.decided_on.desc().nulls_last(), court_decisions.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return total, _rows(conn, query)


def decision(conn: Connection, guid: str) -> Row | None:
    return cast(
        Row | None,
        conn.execute(select(court_decisions).where(court_decisions.c.guid == guid)).mappings().first(),
    )


def _parties(conn: Connection, table: Table, fk: str, pks: Sequence[int]) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = {pk: [] for pk in pks}
    if not pks:
        return out
    query = (
        select(table, *_COMPANY)
        .select_from(table.outerjoin(companies, companies.c.id == table.c.company_id))
        .where(table.c[fk].in_(list(pks)))
        .order_by(table.c[fk], table.c.position)
    )
    for row in _rows(conn, query):
        out[int(row[fk])].append(row)
    return out


def decision_parties(conn: Connection, pks: Sequence[int]) -> dict[int, list[Row]]:
    return _parties(conn, court_decision_parties, "decision_pk", pks)


def _names(
    company: Row, company_id: Any, national_id: Any, country: Any, source_country: str | None = None
) -> ColumnElement[bool]:
    """Rows linked to the company, or naming its national id (rows imported before the company was)."""
    same = [company_id == company["id"]]
    if source_country is None:
        same.append(and_(country == company["country"], national_id == company["national_id"]))
    elif source_country == company["country"]:
        same.append(national_id == company["national_id"])
    return or_(*same)


def company_cases(conn: Connection, company: Row, limit: int) -> list[Row]:
    p = antitrust_parties.c
    linked = select(p.case_pk).where(_names(company, p.company_id, p.national_id, p.country))
    return _rows(
        conn,
        select(antitrust_cases)
        .where(antitrust_cases.c.id.in_(linked))
        .order_by(antitrust_cases.c.decided_on.desc().nulls_last(), antitrust_cases.c.id.desc())
        .limit(limit),
    )


def case_parties(conn: Connection, pks: Sequence[int]) -> dict[int, list[Row]]:
    return _parties(conn, antitrust_parties, "case_pk", pks)


def company_party_addresses(conn: Connection, company: Row, limit: int) -> list[Row]:
    """The addresses antitrust decisions give for this company (no coordinates: the source has none)."""
    p = antitrust_parties.c
    return _rows(
        conn,
        select(
            p.name,
            p.address,
            p.national_id,
            p.company_id,
            p.match_method,
            p.match_score,
            antitrust_cases.c.case_ref,
            antitrust_cases.c.source,
        )
        .select_from(antitrust_parties.join(antitrust_cases, antitrust_cases.c.id == p.case_pk))
        .where(_names(company, p.company_id, p.national_id, p.country), p.address.is_not(None))
        .order_by(antitrust_cases.c.decided_on.desc().nulls_last(), p.case_pk)
        .limit(limit),
    )


def company_installations(conn: Connection, company: Row, limit: int) -> list[Row]:
    i = ipkz_installations.c
    return _rows(
        conn,
        select(ipkz_installations)
        .where(_names(company, i.company_id, i.operator_national_id, None, "SK"))
        .order_by(ipkz_installations.c.installation_id)
        .limit(limit),
    )


def company_acts(conn: Connection, company: Row, limit: int) -> list[Row]:
    m, a = sbirka_mentions.c, sbirka_acts.c
    query = (
        select(
            sbirka_acts,
            m.name.label("mention_name"),
            m.national_id.label("mention_national_id"),
            m.excerpt,
            m.company_id,
            m.match_method,
            m.match_score,
        )
        .select_from(sbirka_mentions.join(sbirka_acts, a.id == m.act_pk))
        .where(_names(company, m.company_id, m.national_id, None, "CZ"))
        .order_by(a.promulgated_on.desc().nulls_last(), a.id.desc())
        .limit(limit)
    )
    return _rows(conn, query)


def catalogue(conn: Connection, source_ids: Sequence[str]) -> dict[str, Row]:
    if not source_ids:
        return {}
    rows = _rows(
        conn,
        select(data_sources.c.id, data_sources.c.licence, data_sources.c.attribution).where(
            data_sources.c.id.in_(sorted(set(source_ids)))
        ),
    )
    return {str(r["id"]): r for r in rows}


def recent_cases(conn: Connection, limit: int) -> list[Row]:
    """The newest antitrust cases with the first linked party's company (stats feed `amo-cases`)."""
    c, p, all_parties = antitrust_cases.c, antitrust_parties.c, antitrust_parties.alias("all_parties")
    first = (
        select(p.case_pk, func.min(p.position).label("position"))
        .where(p.company_id.is_not(None))
        .group_by(p.case_pk)
        .subquery()
    )
    query = (
        select(
            c.case_ref,
            c.kind,
            c.title,
            c.decided_on,
            c.final_on,
            c.fine,
            c.currency,
            c.link,
            companies.c.country,
            companies.c.national_id,
            companies.c.name,
            select(func.count())
            .select_from(all_parties)
            .where(all_parties.c.case_pk == c.id)
            .scalar_subquery()
            .label("parties"),
        )
        .select_from(
            antitrust_cases.outerjoin(first, first.c.case_pk == c.id)
            .outerjoin(antitrust_parties, and_(p.case_pk == first.c.case_pk, p.position == first.c.position))
            .outerjoin(companies, companies.c.id == p.company_id)
        )
        .order_by(c.decided_on.desc().nulls_last(), c.id.desc())
        .limit(limit)
    )
    return _rows(conn, query)


def ipkz_companies(conn: Connection, limit: int) -> list[Row]:
    """Companies operating IPKZ installations, most installations first (stats feed `ipkz-companies`)."""
    i = ipkz_installations.c
    query = (
        select(
            companies.c.country,
            companies.c.national_id,
            companies.c.name,
            func.count().label("installations"),
            func.sum(i.inspections).label("inspections"),
            func.sum(i.inspections_with_findings).label("inspections_with_findings"),
            func.max(i.last_inspection_on).label("last_inspection_on"),
        )
        .select_from(ipkz_installations.join(companies, companies.c.id == i.company_id))
        .group_by(companies.c.id, companies.c.country, companies.c.national_id, companies.c.name)
        .order_by(func.count().desc(), companies.c.national_id)
        .limit(limit)
    )
    return _rows(conn, query)
