"""Renders made once and read back (`page_renders`, docs/pages.md "Stored renders"), for the two answers
that cost more than the 100 ms of issue 21 to make:

- **og.png**: resvg takes about 0.2 s of CPU per 1200x630 image. The PNG is stored under the SHA-256 of its
  SVG, so a company whose data changed gets a new image and an unchanged one is never rendered twice, in
  any process or on any host. The first request for an SVG renders it; the write runs in a thread of its
  own, after the answer.
- **Sitemap pages**: 50,000 URLs are 4 MB of XML. A page is streamed from the database the first time it is
  asked for after the data changed, and stored gzip-compressed (about 1/10 the size) with the data version
  it was made at; later requests read the stored bytes and send them as they are (`Content-Encoding: gzip`)
  or unpacked for a client that does not take gzip."""

from __future__ import annotations

import gzip
import hashlib
import logging
import threading
from collections.abc import Iterator
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine

from regintel.db.stats import data_version
from regintel.db.stats_snapshots import version_text
from regintel.render import svg

from . import queries

log = logging.getLogger(__name__)
OG_KEEP = 20_000  # about 1.5 GB of PNGs at 75 KB each; the oldest go first
SITEMAP_KEEP = 2_000  # 100M URLs' worth of pages (for one public base address)


def _store(engine: Engine, key: str, version: str | None, body: bytes, size: int, keep: int) -> None:
    try:
        with engine.begin() as conn:
            queries.store_render(conn, key, version, body, size, datetime.now(UTC), keep)
    except Exception:  # the answer went out already; the next request renders again
        log.exception("pages: could not store the render %s", key)


def _store_later(engine: Engine, key: str, version: str | None, body: bytes, size: int, keep: int) -> None:
    threading.Thread(
        target=_store, args=(engine, key, version, body, size, keep), daemon=True, name="page-render-store"
    ).start()


def digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def og_png(conn: Connection, engine: Engine, source: str) -> bytes:
    """The PNG of an og SVG: stored, else rendered now and stored after the answer."""
    key = f"og:{digest(source)}"
    stored = queries.find_render(conn, key)
    if stored is not None:
        return stored
    body = svg.to_png(source)
    _store_later(engine, key, None, body, len(body), OG_KEEP)
    return body


def sitemap_key(n: int, base: str) -> str:
    return f"sitemap:{n}:{hashlib.sha256(base.encode()).hexdigest()[:16]}"


def current_version(conn: Connection) -> str:
    return version_text(data_version(conn))


def stored_sitemap(conn: Connection, n: int, base: str, version: str) -> bytes | None:
    """The gzip-compressed page `n` made at `version`, or None."""
    return queries.find_render(conn, sitemap_key(n, base), version)


def keep_sitemap(engine: Engine, n: int, base: str, version: str, chunks: Iterator[str]) -> Iterator[bytes]:
    """Pass the streamed chunks on, and once the last one went out, store the whole page compressed (only
    when the data did not move while it was read: a page from two versions must not pass for either)."""
    packer = gzip.compress  # one call at the end: the page is at most a few MB
    parts: list[bytes] = []
    for chunk in chunks:
        data = chunk.encode()
        parts.append(data)
        yield data
    body = b"".join(parts)
    with engine.connect() as conn:
        if current_version(conn) != version:
            return
    _store_later(engine, sitemap_key(n, base), version, packer(body, 6), len(body), SITEMAP_KEEP)
