"""The regulatory feed's use cases: the filtered entries (one data function behind JSON, Atom, RSS, CSV
and HTML), the Markdown digest, the five sources with their counts, and the statistics.

Other areas may call `entries`, `sources` and `stats`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.feeds.insolvency_feeds import tag_uri
from regintel.domain.names import fold
from regintel.errors import ValidationFailed
from regintel.ingest.base import SourceInfo
from regintel.ingest.sources.regulatory_feeds import INFOS
from regintel.render.feeds import Entry, Feed

from . import queries as q
from .tags import TAGS, parse_tag

SOURCES: dict[str, SourceInfo] = {i.id: i for i in INFOS}
ATTRIBUTION = "regintel regulatory feed: " + "; ".join(i.attribution for i in INFOS)
COLUMNS = ("published_at", "source", "publisher", "title", "link", "tags", "summary", "guid")
TOP_TAGS = 25
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Page:
    items: list[dict[str, Any]]
    total: int
    updated: datetime  # when the stored entries last changed: the feeds' Last-Modified
    filters: dict[str, Any]


def _invalid(field: str, message: str) -> ValidationFailed:
    return ValidationFailed(message, details=[{"field": field, "in": "query", "message": message}])


def parse_filters(source: str | None, tag: str | None, since: str | None, q_: str | None) -> q.Filters:
    """The query's filters, checked: an unknown source or tag, or an unreadable date, is a 422 naming
    the accepted values (a misspelt filter must never return a silently empty feed)."""
    if source is not None and source.strip().lower() not in SOURCES:
        raise _invalid("source", f"Unknown source {source!r}; the sources are: {', '.join(SOURCES)}")
    found = parse_tag(tag) if tag is not None else None
    if tag is not None and found is None:
        raise _invalid("tag", f"Unknown tag {tag!r}; the tags are: {', '.join(TAGS)}")
    folded = " ".join(fold(q_).split()) if q_ is not None else None
    if q_ is not None and not folded:
        raise _invalid("q", "q is empty: give at least one letter or digit")
    return q.Filters(
        source=source.strip().lower() if source else None, tag=found, since=parse_since(since), q=folded
    )


_EXTENDED = re.compile(r"^\d{4}-\d{2}-\d{2}")


def parse_since(value: str | None) -> datetime | None:
    """`since`: an ISO 8601 date (`2026-11-01`, midnight UTC) or date-time (`2026-11-01T08:00:00Z`; without
    a zone, UTC)."""
    if value is None:
        return None
    text = value.strip()
    try:
        if not _EXTENDED.match(text):  # `datetime.fromisoformat` also reads the basic format, `2774041123`
            raise ValueError(text)
        when = (
            datetime.combine(date.fromisoformat(text), datetime.min.time())
            if len(text) == 10
            else datetime.fromisoformat(text)
        )
    except ValueError:
        raise _invalid(
            "since",
            f"since {value!r} is not an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T08:00:00Z",
        ) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def entries(conn: Connection, filters: q.Filters, limit: int) -> Page:
    rows, total = q.list_entries(conn, filters, limit)
    items = [_item(r) for r in rows]
    return Page(
        items,
        total,
        _utc(q.newest_change(conn)) or EPOCH,
        {
            "source": filters.source,
            "tag": filters.tag,
            "q": filters.q,
            "since": filters.since.isoformat().replace("+00:00", "Z") if filters.since else None,
        },
    )


def _item(r: Mapping[str, Any]) -> dict[str, Any]:
    info = SOURCES.get(r["source"])
    return {
        "id": int(r["id"]),
        "source": r["source"],
        "publisher": info.publisher if info else r["source"],
        "title": r["title"],
        "summary": r["summary"],
        "link": r["link"],
        "language": r["language"],
        "published_at": _utc(r["published_at"]),
        "updated_at": _utc(r["updated_at"]),
        "tags": list(r["tags"]),
        "guid": r["guid"],
    }


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def feed_view(page: Page, *, base_url: str, self_url: str, home_url: str) -> Feed:
    """The entries for the Atom and RSS renderers: ids are tag URIs of ours (a publisher's guid need not
    be an IRI); each entry links to the publication on the regulator's site."""
    described = ", ".join(f"{k} {v}" for k, v in page.filters.items() if v)
    items = [
        Entry(
            id=tag_uri(base_url, f"regulatory:{i['source']}:{i['id']}"),
            title=i["title"],
            updated=i["updated_at"] or i["published_at"],
            published=i["published_at"],
            summary=f"{i['publisher']}: {i['summary']}" if i["summary"] else i["publisher"],
            link=i["link"],
            categories=(i["source"], *i["tags"]),
        )
        for i in page.items
    ]
    return Feed(
        id=tag_uri(base_url, "regulatory-feed" + (f":{described}" if described else "")),
        title="Regulatory feed" + (f" ({described})" if described else ""),
        subtitle="Publications of NBS, ČNB, ENISA, the EBA and ESMA, newest first, tagged. " + ATTRIBUTION,
        self_url=self_url,
        home_url=home_url,
        updated=page.updated,
        rights=ATTRIBUTION,
        entries=items,
    )


