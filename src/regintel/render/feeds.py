"""Feeds as bytes: RSS 2.0 and Atom 1.0 written by feedgen (never by hand), CSV through `render.tabular`.

Pure: a `Feed` view model in, bytes out. The services build the `Feed` (spec 4.7 insolvency feeds,
spec 4.4 changes feed); one data function per feed, one renderer per format (DESIGN.md section 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from feedgen.feed import FeedGenerator

from regintel.render.tabular import to_csv

GENERATOR = "regintel"


@dataclass(frozen=True)
class Entry:
    id: str  # a stable IRI (tag: URI): readers de-duplicate by it
    title: str
    updated: datetime  # timezone-aware
    summary: str
    link: str | None = None
    published: datetime | None = None
    categories: Sequence[str] = ()


@dataclass(frozen=True)
class Feed:
    id: str
    title: str
    subtitle: str
    self_url: str  # where this rendering is served
    home_url: str  # the human-facing or JSON alternate
    updated: datetime
    rights: str  # licence and attribution, carried inside the feed
    entries: Sequence[Entry] = field(default_factory=tuple)
    language: str = "en"


def _generator(feed: Feed, self_type: str) -> FeedGenerator:
    fg = FeedGenerator()
    fg.id(feed.id)
    fg.title(feed.title)
    fg.subtitle(feed.subtitle)  # also the RSS <description>
    fg.link(href=feed.self_url, rel="self", type=self_type)
    fg.link(href=feed.home_url, rel="alternate")
    fg.author({"name": GENERATOR})
    fg.rights(feed.rights)  # Atom <rights>, RSS <copyright>
    fg.language(feed.language)
    fg.updated(feed.updated)
    fg.lastBuildDate(feed.updated)
    fg.generator(GENERATOR)
    for item in reversed(feed.entries):  # feedgen prepends: the feed lists them newest first
        entry = fg.add_entry()
        entry.id(item.id)
        entry.guid(item.id, permalink=False)
        entry.title(item.title)
        entry.updated(item.updated)
        entry.published(item.published or item.updated)  # the RSS <pubDate>
        entry.summary(item.summary)
        if item.link:
            entry.link(href=item.link, rel="alternate")
        else:  # Atom wants an alternate link or content (RFC 4287 4.1.1.1)
            entry.content(item.summary, type="text")
        for term in item.categories:
            entry.category(term=term)
    return fg


def to_rss(feed: Feed) -> bytes:
    return bytes(_generator(feed, "application/rss+xml").rss_str(pretty=True))


def to_atom(feed: Feed) -> bytes:
    return bytes(_generator(feed, "application/atom+xml").atom_str(pretty=True))


def to_feed_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str], attribution: str) -> str:
    """CSV with the attribution as a preamble line ahead of the header (spec 4.7: "with an attribution
    header"); the same text goes into the `X-Attribution` HTTP header."""
    return to_csv(rows, columns, preamble=[f"# {attribution}"])
