"""What ranking reads of candidate companies: the few columns every candidate needs (name, legal
form, country, town, status, size, age), and for the namesakes that tie at the top the latest
revenue and the number of sources (prominence, `domain.matching.Prominence`).

The tantivy index keeps all of it beside each document (`RankRow`), so that a search there reads no
database row until the final page; the other backends read it here, from the database."""

from __future__ import annotations

import json
import typing
from collections.abc import Sequence
from dataclasses import astuple, dataclass
from typing import Any

import orjson
from sqlalchemy import Integer, cast, func, null, select, union_all
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.db.schema import companies, company_sources, financial_statements
from regintel.search.base import Filters, QueryWords, RanksFromIndex, SearchBackend

COLUMNS = (
    companies.c.id,
    companies.c.name,
    companies.c.name_norm,
    companies.c.legal_form,
    companies.c.status,
    companies.c.country,
    companies.c.city,
    companies.c.address_norm,
    companies.c.employees,
    companies.c.founded_on,
)
CHUNK = 900

Extras = tuple[float | None, int]  # revenue of the latest statement, number of sources


@dataclass(frozen=True, slots=True)
class RankRow:
    """A candidate as ranking reads it, with the same attribute names as a row of `COLUMNS`, and its
    prominence extras (which the database path reads only for namesakes that tie)."""

    id: int
    name: str | None
    name_norm: str | None
    legal_form: str | None
    status: str | None
    country: str
    city: str | None
    address_norm: str | None
    employees: int | None
    founded_on: str | None  # ISO date, as `Prominence` takes it
    revenue: float | None
    sources: int

    def encode(self) -> bytes:
        return json.dumps(astuple(self), separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def decode(cls, data: bytes) -> RankRow:
        # orjson: every candidate of every search is decoded here; the stdlib's parser was a tenth
        # of an autocomplete's CPU on the demo data
        return cls(*orjson.loads(data))


def rank_row(row: Any, extras: Extras) -> RankRow:
    """A database row of `COLUMNS` and its extras as the index keeps them."""
    founded = row.founded_on
    return RankRow(
        int(row.id),
        row.name,
        row.name_norm,
        row.legal_form,
        row.status,
        row.country,
        row.city,
        row.address_norm,
        None if row.employees is None else int(row.employees),
        founded.isoformat() if hasattr(founded, "isoformat") else founded,
        extras[0],
        extras[1],
    )


def candidates(
    conn: Connection,
    backend: SearchBackend,
    query: QueryWords,
    filters: Filters,
    limit: int,
    skip: frozenset[int] = frozenset(),
    from_index: bool = True,
) -> list[Any]:
    """Company candidates with what ranking reads of them, in id order, leaving out `skip`: from the
    index where it keeps them (no database read), from the database otherwise."""
    # not `isinstance`: against a runtime-checkable Protocol it inspects the members on every call
    if from_index and hasattr(backend, "candidate_rows"):
        found = typing.cast(RanksFromIndex, backend).candidate_rows(conn, query, filters, limit)
        if found is not None:
            first: dict[int, RankRow] = {}
            for r in found:
                if r.id not in skip:
                    first.setdefault(r.id, r)
            return [first[i] for i in sorted(first)]
    ids = backend.candidates(conn, "companies", query, filters, limit)
    return ranking_rows(conn, [i for i in ids if i not in skip])


def ranking_rows(conn: Connection, ids: Sequence[int]) -> list[Any]:
    out: list[Any] = []
    wanted = list(dict.fromkeys(ids))
    for start in range(0, len(wanted), CHUNK):
        out += conn.execute(select(*COLUMNS).where(companies.c.id.in_(wanted[start : start + CHUNK]))).all()
    return out


def extras_of(conn: Connection, found: Sequence[Any]) -> dict[int, Extras]:
    """Revenue and sources of these candidates: carried by index rows, read for database rows."""
    out = {r.id: (r.revenue, r.sources) for r in found if isinstance(r, RankRow)}
    missing = [int(r.id) for r in found if not isinstance(r, RankRow)]
    return out | (prominence_extras(conn, missing) if missing else {})


def prominence_extras(conn: Connection, ids: Sequence[int]) -> dict[int, Extras]:
    """Company id -> (revenue of its latest statement, number of sources), in one statement."""
    wanted = list(dict.fromkeys(ids))
    out: dict[int, Extras] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        out |= _extras(
            conn, financial_statements.c.company_id.in_(chunk), company_sources.c.company_id.in_(chunk)
        )
    return {cid: out.get(cid, (None, 0)) for cid in wanted}


def extras_in_range(conn: Connection, first: int, last: int) -> dict[int, Extras]:
    """The same for every company with an id from `first` to `last` (an index rebuild's batch)."""
    fs, cs = financial_statements.c, company_sources.c
    return _extras(conn, fs.company_id.between(first, last), cs.company_id.between(first, last))


def _extras(
    conn: Connection, statements_of: ColumnElement[bool], sources_of: ColumnElement[bool]
) -> dict[int, Extras]:
    """One row per company: the revenue of its latest year's statement (of two registers' statements
    for that year the larger, so that the answer does not depend on the order rows come back in), or
    its number of sources; grouped in the database, since a rebuild reads every company's."""
    fs, cs = financial_statements.c, company_sources.c
    latest = (
        select(fs.company_id, func.max(fs.year).label("year"))
        .where(statements_of, fs.revenue.is_not(None))
        .group_by(fs.company_id)
        .subquery()
    )
    revenue = (
        select(fs.company_id, func.max(fs.revenue), cast(null(), Integer).label("n"))
        .join(latest, (latest.c.company_id == fs.company_id) & (latest.c.year == fs.year))
        .where(fs.revenue.is_not(None))
        .group_by(fs.company_id)
    )
    counted = (
        select(cs.company_id, cast(null(), fs.revenue.type), func.count())
        .where(sources_of)
        .group_by(cs.company_id)
    )
    amounts: dict[int, float] = {}
    sources: dict[int, int] = {}
    for cid, amount, count in conn.execute(union_all(revenue, counted)):
        if count is not None:
            sources[int(cid)] = int(count)
        else:
            amounts[int(cid)] = float(amount)
    return {cid: (amounts.get(cid), sources.get(cid, 0)) for cid in amounts.keys() | sources.keys()}
