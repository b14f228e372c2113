"""Data access for search: company rows by id, identifier look-ups, addresses and people."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Integer, bindparam, func, or_, select
from sqlalchemy.engine import Connection

from regintel.db.prepared import Prepared
from regintel.db.schema import companies, identifiers, people, roles

Row = Mapping[str, Any]

SUMMARY = (
    companies.c.id,
    companies.c.country,
    companies.c.national_id,
    companies.c.name,
    companies.c.name_norm,
    companies.c.legal_form,
    companies.c.legal_form_name,
    companies.c.status,
    companies.c.street,
    companies.c.city,
    companies.c.postal_code,
    companies.c.address_text,
    companies.c.address_norm,
    companies.c.nace_primary,
    companies.c.vat_id,
    companies.c.tax_id,
    companies.c.lei,
    companies.c.founded_on,
    companies.c.in_bankruptcy,
    companies.c.in_restructuring,
    companies.c.in_liquidation,
)


# Every search answer reads its page's rows by id. Built as a SQLAlchemy select each time, that read
# cost about 400 µs of CPU for two rows (21 columns coerced, a cache key, the IN list expanded), more
# than the index query; as a `Prepared` select it is compiled once per list length. Lengths are
# rounded up to a power of two (the list padded with its last id), so at most ten plans exist.
_BY_IDS: dict[int, Prepared] = {}
_MOST_IDS = 512


def _by_ids(n: int) -> tuple[int, Prepared]:
    size = 1 << max(0, n - 1).bit_length()
    prepared = _BY_IDS.get(size)
    if prepared is None:
        ids = [bindparam(f"id{k}", type_=Integer) for k in range(size)]
        prepared = _BY_IDS[size] = Prepared(select(*SUMMARY).where(companies.c.id.in_(ids)))
    return size, prepared


def companies_by_ids(conn: Connection, ids: Sequence[int]) -> dict[int, Row]:
    out: dict[int, Row] = {}
    wanted = list(dict.fromkeys(int(i) for i in ids))
    for start in range(0, len(wanted), _MOST_IDS):
        chunk = wanted[start : start + _MOST_IDS]
        size, prepared = _by_ids(len(chunk))
        padded = chunk + chunk[-1:] * (size - len(chunk))
        for row in prepared.all(conn, **{f"id{k}": v for k, v in enumerate(padded)}):
            out[int(row["id"])] = row
    return out


LIGHT = (
    companies.c.id,
    companies.c.name_norm,
    companies.c.status,
    companies.c.country,
    companies.c.city,
    companies.c.address_norm,
)


def light_by_ids(conn: Connection, ids: Sequence[int]) -> list[Any]:
    """The few columns ranking needs, for many candidates (full rows are read for the top only)."""
    out: list[Any] = []
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), 900):
        out += conn.execute(select(*LIGHT).where(companies.c.id.in_(wanted[start : start + 900]))).all()
    return out


def companies_by_national_id(conn: Connection, pairs: Sequence[tuple[str, str]]) -> list[Row]:
    """Companies whose (country, national id) is one of `pairs`."""
    if not pairs:
        return []
    wanted = set(pairs)
    rows = conn.execute(select(*SUMMARY).where(companies.c.national_id.in_(sorted({p[1] for p in pairs}))))
    return [cast(Row, r) for r in rows.mappings() if (r["country"], r["national_id"]) in wanted]


def company_ids_by_identifier(conn: Connection, kinds: Sequence[str], value: str) -> list[int]:
    query = select(identifiers.c.company_id).where(
        identifiers.c.type.in_(list(kinds)), identifiers.c.value == value
    )
    return sorted({int(i) for i in conn.execute(query).scalars()})


def company_ids_by_column(conn: Connection, column: str, value: str) -> list[int]:
    col = companies.c[column]
    return [int(i) for i in conn.execute(select(companies.c.id).where(col == value).limit(50)).scalars()]


def companies_at_address(
    conn: Connection, address_norm: str, country: str | None, limit: int, offset: int
) -> tuple[list[Row], int]:
    where = [companies.c.address_norm == address_norm]
    if country:
        where.append(companies.c.country == country)
    total = int(conn.execute(select(func.count()).select_from(companies).where(*where)).scalar_one())
    rows = conn.execute(
        select(*SUMMARY)
        .where(*where)
        .order_by(companies.c.name_norm, companies.c.id)
        .limit(limit)
        .offset(offset)
    ).mappings()
    return [cast(Row, r) for r in rows], total


def address_counts(conn: Connection, address_norms: Sequence[str], country: str | None) -> dict[str, int]:
    if not address_norms:
        return {}
    query = (
        select(companies.c.address_norm, func.count())
        .where(companies.c.address_norm.in_(list(address_norms)))
        .group_by(companies.c.address_norm)
    )
    if country:
        query = query.where(companies.c.country == country)
    return {r[0]: int(r[1]) for r in conn.execute(query)}


def person_by_key(conn: Connection, key: str) -> Row | None:
    return cast(Row | None, conn.execute(select(people).where(people.c.person_key == key)).mappings().first())


def people_by_ids(conn: Connection, ids: Sequence[int]) -> dict[int, Row]:
    out: dict[int, Row] = {}
    for start in range(0, len(ids), 900):
        for row in conn.execute(
            select(people).where(people.c.id.in_(list(ids[start : start + 900])))
        ).mappings():
            out[int(row["id"])] = cast(Row, row)
    return out


def roles_of_people(conn: Connection, person_ids: Sequence[int], *, current_only: bool = False) -> list[Row]:
    """Roles of these people with the company each is held in."""
    if not person_ids:
        return []
    query = (
        select(
            roles.c.person_id,
            roles.c.role,
            roles.c.title,
            roles.c.share_pct,
            roles.c.voting_pct,
            roles.c.since,
            roles.c.until,
            roles.c.source,
            companies.c.country,
            companies.c.national_id,
            companies.c.name,
            companies.c.status,
            companies.c.in_bankruptcy,
        )
        .join(companies, companies.c.id == roles.c.company_id)
        .where(roles.c.person_id.in_(list(person_ids)))
        .order_by(roles.c.person_id, companies.c.name_norm, roles.c.role)
    )
    if current_only:
        query = query.where(or_(roles.c.until.is_(None), roles.c.until >= func.current_date()))
    return [cast(Row, r) for r in conn.execute(query).mappings()]
