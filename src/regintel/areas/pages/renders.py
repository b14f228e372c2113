"""Renders made once and read back (`page_renders`, docs/pages.md "Stored renders"), for the two answers
that cost more than the 100 ms of issue 21 to make:

- **og.png**: resvg takes about 0.2 s of CPU per 1200x630 image. The PNG is stored under the SHA-256 of its
  SVG, so a company whose data changed gets a new image and an unchanged one is never rendered twice, in
  any process or on any host. The first request for an SVG renders it; the write runs in a thread of its
  own, after the answer.
- **Sitemap pages**: 50,000 URLs are 4 MB of XML. A page is streamed from the database the first time it is
  asked for after the data changed, and stored gzip-compressed (about 1/10 the size) with the data version
  it was made at; later requests read the stored bytes and send them as they are (`Content-Encoding: gzip`)
  or unpacked for a client that does not take gzip.

Both are also made ahead of the requests, by jobs the worker queues each time the data version settles at a
new value (`jobs.py`): `pages.sitemaps` writes every sitemap page of the new version, so a request streams a
page live only when the worker has not got to it yet; `pages.og-ahead` renders the images most likely to be
shared (the topic, policy and directory pages', the most viewed companies'). A sitemap page is written for
the public base address: `REGINTEL_BASE_URL` when it is set, else each address a page was asked at before
(kept as `sitemap-base:` rows, since the Host header of a request decides it)."""

from __future__ import annotations

import gzip
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine

from regintel.config import Settings
from regintel.db.engine import begin_write
from regintel.db.stats import data_version
from regintel.db.stats_snapshots import version_text
from regintel.render import svg

from . import queries, service

log = logging.getLogger(__name__)
OG_KEEP = 20_000  # about 1.5 GB of PNGs at 75 KB each; the oldest go first
SITEMAP_KEEP = 2_000  # 100M URLs' worth of pages (for one public base address)


OG_AHEAD = 1_000  # the most viewed companies whose images the job renders ahead
# Public base addresses a sitemap was asked at, without REGINTEL_BASE_URL (the newest few: the Host header is
# the client's to choose, and the job writes every page for each base kept)
BASES_KEEP = 4
Render = tuple[str, str | None, bytes, int, int]  # key, version, body, size, keep


def _store(engine: Engine, *items: Render) -> None:
    try:
        with begin_write(engine) as conn:
            for key, version, body, size, keep in items:
                queries.store_render(conn, key, version, body, size, datetime.now(UTC), keep)
    except Exception:  # the answer went out already; the next request renders again
        log.exception("pages: could not store the renders %s", [item[0] for item in items])


def _store_later(engine: Engine, *items: Render) -> None:
    threading.Thread(target=_store, args=(engine, *items), daemon=True, name="page-render-store").start()


def digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def og_png(conn: Connection, engine: Engine, source: str) -> bytes:
    """The PNG of an og SVG: stored, else rendered now and stored after the answer."""
    key = f"og:{digest(source)}"
    stored = queries.find_render(conn, key)
    if stored is not None:
        return stored
    body = svg.to_png(source)
    _store_later(engine, (key, None, body, len(body), OG_KEEP))
    return body


def render_ahead(engine: Engine, sources: Iterable[str], stop: Callable[[], bool] = lambda: False) -> int:
    """Render and store the PNG of each SVG not stored yet; returns how many were rendered."""
    made = 0
    for source in sources:
        if stop():
            break
        key = f"og:{digest(source)}"
        with engine.connect() as conn:
            if queries.has_render(conn, key):
                continue
        body = svg.to_png(source)
        _store(engine, (key, None, body, len(body), OG_KEEP))
        made += 1
    return made


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
    _store_later(
        engine,
        (sitemap_key(n, base), version, packer(body, 6), len(body), SITEMAP_KEEP),
        (base_key(base), None, base.encode(), len(base), BASES_KEEP),
    )


def base_key(base: str) -> str:
    return f"sitemap-base:{hashlib.sha256(base.encode()).hexdigest()[:16]}"


def sitemap_bases(conn: Connection, settings: Settings) -> list[str]:
    """The public base addresses to write sitemap pages for (see the module's docstring)."""
    if "base_url" in settings.model_fields_set:  # as api.deps.public_base decides
        return [settings.base_url.rstrip("/")]
    return sorted(body.decode() for body in queries.renders_of(conn, "sitemap-base:%"))


def store_sitemaps(
    engine: Engine, settings: Settings, stop: Callable[[], bool] = lambda: False
) -> dict[str, int]:
    """Write every sitemap page of the current data version not stored yet, for each base address. Stops
    when the data moves meanwhile (the worker queues the job again once it settles): a page read across two
    versions must not pass for either."""
    with engine.connect() as conn:
        version = current_version(conn)
        pages, bases = service.sitemap_pages(conn), sitemap_bases(conn, settings)
    made = kept = 0
    for base in bases:
        for n in pages:
            if stop():
                return {"written": made, "current": kept, "stopped": 1}
            with engine.connect() as conn:
                if queries.has_render(conn, sitemap_key(n, base), version):
                    kept += 1
                    continue
                low = (n - 1) * service.SITEMAP_URLS + 1
                rows = queries.sitemap_rows(conn, low, low + service.SITEMAP_URLS)
            if not rows:  # emptied since the pages were listed: the data moved, the next run sees it
                continue
            body = "".join(service.sitemap_urls(base, rows)).encode()
            packed = gzip.compress(body, 6)
            with begin_write(engine) as conn:
                if current_version(conn) != version:
                    return {"written": made, "current": kept, "moved": 1}
                queries.store_render(
                    conn, sitemap_key(n, base), version, packed, len(body), datetime.now(UTC), SITEMAP_KEEP
                )
            made += 1
    return {"written": made, "current": kept, "bases": len(bases), "pages": len(pages)}
