"""The sitemaps validate against the sitemaps.org 0.9 XML Schemas (sitemap_schemas/README.md), through HTTP:
the index, a page streamed live and the same page served from the store, the hot sitemap; and a page that
breaks the schema is refused by it (so the check can fail)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from lxml import etree

from tests.pages.test_renders import _wait_for

SCHEMAS = Path(__file__).parent / "sitemap_schemas"


@pytest.fixture(scope="module")
def urlset() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "sitemap.xsd")))


@pytest.fixture(scope="module")
def siteindex() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(SCHEMAS / "siteindex.xsd")))


def _valid(schema: etree.XMLSchema, body: bytes) -> bool:
    ok = schema.validate(etree.fromstring(body))
    assert ok, schema.error_log.last_error
    return ok


def test_index_validates(client, companies, siteindex):
    resp = client.get("/sitemap-firma.xml")
    assert resp.status_code == 200 and _valid(siteindex, resp.content)


def test_pages_validate_live_and_stored(client, companies, engine, urlset):
    live = client.get("/sitemap-firma-1.xml")
    assert "content-encoding" not in live.headers and _valid(urlset, live.content)
    stored = _wait_for(engine, "sitemap:%", 1)
    assert [_valid(urlset, gzip.decompress(body)) for body in stored.values()] == [True]
    served = client.get("/sitemap-firma-1.xml", headers={"Accept-Encoding": "gzip"})
    assert served.headers["content-encoding"] == "gzip" and _valid(urlset, served.content)


def test_hot_sitemap_validates(client, companies, urlset):
    resp = client.get("/sitemap-firma-hot.xml")
    assert resp.status_code == 200 and _valid(urlset, resp.content)


def test_the_schemas_refuse_what_the_protocol_forbids(client, companies, urlset, siteindex):
    page = client.get("/sitemap-firma-1.xml").content
    assert not urlset.validate(etree.fromstring(page.replace(b"<lastmod>", b"<lastmod>x", 1)))
    assert not urlset.validate(
        etree.fromstring(page.replace(b"<loc>", b"<where>", 1).replace(b"</loc>", b"</where>", 1))
    )
    assert not siteindex.validate(etree.fromstring(page))  # a urlset is not an index
