"""The data-source catalogue (spec 4.7 `public/data-sources`)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.catalogue import queries

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
    return queries.data_source_rows(conn, COLUMNS, country, category)
