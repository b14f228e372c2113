"""The catalogue area's SQL: the data-source rows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from regintel.db.schema import data_sources


def data_source_rows(
    conn: Connection, columns: Sequence[str], country: str | None, category: str | None
) -> list[dict[str, Any]]:
    """The catalogue's entries by id, of a country (any case) and a category when given."""
    query = select(*(data_sources.c[c] for c in columns)).order_by(data_sources.c.id)
    if country:
        query = query.where(func.upper(data_sources.c.country) == country.upper())
    if category:
        query = query.where(data_sources.c.category == category.lower())
    return [dict(r) for r in conn.execute(query).mappings()]
