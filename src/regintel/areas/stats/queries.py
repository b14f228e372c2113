"""The statistics area's own SQL; the grouped counts it builds on are `db/stats.py`, which the snapshots
and other areas' breakdowns share."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from regintel.db import stats as db
from regintel.db.company_filters import Conditions, c
from regintel.db.schema import lei_records


def lei_status_groups(conn: Connection, cond: Conditions) -> list[dict[str, Any]]:
    """Matching companies that have an LEI, grouped by its GLEIF registration status."""
    return db.grouped(
        conn,
        Conditions([*cond.where, c.lei.is_not(None)], cond.needs_financials),
        (lei_records.c.registration_status,),
        join=(lei_records, lei_records.c.lei == c.lei),
    )
