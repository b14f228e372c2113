"""The data-source catalogue (spec 4.7 `public/data-sources`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from regintel.db.schema import data_sources

COLUMNS = [
    "id",
    "name",
    "publisher",
    "country",
    "category",
    "formats",
    "licence",
    "licence_url",
    "attribution",
    "url",
    "cadence",
    "last_import_at",
    "row_count",
]


def list_data_sources(conn: Connection, country: str | None, category: str | None) -> list[dict[str, Any]]:
    query = select(*(data_sources.c[c] for c in COLUMNS)).order_by(data_sources.c.id)
    if country:
        query = query.where(func.upper(data_sources.c.country) == country.upper())
    if category:
        query = query.where(data_sources.c.category == category.lower())
    return [dict(r) for r in conn.execute(query).mappings()]
