"""All SQL of the ownership area: roles, ownership edges, people, LEI relationships and reporting
exceptions, read in batches of ids (one statement per level of a walk, not one per node)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import Any, TypedDict, cast

from sqlalchemy import ColumnElement, Select, and_, or_, select, union
from sqlalchemy.engine import Connection

from regintel.db.schema import (
    companies,
    data_sources,
    lei_records,
    lei_relationships,
    lei_reporting_exceptions,
    ownerships,
    people,
    roles,
)

Row = Mapping[str, Any]
CHUNK = 900  # bound parameters per IN list: safe on SQLite's oldest limit, one round trip on PostgreSQL
OWNER_ROLES = ("shareholder", "beneficial_owner")


class Window(TypedDict):
    """Which roles and ownerships a read returns: ended ones too, or those current on `today`."""

    include_ended: bool
    today: date


_holder = companies.alias("holder")
_owned = companies.alias("owned")
_parent = companies.alias("parent")
_child = companies.alias("child")
COMPANY_FIELDS = ("id", "country", "national_id", "name", "status", "lei")


def _labelled(alias: Any, prefix: str) -> list[Any]:
    return [alias.c[f].label(f"{prefix}_{f}") for f in COMPANY_FIELDS]


def company_of(row: Row, prefix: str) -> dict[str, Any]:
    """The company columns a query joined under `prefix` (`company`, `parent`, `child`)."""
    return {f: row[f"{prefix}_{f}"] for f in COMPANY_FIELDS}


_ROLE_COLUMNS = (
    roles.c.id,
    roles.c.company_id,
    roles.c.role,
    roles.c.holder_key,
    roles.c.person_id,
    roles.c.holder_company_id,
    roles.c.holder_name,
    roles.c.title,
    roles.c.share_pct,
    roles.c.voting_pct,
    roles.c.natures_of_control,
    roles.c.since,
    roles.c.until,
    roles.c.source,
    roles.c.holder_name_norm,
    roles.c.holder_reg_country,
    roles.c.holder_reg_number,
    people.c.person_key,
    people.c.name.label("person_name"),
    people.c.birth_date,
    people.c.nationality,
    people.c.country_of_residence,
    _holder.c.country.label("holder_country"),
    _holder.c.national_id.label("holder_national_id"),
    _holder.c.name.label("holder_company_name"),
    _holder.c.status.label("holder_status"),
    *_labelled(_owned, "company")[1:],  # its id is the role's `company_id`
)
COMPANY_COLUMNS = (
    companies.c.id,
    companies.c.country,
    companies.c.national_id,
    companies.c.name,
    companies.c.status,
    companies.c.lei,
)


def _chunks(ids: Iterable[Any]) -> Iterator[list[Any]]:
    items = sorted(set(ids))
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def _current(until: Any, include_ended: bool, today: date) -> ColumnElement[bool] | None:
    return None if include_ended else or_(until.is_(None), until >= today)


def _roles_select(where: ColumnElement[bool], include_ended: bool, today: date) -> Select[Any]:
    query = (
        select(*_ROLE_COLUMNS)
        .outerjoin(people, people.c.id == roles.c.person_id)
        .outerjoin(_holder, _holder.c.id == roles.c.holder_company_id)
        .join(_owned, _owned.c.id == roles.c.company_id)
        .where(where)
    )
    current = _current(roles.c.until, include_ended, today)
    return query if current is None else query.where(current)


def _run(conn: Connection, make: Any, ids: Iterable[Any]) -> list[Row]:
    out: list[Row] = []
    for chunk in _chunks(ids):
        out.extend(cast(Sequence[Row], conn.execute(make(chunk)).mappings().all()))
    return out


def roles_in(
    conn: Connection,
    company_ids: Iterable[int],
    *,
    include_ended: bool,
    today: date,
    only: Sequence[str] | None = None,
) -> list[Row]:
    """The roles held in these companies (officers, shareholders, owners), with holder person/company."""

    def make(chunk: list[int]) -> Select[Any]:
        where: ColumnElement[bool] = roles.c.company_id.in_(chunk)
        if only:
            where = and_(where, roles.c.role.in_(list(only)))
        return _roles_select(where, include_ended, today).order_by(
            roles.c.company_id, roles.c.role, roles.c.holder_name, roles.c.id
        )

    return _run(conn, make, company_ids)


def roles_naming_company(
    conn: Connection, source: str, country: str, national_id: str, name_norm: str | None
) -> list[Row]:
    """Roles of `source` (ended ones too) whose holder, known only by name, has this normalised name,
    or this register number in this country: the candidates `psc_match.decide` weighs."""
    found = and_(roles.c.holder_reg_number == national_id, roles.c.holder_reg_country == country)
    if name_norm:
        found = or_(found, roles.c.holder_name_norm == name_norm)
    query = _roles_select(and_(found, roles.c.source == source), True, date.min)
    return cast(list[Row], conn.execute(query.order_by(roles.c.company_id, roles.c.id)).mappings().all())


def roles_of_people(
    conn: Connection, person_ids: Iterable[int], *, include_ended: bool, today: date
) -> list[Row]:
    return _run(
        conn,
        lambda chunk: _roles_select(roles.c.person_id.in_(chunk), include_ended, today).order_by(
            roles.c.person_id, roles.c.company_id, roles.c.role
        ),
        person_ids,
    )


def roles_held_by_companies(
    conn: Connection, company_ids: Iterable[int], *, include_ended: bool, today: date
) -> list[Row]:
    """Roles that these companies hold in other companies (a shareholder, a corporate PSC)."""
    return _run(
        conn,
        lambda chunk: _roles_select(roles.c.holder_company_id.in_(chunk), include_ended, today).order_by(
            roles.c.holder_company_id, roles.c.company_id
        ),
        company_ids,
    )


def _ownerships(where: ColumnElement[bool], include_ended: bool, today: date) -> Select[Any]:
    """Edges with both companies' columns (`parent_*`, `child_*`): no second read for the companies."""
    query = (
        select(ownerships, *_labelled(_parent, "parent")[1:], *_labelled(_child, "child")[1:])
        .join(_parent, _parent.c.id == ownerships.c.parent_id)
        .join(_child, _child.c.id == ownerships.c.child_id)
        .where(where)
    )
    current = _current(ownerships.c.until, include_ended, today)
    return query if current is None else query.where(current)


