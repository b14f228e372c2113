"""Stored statistics snapshots (`stats_snapshots`): one JSON answer per aggregate key and data version."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from regintel import __version__
from regintel.db.engine import upsert
from regintel.db.schema import stats_snapshots


def version_text(version: tuple[Any, ...]) -> str:
    """The stored form of a data version. The code version is part of it: an upgrade may change what an
    aggregate answers, and must not serve the answers of the code before it."""
    return json.dumps([__version__, *version], default=str)


def find_snapshot(conn: Connection, key: str, version: tuple[Any, ...]) -> Any | None:
    """The payload stored under `key` if it was computed for `version`, else None (one primary-key read)."""
    row = conn.execute(
        select(stats_snapshots.c.data_version, stats_snapshots.c.payload).where(stats_snapshots.c.key == key)
    ).first()
    return row.payload if row is not None and row.data_version == version_text(version) else None


def list_versions(conn: Connection) -> dict[str, str]:
    """Stored keys with the data version each was computed for."""
    return {
        key: version
        for key, version in conn.execute(select(stats_snapshots.c.key, stats_snapshots.c.data_version))
    }


def record_snapshot(conn: Connection, key: str, version: tuple[Any, ...], payload: Any, at: datetime) -> None:
    """Store (or replace) the snapshot of `key`; `payload` must already be plain JSON values."""
    upsert(
        conn,
        stats_snapshots,
        [{"key": key, "data_version": version_text(version), "computed_at": at, "payload": payload}],
        keys=["key"],
    )
