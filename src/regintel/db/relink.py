"""The relink pass every area with linked records runs after a company import (docs/public-money.md,
"Relinking"; the public-money, funds and legal-records areas' `relink.py`): the rows of a table whose
`company_id` is empty, in primary-key order, one transaction per chunk, so a long pass keeps what it has
done and never holds the database for long. Each area brings its own `link` (its `Linker` and threshold,
as at import); this module holds only the loop and its SQL."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, ColumnElement, Table, and_, select, true, tuple_, update
from sqlalchemy.engine import Connection, RowMapping

from regintel.domain.public_money import LINK_BY_NAME

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


def summary(result: dict[str, tuple[int, int, int]]) -> dict[str, Any]:
    """A relink job's result: per table, rows looked at, linked and relinked by identifier."""
    return {
        name: {"seen": seen, "linked": linked, "relinked": relinked}
        for name, (seen, linked, relinked) in result.items()
    }
