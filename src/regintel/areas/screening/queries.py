"""SQL of the screening area: list and entry writes, the index load, hit details, company subjects."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import DateTime, and_, bindparam, delete, func, insert, literal, or_, select, update
from sqlalchemy.engine import Connection

from regintel.areas.screening.tables import (
    company_sanction_hits,
    company_screenings,
    sanction_birth_dates,
    sanction_countries,
    sanction_entries,
    sanction_identifiers,
    sanction_lists,
    sanction_names,
    sanction_programmes,
)
from regintel.db.prepared import Prepared, Read
from regintel.db.schema import companies, company_changes, data_sources, ownerships, people, roles

CHILDREN = (
    sanction_names,
    sanction_identifiers,
    sanction_birth_dates,
    sanction_countries,
    sanction_programmes,
)
se = sanction_entries.c


def data_version(conn: Connection) -> tuple[Any, ...]:
    """Changes whenever any list's entries change (or a database is swapped under the process)."""
    row = conn.execute(
        select(
            func.count(),
            func.coalesce(func.sum(sanction_lists.c.version), 0),
            func.max(sanction_lists.c.changed_at),
        )
    ).one()
    return tuple(row)


def list_row(conn: Connection, list_id: str) -> dict[str, Any] | None:
    row = conn.execute(select(sanction_lists).where(sanction_lists.c.id == list_id)).mappings().first()
    return dict(row) if row is not None else None


# The reads of a single company's screening state run on every LEI record, company record and score, so
# they are compiled once (db/prepared.py): through SQLAlchemy's execution they were most of the LEI
# record's cost once screening joined the credit score.
_LISTS = Prepared(select(sanction_lists).order_by(sanction_lists.c.id))


def all_lists(conn: Connection) -> list[dict[str, Any]]:
    return _LISTS.all(conn)


def existing_entries(conn: Connection, list_id: str) -> dict[str, tuple[int, str]]:
    rows = conn.execute(select(se.entry_key, se.id, se.content_hash).where(se.list_id == list_id))
    return {key: (int(id_), digest) for key, id_, digest in rows}


