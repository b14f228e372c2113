"""The regulatory area's SQL: entries and tags (write and read), and the Companies House PSC rows of the
`uk-psc` statistics feed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.sql import ColumnElement

from regintel.db.schema import companies, roles

from .tables import regulatory_entries as entries
from .tables import regulatory_entry_tags as entry_tags

Row = Mapping[str, Any]
PSC_SOURCE = "gb_psc"


@dataclass(frozen=True)
class Filters:
    source: str | None = None
    tag: str | None = None
    since: datetime | None = None
    q: str | None = None  # folded already
    until: datetime | None = None


# -- writing ---------------------------------------------------------------------------------------


def stored_hashes(conn: Connection, source: str, keys: Sequence[str]) -> dict[str, tuple[int, str]]:
    """entry_key → (id, content_hash) of the given keys already stored for `source`."""
    if not keys:
        return {}
    found = conn.execute(
        select(entries.c.entry_key, entries.c.id, entries.c.content_hash).where(
            entries.c.source == source, entries.c.entry_key.in_(keys)
        )
    )
    return {r.entry_key: (int(r.id), r.content_hash) for r in found}


def insert_entry(conn: Connection, row: dict[str, Any]) -> int:
    return int(conn.execute(entries.insert().values(row).returning(entries.c.id)).scalar_one())


def update_entry(conn: Connection, entry_id: int, row: dict[str, Any]) -> None:
    conn.execute(update(entries).where(entries.c.id == entry_id).values(row))


def replace_tags(conn: Connection, entry_id: int, tags: Sequence[str]) -> None:
    conn.execute(delete(entry_tags).where(entry_tags.c.entry_id == entry_id))
    if tags:
        conn.execute(entry_tags.insert(), [{"entry_id": entry_id, "tag": t} for t in tags])


def count_source(conn: Connection, source: str) -> int:
    return int(
        conn.execute(select(func.count()).select_from(entries).where(entries.c.source == source)).scalar_one()
    )


# -- reading ---------------------------------------------------------------------------------------


def _escape_like(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _where(f: Filters) -> list[ColumnElement[bool]]:
    out: list[ColumnElement[bool]] = []
    if f.source:
        out.append(entries.c.source == f.source)
    if f.since:
        out.append(entries.c.published_at >= f.since)
    if f.until:
        out.append(entries.c.published_at < f.until)
    if f.q:
        out.append(entries.c.search_text.like(f"%{_escape_like(f.q)}%", escape="\\"))
    if f.tag:
        out.append(entries.c.id.in_(select(entry_tags.c.entry_id).where(entry_tags.c.tag == f.tag)))
    return out


def list_entries(conn: Connection, f: Filters, limit: int) -> tuple[list[dict[str, Any]], int]:
    """The newest `limit` entries matching `f`, each with its tags, and how many match in all."""
    where = and_(*_where(f)) if _where(f) else None
    query = select(
        entries.c.id,
        entries.c.source,
        entries.c.guid,
        entries.c.title,
        entries.c.summary,
        entries.c.link,
        entries.c.language,
        entries.c.published_at,
        entries.c.updated_at,
        entries.c.first_seen_at,
    )
    total = select(func.count()).select_from(entries)
    if where is not None:
        query, total = query.where(where), total.where(where)
    rows = [
        dict(cast(Row, r))
        for r in conn.execute(
            query.order_by(entries.c.published_at.desc(), entries.c.id.desc()).limit(limit)
        ).mappings()
    ]
    tags = tags_of(conn, [r["id"] for r in rows])
    for r in rows:
        r["tags"] = tags.get(r["id"], [])
    return rows, int(conn.execute(total).scalar_one())


def tags_of(conn: Connection, ids: Sequence[int]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    if not ids:
        return out
    for r in conn.execute(
        select(entry_tags.c.entry_id, entry_tags.c.tag)
        .where(entry_tags.c.entry_id.in_(ids))
        .order_by(entry_tags.c.entry_id, entry_tags.c.tag)
    ):
        out.setdefault(int(r.entry_id), []).append(r.tag)
    return out


def per_source(conn: Connection) -> dict[str, dict[str, Any]]:
    """source → entries, first and last publication date."""
    query = select(
        entries.c.source,
        func.count().label("entries"),
        func.min(entries.c.published_at).label("first"),
        func.max(entries.c.published_at).label("last"),
    ).group_by(entries.c.source)
    return {
        r.source: {"entries": int(r.entries), "first": r.first, "last": r.last} for r in conn.execute(query)
    }


def top_tags(conn: Connection, limit: int) -> list[tuple[str, int]]:
    n = func.count().label("n")
    query = (
        select(entry_tags.c.tag, n)
        .group_by(entry_tags.c.tag)
        .order_by(n.desc(), entry_tags.c.tag)
        .limit(limit)
    )
    return [(r.tag, int(r.n)) for r in conn.execute(query)]


def tagged_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count(func.distinct(entry_tags.c.entry_id)))).scalar_one())


def newest_change(conn: Connection) -> datetime | None:
    """When the stored entries last changed (the feeds' Last-Modified)."""
    value = conn.execute(select(func.max(entries.c.retrieved_at))).scalar_one()
    return cast(datetime | None, value)


# -- uk-psc ----------------------------------------------------------------------------------------


def psc_rows(conn: Connection, active_only: bool, limit: int) -> tuple[list[dict[str, Any]], int]:
    """Companies House PSC entries (roles from `gb_psc`), newest notification first, with the company;
    natural persons' names are not read here (see `uk_psc`)."""
    holder = companies.alias("holder")
    where: list[ColumnElement[bool]] = [roles.c.source == PSC_SOURCE]
    if active_only:
        where.append(roles.c.until.is_(None))
    query = (
        select(
            companies.c.country,
            companies.c.national_id,
            companies.c.name.label("company_name"),
            roles.c.id,
            roles.c.role,
            roles.c.holder_name,
            roles.c.person_id,
            roles.c.share_pct,
            roles.c.voting_pct,
            roles.c.natures_of_control,
            roles.c.since,
            roles.c.until,
            holder.c.country.label("holder_country"),
            holder.c.national_id.label("holder_national_id"),
        )
        .select_from(
            roles.join(companies, companies.c.id == roles.c.company_id).outerjoin(
                holder, holder.c.id == roles.c.holder_company_id
            )
        )
        .where(*where)
        .order_by(roles.c.since.desc().nulls_last(), roles.c.id.desc())
        .limit(limit)
    )
    rows = [dict(cast(Row, r)) for r in conn.execute(query).mappings()]
    total = conn.execute(select(func.count()).select_from(roles).where(*where)).scalar_one()
    return rows, int(total)


def psc_totals(conn: Connection) -> dict[str, int]:
    """Entries, active entries, natural persons and UK companies with PSC data."""
    base = roles.c.source == PSC_SOURCE
    entries_n = conn.execute(select(func.count()).select_from(roles).where(base)).scalar_one()
    active_n = conn.execute(
        select(func.count()).select_from(roles).where(base, roles.c.until.is_(None))
    ).scalar_one()
    persons_n = conn.execute(
        select(func.count()).select_from(roles).where(base, roles.c.person_id.is_not(None))
    ).scalar_one()
    companies_n = conn.execute(select(func.count(func.distinct(roles.c.company_id))).where(base)).scalar_one()
    return {
        "entries": int(entries_n),
        "active": int(active_n),
        "natural_persons": int(persons_n),
        "companies": int(companies_n),
    }
