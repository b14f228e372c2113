"""The `/public/stats/{feed}` feeds (spec 4.7): each area registers the lists it publishes here, and one
router serves them as JSON (at most 100 rows) and CSV (at most 500), with the index `/public/stats.json`.

A feed is a ranked list of companies or records an area already holds (EU funds beneficiaries, antitrust
cases, supervised entities …); the area gives its columns and a function that reads the first `limit`
rows. Feeds that take their own filters (`bankrupt`, `sanctions`) keep their own routes and are listed in
the index by `path` only."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

RowReader = Callable[[Connection, int], Sequence[Mapping[str, Any]]]


@dataclass(frozen=True)
class StatsFeed:
    name: str  # the `{feed}` path segment, lower-case with hyphens
    title: str
    description: str
    columns: tuple[str, ...]  # CSV columns, in order; the JSON rows carry the same keys
    rows: RowReader | None  # None: the feed has its own route (`path`) with its own filters
    attribution: str = "regintel, from the sources named in /api/v1/public/data-sources"
    licence: str = "CC-BY-4.0"
    path: str | None = None


FEEDS: dict[str, StatsFeed] = {}


def register(feed: StatsFeed) -> StatsFeed:
    """Called at import time by the area that owns the feed; a second feed of the same name is a
    programming error."""
    if feed.name in FEEDS and FEEDS[feed.name] != feed:
        raise ValueError(f"stats feed {feed.name!r} registered twice")
    FEEDS[feed.name] = feed
    return feed