def insert_entries(conn: Connection, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Insert entry rows of one list; returns their ids by entry key."""
    if not rows:
        return {}
    conn.execute(insert(sanction_entries), list(rows))
    keys = [r["entry_key"] for r in rows]
    found: dict[str, int] = {}
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        found.update(
            (k, int(i))
            for k, i in conn.execute(
                select(se.entry_key, se.id).where(se.list_id == rows[0]["list_id"], se.entry_key.in_(chunk))
            )
        )
    return found


def update_entry(conn: Connection, entry_id: int, values: dict[str, Any]) -> None:
    conn.execute(update(sanction_entries).where(se.id == entry_id).values(**values))


def delete_children(conn: Connection, entry_ids: Sequence[int]) -> None:
    for start in range(0, len(entry_ids), 500):
        chunk = list(entry_ids[start : start + 500])
        for table in CHILDREN:
            conn.execute(delete(table).where(table.c.entry_id.in_(chunk)))


def delete_entries(conn: Connection, entry_ids: Sequence[int]) -> None:
    delete_children(conn, entry_ids)
    for start in range(0, len(entry_ids), 500):
        chunk = list(entry_ids[start : start + 500])
        conn.execute(delete(company_sanction_hits).where(company_sanction_hits.c.entry_id.in_(chunk)))
        conn.execute(delete(sanction_entries).where(se.id.in_(chunk)))


def insert_children(conn: Connection, rows: Mapping[Any, list[dict[str, Any]]]) -> None:
    for table in CHILDREN:
        batch = rows.get(table.name) or []
        for start in range(0, len(batch), 5000):
            conn.execute(insert(table), batch[start : start + 5000])


def upsert_list(conn: Connection, list_id: str, values: dict[str, Any]) -> None:
    if list_row(conn, list_id) is None:
        conn.execute(insert(sanction_lists).values(id=list_id, **values))
    else:
        conn.execute(update(sanction_lists).where(sanction_lists.c.id == list_id).values(**values))


def count_entries(conn: Connection, list_id: str) -> int:
    return int(conn.execute(select(func.count()).where(se.list_id == list_id)).scalar_one())


def record_catalogue_import(
    conn: Connection, source_id: str, row_count: int, now: datetime, last_run: dict[str, Any]
) -> None:
    """The list's catalogue entry after an import: its row count, last import time and last run."""
    conn.execute(
        update(data_sources)
        .where(data_sources.c.id == source_id)
        .values(row_count=row_count, last_import_at=now, last_run=last_run)
    )


def index_rows(conn: Connection) -> dict[str, Sequence[Any]]:
    """Everything the in-memory index needs, one query a table."""
    return {
        "entries": conn.execute(select(se.id, se.schema)).all(),
        "names": conn.execute(
            select(
                sanction_names.c.entry_id,
                sanction_names.c.name,
                sanction_names.c.name_norm,
                sanction_names.c.kind,
            )
        ).all(),
        "countries": conn.execute(select(sanction_countries.c.entry_id, sanction_countries.c.country)).all(),
        "dates": conn.execute(
            select(sanction_birth_dates.c.entry_id, sanction_birth_dates.c.birth_date)
        ).all(),
        "ids": conn.execute(select(sanction_identifiers.c.entry_id, sanction_identifiers.c.value_norm)).all(),
    }


def entry_details(conn: Connection, entry_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Listed entries with their list, names, programmes, countries, birth dates and identifiers."""
    if not entry_ids:
        return {}
    ids = list(entry_ids)
    out: dict[int, dict[str, Any]] = {}
    query = (
        select(sanction_entries, sanction_lists.c.name.label("list_name"), sanction_lists.c.mode)
        .join(sanction_lists, sanction_lists.c.id == se.list_id)
        .where(se.id.in_(ids))
    )
    for row in conn.execute(query).mappings():
        out[int(row["id"])] = dict(row) | {
            "names": [],
            "programmes": [],
            "countries": [],
            "birth_dates": [],
            "identifiers": [],
        }
    children: Iterable[tuple[str, Any, Any]] = (
        ("names", sanction_names, (sanction_names.c.name, sanction_names.c.kind)),
        ("programmes", sanction_programmes, (sanction_programmes.c.programme,)),
        ("countries", sanction_countries, (sanction_countries.c.country, sanction_countries.c.role)),
        ("birth_dates", sanction_birth_dates, (sanction_birth_dates.c.birth_date,)),
        (
            "identifiers",
            sanction_identifiers,
            (sanction_identifiers.c.id_type, sanction_identifiers.c.value, sanction_identifiers.c.country),
        ),
    )
    for key, table, cols in children:
        for child in conn.execute(
            select(table.c.entry_id, *cols)
            .where(table.c.entry_id.in_(ids))
            .order_by(table.c.entry_id, table.c.id)
        ):
            if int(child[0]) in out:
                out[int(child[0])][key].append(tuple(child[1:]))
    return out


def company_subjects(conn: Connection, company_id: int, today: date) -> list[dict[str, Any]]:
    """The company's current officers and owners (roles) and its parent companies (ownerships)."""
    holder = companies.alias("holder")
    current = or_(roles.c.until.is_(None), roles.c.until >= today)
    rows = conn.execute(
        select(
            roles.c.role,
            roles.c.holder_name,
            roles.c.person_id,
            roles.c.holder_company_id,
            people.c.birth_date,
            people.c.nationality,
            holder.c.country.label("holder_country"),
        )
        .select_from(
            roles.outerjoin(people, people.c.id == roles.c.person_id).outerjoin(
                holder, holder.c.id == roles.c.holder_company_id
            )
        )
        .where(roles.c.company_id == company_id, current)
        .order_by(roles.c.id)
    ).mappings()
    out = [dict(r) for r in rows]
    parents = conn.execute(
        select(
            literal("parent_company").label("role"),
            companies.c.name.label("holder_name"),
            companies.c.id.label("holder_company_id"),
            companies.c.country.label("holder_country"),
        )
        .select_from(ownerships.join(companies, companies.c.id == ownerships.c.parent_id))
        .where(
            ownerships.c.child_id == company_id,
            or_(ownerships.c.until.is_(None), ownerships.c.until >= today),
        )
    ).mappings()
    out += [dict(r) | {"person_id": None, "birth_date": None, "nationality": None} for r in parents]
    return out


def replace_company_hits(
    conn: Connection, company_ids: Sequence[int], rows: Sequence[dict[str, Any]]
) -> None:
    for start in range(0, len(company_ids), 500):
        chunk = list(company_ids[start : start + 500])
        conn.execute(delete(company_sanction_hits).where(company_sanction_hits.c.company_id.in_(chunk)))
    if rows:
        conn.execute(insert(company_sanction_hits), list(rows))


def company_batch(conn: Connection, after_id: int, size: int) -> list[dict[str, Any]]:
    c = companies.c
    return [
        dict(r)
        for r in conn.execute(
            select(c.id, c.name, c.country, c.national_id, c.lei, c.vat_id)
            .where(c.id > after_id)
            .order_by(c.id)
            .limit(size)
        ).mappings()
    ]


def roles_of_companies(conn: Connection, company_ids: Sequence[int], today: date) -> list[dict[str, Any]]:
    current = or_(roles.c.until.is_(None), roles.c.until >= today)
    return [
        dict(r)
        for r in conn.execute(
            select(roles.c.company_id, roles.c.role, roles.c.holder_name, roles.c.person_id).where(
                roles.c.company_id.in_(list(company_ids)), current
            )
        ).mappings()
    ]


def sanctioned_companies(conn: Connection, topic: str | None, limit: int) -> tuple[list[dict[str, Any]], int]:
    """Companies with precomputed hits (`topic` sanction / debarment, or any), best score first."""
    h = company_sanction_hits.c
    cond = [h.entry_id == se.id]
    if topic:
        cond.append(se.topics.like(f"%{topic}%"))
    best = (
        select(h.company_id, func.max(h.score).label("score"), func.count().label("hits"))
        .select_from(company_sanction_hits.join(sanction_entries, and_(*cond)))
        .group_by(h.company_id)
        .subquery()
    )
    total = int(conn.execute(select(func.count()).select_from(best)).scalar_one())
    c = companies.c
    rows = conn.execute(
        select(c.id, c.country, c.national_id, c.name, best.c.score, best.c.hits)
        .join(best, best.c.company_id == c.id)
        .order_by(best.c.score.desc(), c.id)
        .limit(limit)
    ).mappings()
    return [dict(r) for r in rows], total


def hits_of_companies(
    conn: Connection, company_ids: Sequence[int], topic: str | None
) -> list[dict[str, Any]]:
    h = company_sanction_hits.c
    query = (
        select(
            h.company_id,
            h.subject,
            h.subject_name,
            h.natural_person,
            h.score,
            se.list_id,
            se.entry_key,
            se.caption,
            se.topics,
        )
        .join(sanction_entries, se.id == h.entry_id)
        .where(h.company_id.in_(list(company_ids)))
        .order_by(h.company_id, h.score.desc(), h.id)
    )
    if topic:
        query = query.where(se.topics.like(f"%{topic}%"))
    return [dict(r) for r in conn.execute(query).mappings()]


_h = company_sanction_hits.c
_HITS_OF_COMPANY = Prepared(
    select(_h.subject, _h.natural_person, _h.score, _h.features, se.topics)
    .join(sanction_entries, se.id == _h.entry_id)
    .where(_h.company_id == bindparam("company_id"))
)
_SCREENING_OF_COMPANY = Prepared(
    select(
        company_screenings.c.company_id,
        company_screenings.c.screened_at,
        company_screenings.c.list_versions,
        company_screenings.c.algorithm,
        company_screenings.c.threshold,
    ).where(company_screenings.c.company_id == bindparam("company_id"))
)
_LISTED_HITS_OF_COMPANY = Prepared(
    select(_h.company_id, _h.subject, _h.score, _h.features, se.list_id, se.entry_key, se.topics)
    .join(sanction_entries, se.id == _h.entry_id)
    .where(_h.company_id == bindparam("company_id"))
    .order_by(_h.company_id, _h.score.desc(), _h.id)
)


def company_reads(company_id: int) -> list[Read]:
    """The reads that the hit summary and the screening state of one company make (`read_ahead`)."""
    key = {"company_id": company_id}
    return [
        (_LISTS, {}, False),
        (_HITS_OF_COMPANY, key, False),
        (_SCREENING_OF_COMPANY, key, True),
        (_LISTED_HITS_OF_COMPANY, key, False),
    ]


def hit_rows_of_company(conn: Connection, company_id: int) -> list[dict[str, Any]]:
    return _HITS_OF_COMPANY.all(conn, company_id=company_id)


def replace_screenings(conn: Connection, company_ids: Sequence[int], row: Mapping[str, Any]) -> None:
    """Record that the companies were screened now (`row`: time, list versions, algorithm, threshold)."""
    for start in range(0, len(company_ids), 500):
        chunk = list(company_ids[start : start + 500])
        conn.execute(delete(company_screenings).where(company_screenings.c.company_id.in_(chunk)))
    if company_ids:
        conn.execute(insert(company_screenings), [dict(row, company_id=i) for i in company_ids])


def screenings_of(conn: Connection, company_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    if len(company_ids) == 1:
        row = _SCREENING_OF_COMPANY.first(conn, company_id=int(company_ids[0]))
        return {} if row is None else {int(row["company_id"]): row}
    s = company_screenings.c
    rows = conn.execute(
        select(s.company_id, s.screened_at, s.list_versions, s.algorithm, s.threshold).where(
            s.company_id.in_(list(company_ids))
        )
    ).mappings()
    return {int(r["company_id"]): dict(r) for r in rows}


def hit_rows_of_companies(conn: Connection, company_ids: Sequence[int]) -> list[dict[str, Any]]:
    if len(company_ids) == 1:
        return _LISTED_HITS_OF_COMPANY.all(conn, company_id=int(company_ids[0]))
    h = company_sanction_hits.c
    return [
        dict(r)
        for r in conn.execute(
            select(h.company_id, h.subject, h.score, h.features, se.list_id, se.entry_key, se.topics)
            .join(sanction_entries, se.id == h.entry_id)
            .where(h.company_id.in_(list(company_ids)))
            .order_by(h.company_id, h.score.desc(), h.id)
        ).mappings()
    ]


def last_change_id(conn: Connection) -> int:
    return int(conn.execute(select(func.coalesce(func.max(company_changes.c.id), 0))).scalar_one())


def changed_companies(
    conn: Connection, after_change: int, through_change: int, fields: Iterable[str]
) -> dict[int, datetime]:
    """The companies with a change row of `fields` in (after_change, through_change], each with the time of
    its latest such change (a range of the primary key)."""
    ch = company_changes.c
    rows = conn.execute(
        select(ch.company_id, func.max(ch.detected_at))
        .where(ch.id > after_change, ch.id <= through_change, ch.field.in_(sorted(fields)))
        .group_by(ch.company_id)
    )
    return {int(company_id): at for company_id, at in rows}


def companies_by_id(conn: Connection, company_ids: Sequence[int]) -> list[dict[str, Any]]:
    c = companies.c
    return [
        dict(r)
        for r in conn.execute(
            select(c.id, c.name, c.country, c.national_id, c.lei, c.vat_id)
            .where(c.id.in_(list(company_ids)))
            .order_by(c.id)
        ).mappings()
    ]


# -- withholding a natural person's hits (privacy.py) --------------------------------------------------------


def take_person_hits(conn: Connection, company_ids: Sequence[int], names: set[str]) -> list[dict[str, Any]]:
    """Delete the natural-person hits of these companies under any of these names; returns the rows as
    they were, in id order."""
    h = company_sanction_hits.c
    where = (
        h.company_id.in_(list(company_ids)),
        h.natural_person.is_(True),
        h.subject_name.in_(sorted(names)),
    )
    rows = [
        {str(k): v for k, v in r.items()}
        for r in conn.execute(select(company_sanction_hits).where(*where).order_by(h.id)).mappings()
    ]
    if rows:
        conn.execute(delete(company_sanction_hits).where(*where))
    return rows


def entry_exists(conn: Connection, entry_id: int) -> bool:
    return conn.execute(select(se.id).where(se.id == entry_id)).first() is not None


def hit_exists(conn: Connection, hit: Mapping[str, Any]) -> bool:
    """Whether the company has a hit of the same entry, subject and subject name as `hit`."""
    h = company_sanction_hits.c
    same = (
        h.company_id == hit["company_id"],
        h.entry_id == hit["entry_id"],
        h.subject == hit["subject"],
        h.subject_name == hit["subject_name"],
    )
    return conn.execute(select(h.id).where(*same)).first() is not None


def insert_kept_hit(conn: Connection, hit: Mapping[str, Any]) -> None:
    """Insert a hit kept as JSON, under a new id."""
    conn.execute(company_sanction_hits.insert().values(_typed(hit)))


def _typed(row: Mapping[str, Any]) -> dict[str, Any]:
    """A kept hit's values in the column types (kept as JSON, the time came back as text)."""
    out = {}
    for name, value in row.items():
        if name == "id":
            continue
        if isinstance(value, str) and isinstance(company_sanction_hits.c[name].type, DateTime):
            value = datetime.fromisoformat(value)
        out[name] = value
    return out
