"""The legal-records area's SQL, and only here: the reads of the answers, the import's writes, the relink
and the withholding of a party (`privacy.py`). Rows come back as mappings."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

from sqlalchemy import (
    Integer,
    Table,
    and_,
    column,
    delete,
    func,
    inspect,
    literal,
    or_,
    select,
    table,
    text,
    update,
)
from sqlalchemy.engine import Connection, RowMapping
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.name_trigrams import MIN_TRIGRAM, trigram_query
from regintel.db.relink import Found, relink_rows
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


# -- the import (importing.py, loading.py) -------------------------------------------------------------------


def source_rows(conn: Connection, table: Table, source_id: str) -> int:
    """The records of a source in one of the area's tables (the catalogue's `row_count`)."""
    return int(
        conn.execute(select(func.count()).select_from(table).where(table.c.source == source_id)).scalar_one()
    )


def stored_hash(conn: Connection, table: Table, match: Mapping[str, Any]) -> tuple[int, str | None] | None:
    """(id, record_hash) of the record of `table` whose columns equal `match`."""
    row = conn.execute(select(table.c.id, table.c.record_hash).where(*_equal(table, match))).first()
    return None if row is None else (int(row.id), row.record_hash)


def insert_record(conn: Connection, table: Table, values: Mapping[str, Any]) -> int:
    return int(conn.execute(table.insert().values(**values).returning(table.c.id)).scalar_one())


def insert_rows(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> None:
    conn.execute(table.insert(), list(rows))


def update_matching(
    conn: Connection, table: Table, match: Mapping[str, Any], values: Mapping[str, Any]
) -> int:
    """Set `values` on the rows of `table` whose columns equal `match`; returns how many."""
    return int(conn.execute(update(table).where(*_equal(table, match)).values(values)).rowcount)


def delete_matching(conn: Connection, table: Table, match: Mapping[str, Any]) -> None:
    conn.execute(delete(table).where(*_equal(table, match)))


def _equal(table: Table, match: Mapping[str, Any]) -> list[ColumnElement[bool]]:
    return [table.c[k] == v for k, v in match.items()]


# -- relinking after a company import (relink.py) ------------------------------------------------------------

LinkRow = Callable[[RowMapping], Found | None]


def relink_court_parties(
    conn: Connection, link: LinkRow, by_id: LinkRow, country: str | None
) -> tuple[int, int, int]:
    d = court_decision_parties.c
    return relink_rows(
        conn,
        court_decision_parties,
        [d.decision_pk, d.position],
        [d.name, d.national_id, d.country],
        link,
        d.country == country if country else None,
        by_identifier=by_id,
    )


def relink_antitrust_parties(
    conn: Connection, link: LinkRow, by_id: LinkRow, country: str | None
) -> tuple[int, int, int]:
    a = antitrust_parties.c
    return relink_rows(
        conn,
        antitrust_parties,
        [a.case_pk, a.position],
        [a.name, a.national_id, a.country, a.address],
        link,
        a.country == country if country else None,
        by_identifier=by_id,
    )


def relink_ipkz_operators(conn: Connection, link: LinkRow, by_id: LinkRow) -> tuple[int, int, int]:
    """The IPKZ register's operators, read as parties of Slovakia."""
    i = ipkz_installations.c
    return relink_rows(
        conn,
        ipkz_installations,
        [i.id],
        [
            i.operator_name.label("name"),
            i.operator_national_id.label("national_id"),
            literal("SK").label("country"),
            i.operator_address.label("address"),
        ],
        link,
        by_identifier=by_id,
    )


def relink_sbirka_mentions(conn: Connection, link: LinkRow) -> tuple[int, int, int]:
    """The mentions that name an IČO."""
    m = sbirka_mentions.c
    return relink_rows(
        conn,
        sbirka_mentions,
        [m.act_pk, m.position],
        [m.name, m.national_id],
        link,
        m.national_id.is_not(None),
    )


# -- withholding a party (privacy.py) ------------------------------------------------------------------------

# The accounts area's suppression tables, named rather than imported (the area's own tables stay its
# own): the keys withheld, and the rows kept as they were, in the one format both areas read.
_suppressions = table("privacy_person_suppressions", column("person_key"))
_kept_rows = table(
    "privacy_withheld_rows", column("person_key"), column("table_name"), column("row_id"), column("data")
)


def suppressed_keys(conn: Connection, prefix: str) -> frozenset[str]:
    """The suppressed person keys starting with `prefix` (none while the accounts area's table is missing)."""
    if not inspect(conn).has_table("privacy_person_suppressions"):
        return frozenset()
    return frozenset(
        conn.execute(
            select(_suppressions.c.person_key).where(_suppressions.c.person_key.startswith(prefix))
        ).scalars()
    )


def names_with_keys(
    conn: Connection, table: Table, keys: Sequence[str], name: str, skip: str, record_id: int | None
) -> list[tuple[Any, ...]]:
    """(the `keys` columns..., the `name` column) of the rows of `table` whose name is not `skip`, only of
    the record `record_id` (the first key) when given."""
    query = select(*(table.c[k] for k in keys), table.c[name]).where(table.c[name] != skip)
    if record_id is not None:
        query = query.where(table.c[keys[0]] == record_id)
    return [tuple(r) for r in conn.execute(query)]


def rows_matching(conn: Connection, table: Table, match: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Whole rows of `table` whose columns equal `match` (plain str keys: a column name may be a str
    subclass)."""
    rows = conn.execute(select(table).where(*_equal(table, match))).mappings()
    return [{str(k): v for k, v in r.items()} for r in rows]


def row_by_id(conn: Connection, table: Table, row_id: int) -> Row | None:
    return cast("Row | None", conn.execute(select(table).where(table.c.id == row_id)).mappings().first())


def column_of_record(conn: Connection, table: Table, fk: str, value_column: str, record_id: int) -> list[Any]:
    """The `value_column` of the rows of `table` whose `fk` is `record_id`."""
    query = select(table.c[value_column]).where(table.c[fk] == record_id)
    return list(conn.execute(query).scalars())


def insert_kept(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Rows kept as they were (`person_key`, `table_name`, `row_id`, `data`)."""
    conn.execute(_kept_rows.insert(), list(rows))


def drop_kept(conn: Connection, prefix: str, table_names: Collection[str], row_id: int) -> None:
    """What was kept, under keys starting with `prefix`, of the row `row_id` of these tables."""
    conn.execute(
        delete(_kept_rows).where(
            _kept_rows.c.person_key.startswith(prefix),
            _kept_rows.c.table_name.in_(list(table_names)),
            _kept_rows.c.row_id == row_id,
        )
    )
