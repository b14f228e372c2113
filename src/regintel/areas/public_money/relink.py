"""Relinking after a company import (docs/public-money.md, "Relinking"): records stored without a company
are resolved again, by the same `Linker` and threshold as at import, once new companies exist.

`relink_rows` is the loop every area's relink uses (funds and legal_records call it): the rows of a table
whose `company_id` is empty, in primary-key order, one transaction per chunk, so a long pass keeps what it
has done and never holds the database for long. Other areas may call `relink_rows`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, ColumnElement, Engine, Table, and_, or_, select, true, tuple_, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.domain.public_money import LINK_BY_NAME, LinkDecision, Org
from regintel.search.base import SearchBackend

from .linking import Linker
from .loading import TED_SOURCES
from .tables import contracts, ted_buyers, ted_notices, ted_winners, vat_payers

CHUNK = 1_000


@dataclass(frozen=True)
class Found:
    """A link the relink writes: any area's link decision reduced to its three columns."""

    company_id: int
    method: str
    score: float


def relink_rows(
    conn: Connection,
    table: Table,
    pk: Sequence[Column[Any]],
    columns: Sequence[ColumnElement[Any]],
    link: Callable[[RowMapping], Found | None],
    where: ColumnElement[bool] | None = None,
    chunk: int = CHUNK,
    by_identifier: Callable[[RowMapping], Found | None] | None = None,
) -> tuple[int, int, int]:
    """(rows looked at, rows linked, rows relinked) of `table`: its unlinked rows that satisfy `where` are
    resolved by `link`; then, with `by_identifier`, its rows linked by name are resolved again by
    identifier alone (`by_identifier` must not try names), and an identifier match replaces the name
    match: a company holding the record's national id arrived after the record was linked by name to
    another company (or to the same one, under a number the record did not match then)."""
    scope = where if where is not None else true()
    seen, linked = _pass(conn, table, pk, columns, link, and_(table.c.company_id.is_(None), scope), chunk)
    relinked = 0
    if by_identifier is not None:

        def better(row: RowMapping) -> Found | None:
            found = by_identifier(row)
            return found if found is not None and found.method != LINK_BY_NAME else None

        more, relinked = _pass(
            conn, table, pk, columns, better, and_(table.c.match_method == LINK_BY_NAME, scope), chunk
        )
        seen += more
    return seen, linked, relinked


def _pass(
    conn: Connection,
    table: Table,
    pk: Sequence[Column[Any]],
    columns: Sequence[ColumnElement[Any]],
    link: Callable[[RowMapping], Found | None],
    condition: ColumnElement[bool],
    chunk: int,
) -> tuple[int, int]:
    """(rows looked at, rows written): the rows matching `condition` in primary-key order, one transaction
    per chunk, so a long pass keeps what it has done and never holds the database for long."""
    seen = written = 0
    last: tuple[Any, ...] | None = None
    while True:
        query = select(*pk, *columns).where(condition).order_by(*pk).limit(chunk)
        if last is not None:
            query = query.where(tuple_(*pk) > tuple_(*last))
        with conn.begin():
            rows = [r._mapping for r in conn.execute(query)]
            for row in rows:
                found = link(row)
                if found is None:
                    continue
                conn.execute(
                    update(table)
                    .where(*(c == row[c.name] for c in pk))
                    .values(company_id=found.company_id, match_method=found.method, match_score=found.score)
                )
                written += 1
        seen += len(rows)
        if len(rows) < chunk:
            return seen, written
        last = tuple(rows[-1][c.name] for c in pk)


def _found(decision: LinkDecision | None) -> Found | None:
    if decision is None or decision.company_id is None or decision.method is None:
        return None
    return Found(decision.company_id, decision.method, float(decision.score or 1.0))


def relink(engine: Engine, backend: SearchBackend | None, country: str | None = None) -> dict[str, Any]:
    """Resolve this area's unlinked parties again (only those of `country` when given)."""
    result: dict[str, tuple[int, int, int]] = {}
    with engine.connect().execution_options(sqlite_immediate=True) as conn:
        linker = Linker(conn, backend)

        def org_link(row: RowMapping) -> Found | None:
            org = Org(
                ref="",
                name=row["name"],
                country=row["country"],
                national_id=row["national_id"],
                city=row["city"],
            )
            return _found(linker.link(org))

        def org_by_id(row: RowMapping) -> Found | None:
            return _found(linker.by_national_id(row["country"], row["national_id"]))

        for table in (ted_winners, ted_buyers):
            where = table.c.country == country if country else None
            result[table.name] = relink_rows(
                conn,
                table,
                list(table.primary_key.columns),
                [table.c.name, table.c.country, table.c.national_id, table.c.city],
                org_link,
                where,
                by_identifier=org_by_id,
            )

        def contract_link(row: RowMapping) -> Found | None:
            city = None
            if row["source"] in TED_SOURCES:  # the winner's city, as the import had it
                city = conn.execute(
                    select(ted_winners.c.city)
                    .join(ted_notices, ted_notices.c.id == ted_winners.c.notice_pk)
                    .where(
                        ted_notices.c.notice_id == row["record_key"],
                        ted_winners.c.lot_id + ":" + ted_winners.c.org_ref == row["party_ref"],
                    )
                ).scalar()
            org = Org(
                ref=row["party_ref"],
                name=row["party_name"],
                country=row["party_country"],
                national_id=row["party_national_id"],
                city=city,
            )
            # The Czech and Slovak registers' IČO is authoritative, as at import (docs/public-money.md).
            return _found(linker.link(org, id_is_authoritative=row["source"] not in TED_SOURCES))

        c = contracts.c
        result["contracts"] = relink_rows(
            conn,
            contracts,
            [c.id],
            [c.source, c.record_key, c.party_ref, c.party_name, c.party_country, c.party_national_id],
            contract_link,
            c.party_country == country if country else None,
            by_identifier=lambda row: _found(
                linker.by_national_id(row["party_country"], row["party_national_id"])
            ),
        )

        def payer_link(row: RowMapping) -> Found | None:
            return _found(
                linker.by_national_id(row["country"], row["national_id"])
                or linker.by_vat_id(row["country"], row["vat_id"])
            )

        v = vat_payers.c
        result["vat_payers"] = relink_rows(
            conn,
            vat_payers,
            [v.id],
            [v.country, v.national_id, v.vat_id],
            payer_link,
            # Slovak payers are named by IČ DPH alone: the company's stored IČ DPH or DIČ links them.
            and_(
                or_(v.national_id.is_not(None), v.country == "SK"),
                v.country == country if country else true(),
            ),
        )
    return summary(result)


def summary(result: dict[str, tuple[int, int, int]]) -> dict[str, Any]:
    """The relink job's result: per table, rows looked at, linked and relinked by identifier."""
    return {
        name: {"seen": seen, "linked": linked, "relinked": relinked}
        for name, (seen, linked, relinked) in result.items()
    }