def csv_rows(page: Page) -> list[dict[str, Any]]:
    return [
        i
        | {"tags": " ".join(i["tags"]), "published_at": i["published_at"].isoformat().replace("+00:00", "Z")}
        for i in page.items
    ]


def digest(conn: Connection, hours: int, now: datetime) -> tuple[str, datetime]:
    """Markdown: the last `hours` hours' publications per regulator, newest first (at most 500)."""
    since = now - timedelta(hours=hours)
    page = entries(conn, q.Filters(since=since), 500)
    lines = [
        f"# Regulatory digest: the last {hours} hours",
        "",
        f"{page.total} publication{'s' if page.total != 1 else ''} from {_stamp(since)} to {_stamp(now)}.",
        "",
    ]
    for source, info in SOURCES.items():
        mine = [i for i in page.items if i["source"] == source]
        if not mine:
            continue
        lines += [f"## {md_escape(info.publisher)} ({len(mine)})", ""]
        for i in mine:
            title = (
                f"[{md_escape(i['title'])}](<{md_url(i['link'])}>)" if i["link"] else md_escape(i["title"])
            )
            tags = f" · {', '.join(i['tags'])}" if i["tags"] else ""
            lines.append(f"- {i['published_at']:%Y-%m-%d %H:%M} UTC: {title}{tags}")
        lines.append("")
    if page.total > len(page.items):
        lines += [f"(The newest {len(page.items)} of {page.total} are listed.)", ""]
    lines.append(f"_{md_escape(ATTRIBUTION)}_")
    return "\n".join(lines) + "\n", page.updated


def _stamp(value: datetime) -> str:
    return f"{value:%Y-%m-%d %H:%M} UTC"


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~"})


def md_escape(text: str) -> str:
    """Text as literal Markdown (CommonMark backslash escapes), so a title cannot add links or markup."""
    return " ".join(text.split()).translate(_MD_SPECIAL)


def md_url(url: str) -> str:
    """A link target inside `<…>`: the characters that could end it are percent-encoded."""
    return url.replace(" ", "%20").replace("<", "%3C").replace(">", "%3E").replace("\n", "")


def sources(conn: Connection) -> list[dict[str, Any]]:
    counts = q.per_source(conn)
    return [
        {
            "id": i.id,
            "name": i.name,
            "publisher": i.publisher,
            "country": i.country,
            "url": i.url,
            "formats": i.formats,
            "licence": i.licence,
            "licence_url": i.licence_url,
            "attribution": i.attribution,
            "entries": counts.get(i.id, {}).get("entries", 0),
            "latest_published_at": _utc(counts.get(i.id, {}).get("last")),
        }
        for i in INFOS
    ]


def stats(conn: Connection) -> dict[str, Any]:
    counts = q.per_source(conn)
    firsts = [c["first"] for c in counts.values()]
    lasts = [c["last"] for c in counts.values()]
    total = sum(c["entries"] for c in counts.values())
    return {
        "total": total,
        "tagged": q.tagged_count(conn),
        "per_source": [
            {
                "source": s,
                "publisher": i.publisher,
                "entries": counts.get(s, {}).get("entries", 0),
                "first_published_at": _utc(counts.get(s, {}).get("first")),
                "last_published_at": _utc(counts.get(s, {}).get("last")),
            }
            for s, i in SOURCES.items()
        ],
        "top_tags": [{"tag": t, "entries": n} for t, n in q.top_tags(conn, TOP_TAGS)],
        "date_range": {
            "first": _utc(min(firsts)) if firsts else None,
            "last": _utc(max(lasts)) if lasts else None,
        },
        "tags_known": list(TAGS),
    }
