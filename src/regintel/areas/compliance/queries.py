"""The compliance area's SQL: only the latest annual statement of a company (core table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel.db.schema import financial_statements as fs


def latest_statement(conn: Connection, company_id: int) -> Mapping[str, Any] | None:
    """The statement of the latest year we hold (one indexed read by company id)."""
    return conn.execute(select(fs.c.year, fs.c.period_to, fs.c.source).where(fs.c.company_id == company_id)
                        .order_by(fs.c.year.desc(), fs.c.id.desc()).limit(1)).mappings().first()
