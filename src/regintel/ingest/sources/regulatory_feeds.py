"""Five regulators' publication feeds (RSS 2.0 or Atom 1.0), read with feedparser: the Slovak and Czech
central banks (supervisors of banks, insurers, payment and crypto firms), ENISA (NIS2, cybersecurity),
the EBA (banking rules, DORA, AML) and ESMA (markets, MiCA).

One feed file is one import. An entry gives its id (`<guid>` / `<id>`; the link when a feed has none),
title, link, summary (HTML reduced to text) and date (published, else updated). An entry without a
title, an id or a date is rejected with its reason; a file that is not a well-formed feed stops the
import (`SourceAbort`) and nothing of it is written. The regulatory area stores the entries and tags
them (`areas/regulatory`, docs/regulatory-feed.md).
"""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any, cast
from urllib.parse import urlsplit

import feedparser
import lxml.html
from lxml.etree import ParserError

from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.sources import register

MAX_BYTES = 20_000_000  # a regulator's feed is tens of kilobytes; anything this big is not one
MAX_SUMMARY = 2_000
MAX_TITLE = 500
# feedparser reports these as "bozo" although the document parsed fully (a declared charset that
# differs from the HTTP one, a served type that is not XML): the entries are sound.
_BENIGN = (feedparser.CharacterEncodingOverride, feedparser.NonXMLContentType)
_REUSE = "Reuse authorised provided the source is acknowledged (publisher's website terms)"


@dataclass(frozen=True)
class FeedEntry:
    """One publication of a regulator, as its feed gives it."""

    guid: str
    title: str
    link: str | None
    summary: str
    published_at: datetime  # UTC
    updated_at: datetime | None
    categories: tuple[str, ...]  # the publisher's own categories, if any
    language: str | None


def _info(
    id_: str, name: str, publisher: str, country: str | None, url: str, attribution: str, licence_url: str
) -> SourceInfo:
    return SourceInfo(
        id=id_,
        name=name,
        publisher=publisher,
        country=country,
        category="regulatory",
        formats="RSS 2.0 or Atom 1.0 feed",
        licence=_REUSE,
        licence_url=licence_url,
        attribution=attribution,
        url=url,
        cadence="daily",
        snapshots=False,
    )


INFOS = (
    _info(
        "sk_nbs_news",
        "Národná banka Slovenska – news and press releases",
        "Národná banka Slovenska",
        "SK",
        "https://nbs.sk/feed/",
        "Source: Národná banka Slovenska, nbs.sk",
        "https://nbs.sk/en/legal-notice/",
    ),
    _info(
        "cz_cnb_news",
        "Česká národní banka – press releases",
        "Česká národní banka",
        "CZ",
        "https://www.cnb.cz/cs/rss/tiskove-zpravy.xml",
        "Source: Česká národní banka, cnb.cz",
        "https://www.cnb.cz/en/terms-of-use/",
    ),
    _info(
        "eu_enisa_news",
        "ENISA – news",
        "European Union Agency for Cybersecurity (ENISA)",
        None,
        "https://www.enisa.europa.eu/news/rss",
        "Source: ENISA, © European Union Agency for Cybersecurity",
        "https://www.enisa.europa.eu/legal-notice",
    ),
    _info(
        "eu_eba_news",
        "EBA – news and press releases",
        "European Banking Authority (EBA)",
        None,
        "https://www.eba.europa.eu/news-press/rss.xml",
        "Source: European Banking Authority, eba.europa.eu",
        "https://www.eba.europa.eu/legal-notice",
    ),
    _info(
        "eu_esma_news",
        "ESMA – news",
        "European Securities and Markets Authority (ESMA)",
        None,
        "https://www.esma.europa.eu/rss.xml",
        "Source: European Securities and Markets Authority, esma.europa.eu",
        "https://www.esma.europa.eu/legal-notice",
    ),
)


class RegulatorFeedSource:
    """One regulator's feed; the regulatory area writes its entries (`import_into`)."""

    suffixes: tuple[str, ...] = (".xml", ".rss", ".atom", ".xml.gz")

    def __init__(self, info: SourceInfo):
        self.info = info

    def parse(self, stream: IO[bytes], name: str) -> Iterator[FeedEntry | RecordError]:
        body = stream.read(MAX_BYTES + 1)
        if len(body) > MAX_BYTES:
            raise SourceAbort(f"{name}: larger than {MAX_BYTES} bytes, not a regulator's feed")
        parsed = feedparser.parse(body, sanitize_html=True, resolve_relative_uris=False)
        problem = parsed.get("bozo_exception")
        if not parsed.get("version"):
            raise SourceAbort(f"{name}: not an RSS or Atom feed" + (f" ({problem})" if problem else ""))
        if parsed.get("bozo") and not isinstance(problem, _BENIGN):
            raise SourceAbort(f"{name}: not a well-formed feed: {problem}")
        language = (parsed.feed.get("language") or "").split("-")[0].lower()[:8] or None
        for entry in parsed.entries:
            try:
                yield parse_entry(entry, language)
            except ValueError as exc:
                yield RecordError(str(exc), {k: entry.get(k) for k in ("id", "title", "link")})

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        """Written by the regulatory area, not the company loader."""
        from regintel.areas.regulatory.importing import run_feed_import

        return run_feed_import(engine, self, location, data_dir)


def parse_entry(entry: Any, language: str | None) -> FeedEntry:
    """One feedparser entry → a `FeedEntry`; ValueError names what is missing."""
    title = " ".join((entry.get("title") or "").split())[:MAX_TITLE]
    link = (entry.get("link") or "").strip() or None
    guid = (entry.get("id") or "").strip() or link
    if link and urlsplit(link).scheme not in ("http", "https"):
        link = None  # only web links are passed on (a `javascript:` link is not a publication)
    if not title:
        raise ValueError("an entry without a title")
    if not guid:
        raise ValueError(f"entry {title!r} has neither an id nor a link")
    # dict.get: feedparser's own get() maps a missing `updated_parsed` to `published_parsed`, with a warning.
    updated = _when(dict.get(entry, "updated_parsed"))
    published = _when(dict.get(entry, "published_parsed")) or updated
    if published is None:
        raise ValueError(f"entry {guid!r} has no readable date")
    categories = tuple(
        dict.fromkeys(
            t.get("term", "").strip() for t in entry.get("tags") or [] if (t.get("term") or "").strip()
        )
    )
    return FeedEntry(
        guid=guid[:1000],
        title=title,
        link=link,
        summary=text_of(entry.get("summary") or ""),
        published_at=published,
        updated_at=updated,
        categories=categories,
        language=language,
    )


def text_of(html: str) -> str:
    """A summary's HTML (already sanitised by feedparser) as plain text, whitespace collapsed."""
    if "<" not in html and "&" not in html:
        return " ".join(html.split())[:MAX_SUMMARY]
    try:
        text = lxml.html.fromstring(f"<div>{html}</div>").text_content()
    except (ParserError, ValueError):
        text = html
    return " ".join(str(text).split())[:MAX_SUMMARY]


def _when(value: Any) -> datetime | None:
    """feedparser's dates are `time.struct_time` in UTC."""
    if value is None:
        return None
    return datetime.fromtimestamp(calendar.timegm(value), UTC)


SOURCES = tuple(register(cast(Source, RegulatorFeedSource(info))) for info in INFOS)
SOURCE_IDS = tuple(info.id for info in INFOS)
