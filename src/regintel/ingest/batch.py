"""What a section writer is given of the batch it writes: `Batch`, the load's `LoadStats`, change rows.

`Loader._write` makes one `Batch` per batch transaction and hands it to the section writers
(`sections.py`, `statements.py`, `insolvency.py`) instead of itself: the batch's connection and clock,
the source and run it writes for, the load's statistics, where rejects go and the change rows the
batch logs. The writers import nothing of the loader (a contract of `lint-imports`, pyproject.toml).
The context is frozen; what it points at is what a batch fills in (statistics, change rows, the
companies whose own fields stayed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.db.engine import insert_returning
from regintel.db.schema import company_changes
from regintel.ingest.base import SourceInfo

ChangeRow = dict[str, Any]
RejectSink = Callable[[str, object], None]


@dataclass
class LoadStats:
    read: int = 0
    inserted: int = 0
    updated: int = 0
    unchanged: int = 0
    rejected: int = 0
    skipped: int = 0
    changes: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    skip_reasons: dict[str, int] = field(default_factory=dict)

    def reject(self, reason: str) -> None:
        self.rejected += 1
        key = reason.split(":")[0][:120]
        self.reasons[key] = self.reasons.get(key, 0) + 1

    def skip(self, reason: str) -> None:
        self.skipped += 1
        self.skip_reasons[reason] = self.skip_reasons.get(reason, 0) + 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "read": self.read,
            "inserted": self.inserted,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "rejected": self.rejected,
            "skipped": self.skipped,
            "changes": self.changes,
            "reject_reasons": dict(sorted(self.reasons.items(), key=lambda kv: -kv[1])[:20]),
            "skip_reasons": dict(sorted(self.skip_reasons.items(), key=lambda kv: -kv[1])[:20]),
        }


@dataclass(frozen=True, slots=True)
class Batch:
    """One batch transaction of a load, as its section writers see it."""

    conn: Connection
    source: SourceInfo
    run_id: int | None
    now: datetime
    stats: LoadStats
    reject_sink: RejectSink | None = None
    # The change-log rows the batch writes (with their ids once `insert_changes` ran).
    changes: list[ChangeRow] = field(default_factory=list)
    # Companies whose own fields stayed: a change of their roles or statements makes them updated.
    unchanged_ids: set[int] = field(default_factory=set)

    def reject(self, reason: str, raw: object) -> None:
        """Count a rejected record under its reason and hand it to the reject file, if any."""
        self.stats.reject(reason)
        if self.reject_sink is not None:
            self.reject_sink(reason, raw)

    def change(self, company_id: int, name: str, old: Any, new: Any) -> None:
        """Log a change of `name` of a company in this batch."""
        self.changes.append(change_row(self.source.id, self.run_id, company_id, name, old, new, self.now))


def change_row(
    source: str, run_id: int | None, company_id: int, name: str, old: Any, new: Any, now: datetime
) -> ChangeRow:
    """A `company_changes` row, values as text."""
    return {
        "company_id": company_id,
        "field": name,
        "old_value": _text(old),
        "new_value": _text(new),
        "source": source,
        "run_id": run_id,
        "detected_at": now,
    }


def insert_changes(conn: Connection, changes: list[ChangeRow]) -> None:
    """Insert change rows and give each its id (hooks point monitoring events at them).

    Ids come back unordered from a batched RETURNING, so they are matched on (company, field);
    two changes of one field of one company in one batch may swap ids, which changes nothing
    downstream since both rows exist.
    """
    pending: dict[tuple[int, str], list[ChangeRow]] = {}
    for row in changes:
        pending.setdefault((row["company_id"], row["field"]), []).append(row)
    for change_id, company_id, field_name in insert_returning(
        conn, company_changes, changes, ("id", "company_id", "field")
    ):
        pending[(company_id, field_name)].pop(0)["id"] = change_id


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(map(str, value))
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    return str(value)
