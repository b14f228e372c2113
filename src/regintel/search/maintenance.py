"""Keeping derived columns true to the shared normaliser: when `domain.names` changes its output,
`renormalise` recomputes `companies.name_norm`/`address_norm` and `people.name_norm` (run by
`regintel search rebuild --renormalise`, before the index is rebuilt from them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, Table, bindparam, select, update

from regintel.db.engine import begin_write
from regintel.db.schema import companies, people
from regintel.domain.names import normalise_address, normalise_name

BATCH = 20_000


def _address(row: Any) -> str:
    if row.address_text:
        return str(row.address_text)
    return " ".join(str(v) for v in (row.street, row.postal_code, row.city) if v)


def renormalise(engine: Engine) -> dict[str, int]:
    """Rewrite the normalised columns that differ from what the normaliser now says; returns counts."""
    company_cols = (
        companies.c.id,
        companies.c.name,
        companies.c.name_norm,
        companies.c.address_norm,
        companies.c.address_text,
        companies.c.street,
        companies.c.postal_code,
        companies.c.city,
    )
    changed = _pass(
        engine,
        companies,
        company_cols,
        lambda r: {"name_norm": normalise_name(r.name or ""), "address_norm": normalise_address(_address(r))},
    )
    changed_people = _pass(
        engine,
        people,
        (people.c.id, people.c.name, people.c.name_norm),
        lambda r: {"name_norm": normalise_name(r.name or "")},
    )
    return {"companies": changed, "people": changed_people}


def _pass(
    engine: Engine, table: Table, cols: tuple[Any, ...], compute: Callable[[Any], dict[str, str]]
) -> int:
    last, changed = 0, 0
    stmt = update(table).where(table.c.id == bindparam("_id"))
    while True:
        with begin_write(engine) as conn:
            rows = conn.execute(
                select(*cols).where(table.c.id > last).order_by(table.c.id).limit(BATCH)
            ).all()
            if not rows:
                return changed
            last = int(rows[-1].id)
            todo = []
            for row in rows:
                new = compute(row)
                if any(getattr(row, k) != v for k, v in new.items()):
                    todo.append({"_id": row.id, **new})
            if todo:
                conn.execute(stmt.values({k: bindparam(k) for k in todo[0] if k != "_id"}), todo)
            changed += len(todo)
