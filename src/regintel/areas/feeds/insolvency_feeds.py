"""The public insolvency feed (spec 4.7, 6.3) and its statistics: one data function, rendered as JSON,
RSS, Atom and CSV by the router.

Items come from two places, newest first: gazette notices (`insolvency_events`, dated by the day they
take effect) and the flag flips the register sources write to the change log (dated by the day they
were detected; for Czech companies the only insolvency data, spec 1). Flips of a gazette source are
not listed twice: its notices are. Liquidation is not insolvency (spec 2.2): `scope` chooses among
bankruptcy and restructuring only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal, cast
from urllib.parse import urlsplit

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.feeds.schemas import BankruptCurrent, BankruptMonth, BankruptStats, InsolvencyItem
from regintel.db import insolvency as db
from regintel.render.feeds import Entry, Feed

Scope = Literal["bankruptcy", "restructuring", "any"]
Phase = Literal["start", "end", "any"]
SCOPES: dict[Scope, tuple[str, ...]] = {
    "bankruptcy": ("bankruptcy",),
    "restructuring": ("restructuring",),
    "any": ("bankruptcy", "restructuring"),
}
PHASES: dict[Phase, tuple[str, ...]] = {"start": ("start",), "end": ("end",), "any": ("start", "end")}
LICENCE = {
    "id": "CC-BY-4.0",
    "name": "Creative Commons Attribution 4.0 International",
    "url": "https://creativecommons.org/licenses/by/4.0/",
}
LABELS = {
    ("bankruptcy", "start"): "bankruptcy declared",
    ("bankruptcy", "end"): "bankruptcy ended",
    ("restructuring", "start"): "restructuring permitted",
    ("restructuring", "end"): "restructuring ended",
    ("liquidation", "start"): "liquidation started",
    ("liquidation", "end"): "liquidation ended",
}
COLUMNS = (
    "date",
    "event_type",
    "phase",
    "country",
    "ico",
    "name",
    "title",
    "court",
    "case_number",
    "reference",
    "link",
    "source",
    "published_on",
    "detected_at",
    "company_url",
)


@dataclass(frozen=True)
class InsolvencyFeed:
    scope: str
    phase: str
    country: str | None
    items: list[dict[str, Any]]
    attribution: str
    updated: datetime

    def header_attribution(self) -> str:
        """The attribution as an HTTP header value (Latin-1 only, so diacritics are folded)."""
        text = unicodedata.normalize("NFKD", self.attribution).encode("ascii", "ignore").decode()
        return " ".join(text.split())


def recent(
    conn: Connection, *, scope: Scope, phase: Phase, country: str | None, limit: int, base_url: str
) -> InsolvencyFeed:
    types, phases = SCOPES[scope], PHASES[phase]
    # (date, notices after flips on one day, row id): newest first after the reverse sort
    keyed = [
        ((r["event_date"], 1, r["id"]), notice_item(r, base_url))
        for r in db.list_recent_notices(conn, types, phases, country, limit)
    ]
    keyed += [
        ((_utc(r["detected_at"]).date(), 0, r["id"]), flip_item(r, base_url))
        for r in db.list_recent_flips(conn, types, phases, country, limit)
    ]
    items = [item for _, item in sorted(keyed, key=lambda pair: pair[0], reverse=True)[:limit]]
    return InsolvencyFeed(scope, phase, country, items, attribution(conn, base_url, items), _updated(items))


def _updated(items: list[dict[str, Any]]) -> datetime:
    stamps = [i["detected_at"] or datetime.combine(i["date"], datetime.min.time(), UTC) for i in items]
    return max(stamps, default=datetime(1970, 1, 1, tzinfo=UTC))


def company_url(base_url: str, country: str, national_id: str) -> str:
    return f"{base_url.rstrip('/')}/api/v1/companies/{country}/{national_id}"


def notice_item(row: RowMapping, base_url: str) -> dict[str, Any]:
    return {
        "id": f"notice:{row['source']}:{row['notice_id']}",
        "kind": "notice",
        "event_type": row["event_type"],
        "phase": row["phase"],
        "date": row["event_date"],
        "country": row["country"],
        "ico": row["national_id"],
        "name": row["name"],
        "title": f"{row['name']}: {LABELS[(row['event_type'], row['phase'])]}",
        "notice_title": row["title"],
        "summary": row["summary"],
        "court": row["court"],
        "case_number": row["case_number"],
        "reference": row["reference"],
        "link": row["link"],
        "source": row["source"],
        "published_on": row["published_on"],
        "detected_at": _utc(row["created_at"]),
        "company_url": company_url(base_url, row["country"], row["national_id"]),
    }


def flip_item(row: RowMapping, base_url: str) -> dict[str, Any]:
    kind = row["field"].removeprefix("in_")
    phase = "start" if row["new_value"] == "true" else "end"
    detected = _utc(row["detected_at"])
    return {
        "id": f"change:{row['id']}",
        "kind": "register",
        "event_type": kind,
        "phase": phase,
        "date": detected.date(),
        "country": row["country"],
        "ico": row["national_id"],
        "name": row["name"],
        "title": f"{row['name']}: {LABELS[(kind, phase)]} (register {row['source']})",
        "notice_title": None,
        "summary": f"{row['field']} changed from {row['old_value']} to "
        f"{row['new_value']} in source {row['source']}",
        "court": None,
        "case_number": None,
        "reference": None,
        "link": None,
        "source": row["source"],
        "published_on": None,
        "detected_at": detected,
        "company_url": company_url(base_url, row["country"], row["national_id"]),
    }


def _utc(value: datetime | None) -> datetime:
    if value is None:
        return datetime(1970, 1, 1, tzinfo=UTC)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def attribution(conn: Connection, base_url: str, items: list[dict[str, Any]]) -> str:
    """The CC BY 4.0 statement of this feed plus the attribution of every source it lists."""
    sources = db.source_attributions(conn, [i["source"] for i in items])
    credits = "; ".join(s["attribution"] for s in sources)
    text = f"Insolvency feed of {base_url.rstrip('/')}, licensed {LICENCE['id']} ({LICENCE['url']})."
    return f"{text} Data: {credits}." if credits else text


# -- statistics (spec 4.7 `/public/stats/bankrupt`) ------------------------------------------------


def bankrupt_stats(
    conn: Connection,
    *,
    scope: Scope,
    country: str | None,
    months: int,
    limit: int,
    base_url: str,
    today: date,
) -> BankruptStats:
    """Companies now flagged per country, started and ended proceedings per country and month
    (newest months first, `limit` rows), and the latest notices and flips (`limit` items)."""
    types = SCOPES[scope]
    since = _months_back(today, months)
    counts: dict[tuple[str, str], dict[str, Any]] = {}
    rows = db.monthly_notice_counts(conn, types, country, since) + db.monthly_flip_counts(
        conn, types, country, datetime.combine(since, datetime.min.time(), UTC)
    )
    for cc, year, month, kind, phase, n in rows:
        key = (cc, f"{year:04d}-{month:02d}")
        entry = counts.setdefault(
            key,
            {"country": cc, "month": key[1], **{f"{t}_{p}": 0 for t in types for p in ("started", "ended")}},
        )
        entry[f"{kind}_{'started' if phase == 'start' else 'ended'}"] += n
    by_month = sorted(counts.values(), key=lambda e: (e["month"], e["country"]), reverse=True)[:limit]
    current: dict[str, dict[str, Any]] = {}
    for cc, kind, n in db.current_counts(conn, types, country):
        current.setdefault(cc, {"country": cc, **{f"in_{t}": 0 for t in types}})[f"in_{kind}"] = n
    feed = recent(conn, scope=scope, phase="any", country=country, limit=limit, base_url=base_url)
    # The counts' keys are made from the scope's kinds (`bankruptcy_started`, `in_restructuring`), and the
    # items are the feed's own dicts: those parts are cast, and the read-model test checks them as served.
    return {
        "scope": scope,
        "country": country,
        "since": since,
        "current": cast(list[BankruptCurrent], sorted(current.values(), key=lambda e: e["country"])),
        "by_month": cast(list[BankruptMonth], by_month),
        "latest": cast(list[InsolvencyItem], feed.items),
        "licence": {"id": LICENCE["id"], "name": LICENCE["name"], "url": LICENCE["url"]},
        "attribution": feed.attribution,
    }


def month_columns(scope: Scope) -> tuple[str, ...]:
    return ("country", "month", *[f"{t}_{p}" for t in SCOPES[scope] for p in ("started", "ended")])


def _months_back(today: date, months: int) -> date:
    index = today.year * 12 + today.month - 1 - (months - 1)
    return date(index // 12, index % 12 + 1, 1)


def feed_view(feed: InsolvencyFeed, *, base_url: str, self_url: str, home_url: str) -> Feed:
    """The feed for the RSS and Atom renderers."""
    scope = {
        "bankruptcy": "bankruptcies",
        "restructuring": "restructurings",
        "any": "bankruptcies and restructurings",
    }[feed.scope]
    where = f" in {feed.country}" if feed.country else ""
    entries = [
        Entry(
            id=tag_uri(base_url, item["id"]),
            title=item["title"],
            updated=item["detected_at"],
            published=datetime.combine(item["date"], datetime.min.time(), UTC),
            summary=_entry_summary(item),
            link=item["link"] or item["company_url"],
            categories=(item["event_type"], item["phase"], item["country"]),
        )
        for item in feed.items
    ]
    return Feed(
        id=tag_uri(base_url, f"insolvency:{feed.scope}:{feed.phase}:{feed.country or 'all'}"),
        title=f"Recent {scope}{where}",
        subtitle=f"Insolvency notices and register flags, newest first. {feed.attribution}",
        self_url=self_url,
        home_url=home_url,
        updated=feed.updated,
        rights=feed.attribution,
        entries=entries,
    )


def _entry_summary(item: Mapping[str, Any]) -> str:
    parts = [
        f"{item['country']} {item['ico']}, {item['date'].isoformat()}",
        item["notice_title"],
        " ".join(filter(None, [item["court"], item["case_number"]])) or None,
        item["reference"],
        item["summary"],
    ]
    return ". ".join(p for p in parts if p)


def tag_uri(base_url: str, specific: str) -> str:
    """An RFC 4151 tag URI under the service's host: stable ids that readers de-duplicate by."""
    host = urlsplit(base_url).hostname or "localhost"
    return f"tag:{host},2024:{specific}"
