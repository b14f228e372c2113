"""Reading what the index holds from the database: company and people documents, in batches, and the
watermarks that tell whether an index has seen every change."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from regintel.db.schema import companies, people
from regintel.domain.name_query import name_form_keys, name_raw_forms
from regintel.search import rows as ranking

BATCH = 20_000
# How far behind the watermark a catch-up looks again: a batch that started before the watermark
# was read may commit after it (its rows carry the batch's start time).
OVERLAP_SECONDS = 300
# The `form` value of a legal form as the name writes it, beside its key: SAS and SASU share the key
# `sas`, and only this tells the names written as typed from hundreds of equal namesakes.
SPELLING = "as:"


@dataclass(frozen=True)
class CompanyDoc:
    id: int
    name: str
    address: str
    country: str
    active: bool
    # legal-form keys of the name, its forms as written (`as:sasu`) and `code:<legal_form>`
    forms: tuple[str, ...] = ()
    # what ranking reads of a candidate, kept in the index so that ranking reads no database row
    ranking: ranking.RankRow | None = None


@dataclass(frozen=True)
class PersonDoc:
    id: int
    name: str


@dataclass(frozen=True)
class Watermark:
    """The newest company change and the newest person an index has seen."""

    companies_at: str | None
    people_id: int

    def as_dict(self) -> dict[str, Any]:
        return {"companies_at": self.companies_at, "people_id": self.people_id}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Watermark:
        return cls(data.get("companies_at"), int(data.get("people_id") or 0))


def _company(row: Any, extras: tuple[float | None, int]) -> CompanyDoc:
    name = row.name or ""
    forms = (
        tuple(sorted(name_form_keys(name)))
        + tuple(f"{SPELLING}{raw}" for raw in sorted(name_raw_forms(name)))
        + ((f"code:{row.legal_form}",) if row.legal_form else ())
    )
    return CompanyDoc(
        int(row.id),
        row.name_norm or "",
        row.address_norm or "",
        row.country,
        row.status == "active",
        forms,
        ranking.rank_row(row, extras),
    )


def _documents(conn: Connection, found: list[Any], ranged: bool) -> list[CompanyDoc]:
    if not found:
        return []
    ids = [int(r.id) for r in found]
    extras = (
        ranking.extras_in_range(conn, ids[0], ids[-1]) if ranged else ranking.prominence_extras(conn, ids)
    )
    return [_company(r, extras.get(int(r.id), (None, 0))) for r in found]


def company_batches(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[list[CompanyDoc]]:
    """Every company (keyset over the id), or the given ids, `BATCH` documents at a time."""
    if ids is not None:
        wanted = sorted(set(ids))
        for start in range(0, len(wanted), 900):
            yield _documents(conn, ranking.ranking_rows(conn, wanted[start : start + 900]), ranged=False)
        return
    last = 0
    while True:
        found = conn.execute(
            select(*ranking.COLUMNS).where(companies.c.id > last).order_by(companies.c.id).limit(BATCH)
        ).all()
        if not found:
            return
        last = int(found[-1].id)
        yield _documents(conn, list(found), ranged=True)


def people_batches(conn: Connection, after_id: int = 0) -> Iterator[list[PersonDoc]]:
    last = after_id
    while True:
        rows = conn.execute(
            select(people.c.id, people.c.name_norm)
            .where(people.c.id > last)
            .order_by(people.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        last = int(rows[-1].id)
        yield [PersonDoc(int(r.id), r.name_norm or "") for r in rows]


def people_by_ids(conn: Connection, ids: Iterable[int]) -> list[PersonDoc]:
    wanted, out = sorted(set(ids)), []
    for start in range(0, len(wanted), 900):
        rows = conn.execute(
            select(people.c.id, people.c.name_norm).where(people.c.id.in_(wanted[start : start + 900]))
        ).all()
        out += [PersonDoc(int(r.id), r.name_norm or "") for r in rows]
    return out


def current_watermark(conn: Connection) -> Watermark:
    at = conn.execute(select(func.max(companies.c.updated_at))).scalar()
    pid = conn.execute(select(func.max(people.c.id))).scalar()
    return Watermark(_stamp(at), int(pid or 0))


def company_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(companies)).scalar_one())


def count_changed(conn: Connection, since: str | None) -> int:
    if since is None:
        return company_count(conn)
    query = (
        select(func.count())
        .select_from(companies)
        .where(companies.c.updated_at > datetime.fromisoformat(since))
    )
    return int(conn.execute(query).scalar_one())


def changed_company_ids(conn: Connection, since: str | None) -> list[int]:
    """Companies updated after `since` (all of them when None)."""
    query = select(companies.c.id)
    if since is not None:
        query = query.where(companies.c.updated_at > datetime.fromisoformat(since))
    return [int(i) for i in conn.execute(query).scalars()]


def _stamp(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):  # SQLite may hand back text for aggregates
        value = datetime.fromisoformat(value)
    return str(value.isoformat())


def overlap(stamp: str | None) -> str | None:
    """The watermark moved back by `OVERLAP_SECONDS`: where a catch-up starts looking."""
    if stamp is None:
        return None
    return (datetime.fromisoformat(stamp) - timedelta(seconds=OVERLAP_SECONDS)).isoformat()
