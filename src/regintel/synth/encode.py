"""Generated rows in the form each backend's bulk path takes: parameter tuples for SQLite's
executemany, COPY text for PostgreSQL. Both add the bookkeeping columns the loader sets (source,
timestamps, run id) and store what the loader stores: SQLAlchemy writes dates as ISO text and
timestamps as "YYYY-MM-DD HH:MM:SS.ffffff" on SQLite, JSON as `json.dumps` text on both."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from regintel.synth.generator import (
    ACTIVITY_COLUMNS,
    COMPANY_COLUMNS,
    IDENTIFIER_COLUMNS,
    OWNERSHIP_COLUMNS,
    PEOPLE_COLUMNS,
    ROLE_COLUMNS,
    SOURCE_COLUMNS,
    STATEMENT_COLUMNS,
    Chunk,
)

SOURCE = "synthetic"


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]  # generated columns followed by the bookkeeping ones
    attr: str  # the Chunk attribute holding its rows


TABLES = (
    Table("companies", (*COMPANY_COLUMNS, "source", "created_at", "updated_at"), "companies"),
    Table("company_activities", ACTIVITY_COLUMNS, "activities"),
    Table("company_sources", (*SOURCE_COLUMNS, "source", "first_seen", "last_seen", "run_id"), "sources"),
    Table("identifiers", (*IDENTIFIER_COLUMNS, "source"), "identifiers"),
    Table("people", (*PEOPLE_COLUMNS, "source"), "people"),
    Table("roles", (*ROLE_COLUMNS, "source"), "roles"),
    Table("ownerships", (*OWNERSHIP_COLUMNS, "source"), "ownerships"),
    Table("financial_statements", (*STATEMENT_COLUMNS, "source"), "statements"),
)
# Statements are written in two parts: the latest one of each company last, so that a trigger that
# derives per-company data from the statements (latest_financials) needs to fire once per company.
EARLIER, LATEST = "financial_statements:earlier", "financial_statements:latest"


@dataclass(frozen=True)
class Stamp:
    """The bookkeeping values of one build."""

    now: datetime
    run_id: int

    def extra(self, table: str, sqlite: bool) -> tuple[object, ...]:
        ts = self.now.strftime("%Y-%m-%d %H:%M:%S.%f") if sqlite else self.now.isoformat()
        if table == "companies":
            return (SOURCE, ts, ts)
        if table == "company_sources":
            return (SOURCE, ts, ts, self.run_id)
        if table == "company_activities":
            return ()  # derived from the company row, which names its source
        return (SOURCE,)


def split_statements(
    rows: list[tuple[object, ...]],
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """(earlier statements, each company's latest): a company's statements are contiguous, oldest first."""
    earlier: list[tuple[object, ...]] = []
    latest: list[tuple[object, ...]] = []
    for i, row in enumerate(rows):
        last = i + 1 == len(rows) or rows[i + 1][0] != row[0]
        (latest if last else earlier).append(row)
    return earlier, latest


def _parts(chunk: Chunk) -> dict[str, list[tuple[object, ...]]]:
    parts = {t.name: getattr(chunk, t.attr) for t in TABLES if t.attr != "statements"}
    parts[EARLIER], parts[LATEST] = split_statements(chunk.statements)
    return parts


def for_sqlite(chunk: Chunk, stamp: Stamp) -> dict[str, list[tuple[object, ...]]]:
    """Rows per table as executemany parameters (sqlite3 binds bool as 0/1, as SQLAlchemy does)."""
    out = {}
    for name, rows in _parts(chunk).items():
        extra = stamp.extra(name.split(":")[0], sqlite=True)
        out[name] = [row + extra for row in rows]
    return out


def for_postgres(chunk: Chunk, stamp: Stamp) -> dict[str, bytes]:
    """Rows per table in COPY text format."""
    return {
        name: _copy_text(rows, stamp.extra(name.split(":")[0], sqlite=False))
        for name, rows in _parts(chunk).items()
    }


_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_SPECIAL = {True: "t", False: "f", None: "\\N"}


def _cell(value: object) -> str:
    if value is None or value is True or value is False:
        return _SPECIAL[value]
    return value.translate(_ESCAPES) if isinstance(value, str) else str(value)


def _copy_text(rows: Iterable[tuple[object, ...]], extra: tuple[object, ...]) -> bytes:
    tail = "".join("\t" + _cell(v) for v in extra) + "\n"
    out = []
    for row in rows:
        # Fast path: generated text has no tabs, newlines or backslashes, so most rows need no
        # escaping; a row whose joined text has the wrong shape is redone cell by cell.
        line = "\t".join([_SPECIAL[v] if v is None or v is True or v is False else str(v) for v in row])
        if (
            line.count("\t") != len(row) - 1
            or "\n" in line
            or "\r" in line
            or "\\" in line.replace("\\N", "")
        ):
            line = "\t".join(map(_cell, row))
        out.append(line + tail)
    return "".join(out).encode()
