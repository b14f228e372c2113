"""The cross-company change log (spec 4.4 `/companies/changes`, `/changes/feed`, `/changes/stream`).

Rows are listed oldest first by id, so a client follows the log: it keeps the last id it processed
(`meta.resume_cursor`, or the SSE `id:`) and asks for what came after. docs/feeds.md.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.service import decode_cursor, encode_cursor
from regintel.areas.feeds.insolvency_feeds import company_url, tag_uri
from regintel.db import changes as db
from regintel.domain.identifiers import parse_country
from regintel.render.feeds import Entry, Feed


def make_filter(country: str | None, field: str | None, source: str | None) -> db.ChangeFilter:
    return db.ChangeFilter(parse_country(country) if country else None, field or None, source or None)


def item(row: RowMapping, base_url: str) -> dict[str, Any]:
    return {
        "id": row["id"],
        "country": row["country"],
        "ico": row["national_id"],
        "name": row["name"],
        "field": row["field"],
        "from": row["old_value"],
        "to": row["new_value"],
        "source": row["source"],
        "detected_at": _utc(row["detected_at"]),
        "company_url": company_url(base_url, row["country"], row["national_id"]),
    }


def start_after(conn: Connection, *, cursor: str | None, since: datetime | None) -> int:
    """The id after which to list: the cursor's, or the last one before `since`, whichever is later.
    `since` after the newest change starts at the end of the log (only what comes next)."""
    after = decode_cursor(cursor) or 0
    if since is not None:
        first = db.first_id_since(conn, _utc(since))
        after = max(after, first - 1 if first is not None else db.last_id(conn))
    return after


def list_changes(
    conn: Connection,
    *,
    cursor: str | None,
    since: datetime | None,
    flt: db.ChangeFilter,
    limit: int,
    base_url: str,
) -> tuple[list[dict[str, Any]], str | None, str]:
    """(items, cursor of the next page or None, cursor to resume from later)."""
    after = start_after(conn, cursor=cursor, since=since)
    rows = db.list_after(conn, after, flt, limit + 1)
    items = [item(r, base_url) for r in rows[:limit]]
    resume = encode_cursor(items[-1]["id"] if items else after)
    return items, resume if len(rows) > limit else None, resume


def fetch_after(
    engine: Engine, after: int, flt: db.ChangeFilter, limit: int, base_url: str
) -> list[dict[str, Any]]:
    """One poll of the stream, on its own short connection (run in a worker thread)."""
    with engine.connect() as conn:
        return [item(r, base_url) for r in db.list_after(conn, after, flt, limit)]


def stream_start(engine: Engine, *, last_event_id: int | None, since: datetime | None) -> int:
    """Resume after the client's last event id; else after `since`; else at the end (only new changes)."""
    if last_event_id is not None:
        return last_event_id
    with engine.connect() as conn:
        return start_after(conn, cursor=None, since=since) if since is not None else db.last_id(conn)


def feed(conn: Connection, *, flt: db.ChangeFilter, limit: int, base_url: str, self_url: str) -> Feed:
    """The latest changes as an Atom feed (newest first)."""
    items = [item(r, base_url) for r in db.list_latest(conn, flt, limit)]
    entries = [
        Entry(
            id=tag_uri(base_url, f"change:{i['id']}"),
            updated=i["detected_at"],
            title=f"{i['name']} ({i['country']} {i['ico']}): {i['field']}",
            summary=f"{i['field']}: {i['from'] if i['from'] is not None else '(none)'} -> "
            f"{i['to'] if i['to'] is not None else '(none)'} (source {i['source']})",
            link=i["company_url"],
            categories=(i["field"], i["source"], i["country"]),
        )
        for i in items
    ]
    scope = ", ".join(
        f"{k} {v}" for k, v in (("country", flt.country), ("field", flt.field), ("source", flt.source)) if v
    )
    return Feed(
        id=tag_uri(base_url, f"changes:{flt.country or '*'}:{flt.field or '*'}:{flt.source or '*'}"),
        title="Company changes" + (f" ({scope})" if scope else ""),
        subtitle="Field-level changes of company records detected by regintel's imports, newest first.",
        self_url=self_url,
        home_url=f"{base_url.rstrip('/')}/api/v1/companies/changes",
        updated=max((i["detected_at"] for i in items), default=datetime(1970, 1, 1, tzinfo=UTC)),
        rights="Data from the sources named per entry; see /api/v1/public/data-sources for their licences.",
        entries=entries,
    )


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)