def ownerships_into(
    conn: Connection,
    company_ids: Iterable[int],
    *,
    include_ended: bool,
    today: date,
    kinds: Sequence[str] = ("direct",),
) -> list[Row]:
    return _run(
        conn,
        lambda chunk: _ownerships(
            and_(ownerships.c.child_id.in_(chunk), ownerships.c.kind.in_(list(kinds))), include_ended, today
        ).order_by(ownerships.c.child_id, ownerships.c.parent_id),
        company_ids,
    )


def ownerships_from(
    conn: Connection, company_ids: Iterable[int], *, include_ended: bool, today: date
) -> list[Row]:
    return _run(
        conn,
        lambda chunk: _ownerships(
            and_(ownerships.c.parent_id.in_(chunk), ownerships.c.kind == "direct"), include_ended, today
        ).order_by(ownerships.c.parent_id, ownerships.c.child_id),
        company_ids,
    )


def companies_by_id(conn: Connection, ids: Iterable[int]) -> dict[int, Row]:
    rows = _run(conn, lambda chunk: select(*COMPANY_COLUMNS).where(companies.c.id.in_(chunk)), ids)
    return {int(r["id"]): r for r in rows}


def people_by_id(conn: Connection, ids: Iterable[int]) -> dict[int, Row]:
    rows = _run(conn, lambda chunk: select(people).where(people.c.id.in_(chunk)), ids)
    return {int(r["id"]): r for r in rows}


def people_named(conn: Connection, names_norm: Iterable[str], source: str) -> list[Row]:
    """People first recorded by `source` whose normalised name is one of these."""
    return _run(
        conn,
        lambda chunk: (
            select(people)
            .where(people.c.name_norm.in_(chunk), people.c.source == source)
            .order_by(people.c.id)
        ),
        names_norm,
    )


def leis_of(conn: Connection, company_ids: Iterable[int]) -> dict[int, set[str]]:
    """Company id -> its LEIs (the company row's own and the LEI records linked to it)."""

    def make(chunk: list[int]) -> Any:
        own = select(companies.c.id.label("company_id"), companies.c.lei).where(
            companies.c.id.in_(chunk), companies.c.lei.is_not(None)
        )
        linked = select(lei_records.c.company_id, lei_records.c.lei).where(
            lei_records.c.company_id.in_(chunk)
        )
        return union(own, linked)  # one statement, one round trip

    out: dict[int, set[str]] = {}
    for r in _run(conn, make, company_ids):
        out.setdefault(int(r["company_id"]), set()).add(r["lei"])
    return out


def reporting_exceptions(conn: Connection, leis: Iterable[str]) -> list[Row]:
    return _run(
        conn,
        lambda chunk: (
            select(lei_reporting_exceptions)
            .where(lei_reporting_exceptions.c.lei.in_(chunk))
            .order_by(lei_reporting_exceptions.c.lei, lei_reporting_exceptions.c.category)
        ),
        leis,
    )


def lei_parents(conn: Connection, leis: Iterable[str]) -> list[Row]:
    """GLEIF relationships in which these LEIs are the child, with the parent's LEI record if held."""
    return _lei_related(conn, leis, "parent")


def lei_children(conn: Connection, leis: Iterable[str]) -> list[Row]:
    """GLEIF relationships in which these LEIs are the parent, with the child's LEI record if held."""
    return _lei_related(conn, leis, "child")


def _lei_related(conn: Connection, leis: Iterable[str], side: str) -> list[Row]:
    """The relationships whose other end is `side` (`parent` or `child`), that end's record labelled
    `<side>_country`, `<side>_jurisdiction`, `<side>_company_id`."""
    other = lei_relationships.c[f"{side}_lei"]
    ours = lei_relationships.c["child_lei" if side == "parent" else "parent_lei"]

    def make(chunk: list[str]) -> Select[Any]:
        return (
            select(
                lei_relationships,
                lei_records.c.legal_name,
                lei_records.c.country.label(f"{side}_country"),
                lei_records.c.jurisdiction.label(f"{side}_jurisdiction"),
                lei_records.c.company_id.label(f"{side}_company_id"),
            )
            .outerjoin(lei_records, lei_records.c.lei == other)
            .where(ours.in_(chunk))
            .order_by(ours, lei_relationships.c.kind, other)
        )

    return _run(conn, make, leis)


def source_catalogue(conn: Connection) -> dict[str, Row]:
    """Source id -> name, licence and publisher (the catalogue is small: one row per source)."""
    rows = conn.execute(
        select(
            data_sources.c.id,
            data_sources.c.name,
            data_sources.c.licence,
            data_sources.c.licence_url,
            data_sources.c.publisher,
        )
    ).mappings()
    return {r["id"]: cast(Row, r) for r in rows}
