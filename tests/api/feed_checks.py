"""Checks of feed documents: Atom against the RFC 4287 RELAX NG grammar, RSS 2.0 structurally, both
through feedparser (no "bozo" parse problems)."""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from functools import cache
from pathlib import Path

import feedparser
from lxml import etree

ATOM_RNG = Path(__file__).parent.parent / "fixtures" / "schemas" / "atom" / "atom.rng"


@cache
def atom_grammar() -> etree.RelaxNG:
    return etree.RelaxNG(etree.parse(str(ATOM_RNG)))


def check_atom(body: bytes) -> feedparser.FeedParserDict:
    doc = etree.fromstring(body)
    grammar = atom_grammar()
    assert grammar.validate(doc), grammar.error_log
    parsed = feedparser.parse(body)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    return parsed


def check_rss(body: bytes) -> feedparser.FeedParserDict:
    """RSS 2.0: a channel with title, link and description; items with a guid and an RFC 822 pubDate."""
    root = etree.fromstring(body)
    assert root.tag == "rss" and root.get("version") == "2.0"
    channel = root.find("channel")
    for required in ("title", "link", "description"):
        assert (channel.findtext(required) or "").strip(), required
    for item in channel.findall("item"):
        assert item.findtext("guid") and item.findtext("title")
        assert parsedate_to_datetime(item.findtext("pubDate")).tzinfo is not None
    parsed = feedparser.parse(body)
    assert parsed.bozo == 0, parsed.get("bozo_exception")
    assert parsed.version == "rss20"
    return parsed
