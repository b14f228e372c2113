"""Stored renders through HTTP: og.png rendered once per SVG and read back, a new image when the data changes;
sitemap pages stored gzip-compressed per data version, served compressed or plain, made again after an
import."""

from __future__ import annotations

import gzip
import time
from datetime import UTC, datetime

from lxml import etree
from sqlalchemy import func, select, update

from regintel.areas.pages import queries, renders
from regintel.areas.pages.tables import page_renders
from regintel.db.schema import companies as companies_table
from regintel.domain.types import CompanyRecord
from regintel.render import svg
from tests.builders import load_companies

PNG = "/api/v1/public/check/31322832/og.png?country=sk"
SVG = "/api/v1/public/check/31322832/og.svg?country=sk"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _stored(engine, prefix: str) -> dict[str, bytes]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(page_renders.c.key, page_renders.c.body).where(page_renders.c.key.like(prefix))
        )
        return {k: bytes(b) for k, b in rows}


def _wait_for(engine, prefix: str, count: int) -> dict[str, bytes]:
    deadline = time.monotonic() + 20  # the write runs in a thread after the answer
    while len(found := _stored(engine, prefix)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


def test_og_png_is_rendered_once_and_read_back(client, companies, engine):
    first = client.get(PNG)
    assert first.status_code == 200 and first.content[:8] == b"\x89PNG\r\n\x1a\n"
    key = f"og:{renders.digest(client.get(SVG).text)}"
    assert _wait_for(engine, "og:%", 1) == {key: first.content}
    marker = first.content + b"stored"  # bytes no render gives: an answer with them came from the table
    with engine.begin() as conn:
        conn.execute(update(page_renders).where(page_renders.c.key == key).values(body=marker))
    svg.to_png.cache_clear()
    assert client.get(PNG).content == marker
    with engine.begin() as conn:  # new data, new SVG: a new image under a new key, the old one stays
        conn.execute(
            update(companies_table)
            .where(companies_table.c.national_id == "31322832")
            .values(name="SLOVNAFT renamed")
        )
    renamed = client.get(PNG)
    assert renamed.content[:4] == b"\x89PNG" and renamed.content != marker
    assert len(_wait_for(engine, "og:%", 2)) == 2


def test_topic_og_png_uses_the_same_store(client, companies, engine):
    resp = client.get("/api/v1/public/nis2-checker/og.png")
    assert resp.status_code == 200 and resp.content[:4] == b"\x89PNG"
    source = client.get("/api/v1/public/nis2-checker/og.svg").text
    assert _wait_for(engine, "og:%", 1) == {f"og:{renders.digest(source)}": resp.content}


def test_sitemap_page_is_stored_per_data_version(client, companies, engine):
    live = client.get("/sitemap-firma-1.xml")
    assert live.status_code == 200 and "content-encoding" not in live.headers  # streamed the first time
    urls = etree.fromstring(live.content).findall(f"{SM}url")
    assert len(urls) == 12
    stored = _wait_for(engine, "sitemap:%", 1)
    assert [gzip.decompress(b) for b in stored.values()] == [live.content]
    packed = client.get("/sitemap-firma-1.xml", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["content-encoding"] == "gzip" and packed.content == live.content  # httpx unpacks
    plain = client.get("/sitemap-firma-1.xml", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == live.content
    assert "accept-encoding" in plain.headers["vary"].lower()
    load_companies(engine, CompanyRecord(country="SK", national_id="50000012", name="Nová firma s.r.o."))
    after = client.get("/sitemap-firma-1.xml", headers={"Accept-Encoding": "gzip"})
    locs = [u.findtext(f"{SM}loc") for u in etree.fromstring(after.content).findall(f"{SM}url")]
    assert len(locs) == 13 and "http://testserver/firma/sk/50000012" in locs  # the import moved the version
    assert "content-encoding" not in after.headers  # made again, live


def test_stored_renders_are_bounded(engine):
    now = datetime.now(UTC)
    with engine.begin() as conn:
        for i in range(4):
            queries.store_render(conn, f"og:{i}", None, b"x", 1, now.replace(microsecond=i), keep=2)
        queries.store_render(conn, "sitemap:1:a", "v", b"y", 1, now, keep=2)
        kept = conn.execute(select(page_renders.c.key).order_by(page_renders.c.key)).scalars().all()
        assert kept == ["og:2", "og:3", "sitemap:1:a"]  # the oldest og renders went; other kinds stay
        assert conn.execute(select(func.count()).select_from(page_renders)).scalar() == 3
