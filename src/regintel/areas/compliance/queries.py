"""The compliance area's SQL: only the latest annual statement of a company (core table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.schema import financial_statements as fs

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.


def latest_statement(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    """The statement of the latest year we hold (one indexed read by company id)."""
    item = conn.execute(select(fs.c.year, fs.c.period_to, fs.c.source).where(fs.c.company_id == company_id)
                        .order_by(fs.c.year.desc(), fs.c.id.desc()).limit(1)).mappings().first()
    return cast("Mapping[str, Any] | None", item)
