"""The sitemaps validate against the sitemaps.org 0.9 XML Schemas (sitemap_schemas/README.md), through HTTP:
the index, a page streamed live and the same page served from the store, the hot sitemap; and a page that
breaks the schema is refused by it (so the check can fail). The schema wants at least one entry in a document,
so an id range that holds no company is no page: the index leaves it out and asking for it gives 404, as
does every sitemap of a database with no company."""

from __future__ import annotations

import gzip
from datetime import UTC, datetime
from pathlib import Path

import pytest
from lxml import etree
from sqlalchemy import insert

from regintel.areas.pages import renders
from regintel.areas.pages.service import SITEMAP_URLS
from regintel.db.schema import companies as companies_table
from tests.helpers import assert_error
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


def _company_at(engine, company_id: int, national_id: str) -> None:
    """A company with an id in a later range, as after companies were removed (ids are never reused; the
    loader takes the next one, so the row is written as is)."""
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            insert(companies_table).values(
                id=company_id,
                country="SK",
                national_id=national_id,
                name="Ďaleká s.r.o.",
                name_norm="daleka",
                source="test_register",
                created_at=now,
                updated_at=now,
            )
        )


def _locs(body: bytes) -> list[str]:
    return [e.text for e in etree.fromstring(body).iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]


def test_a_range_without_companies_is_no_page(client, companies, engine, settings, urlset, siteindex):
    _company_at(engine, 2 * SITEMAP_URLS + 7, "50000101")  # in the third range; the second holds none
    index = client.get("/sitemap-firma.xml")
    assert index.status_code == 200 and _valid(siteindex, index.content)
    listed = [loc.rsplit("/", 1)[1] for loc in _locs(index.content)]
    assert listed == ["sitemap-firma-hot.xml", "sitemap-firma-1.xml", "sitemap-firma-3.xml"]
    for name in listed:  # every page the index names is a valid urlset
        page = client.get(f"/{name}")
        assert page.status_code == 200 and _valid(urlset, page.content)
    assert _locs(client.get("/sitemap-firma-3.xml").content) == ["http://testserver/firma/sk/50000101"]
    for n in (2, 4, 10**6):  # the empty range, the first past the data, the last the path allows
        assert_error(client.get(f"/sitemap-firma-{n}.xml"), 404, "NOT_FOUND")


def test_the_worker_stores_only_pages_with_urls(client, companies, engine, settings, urlset):
    _company_at(engine, 2 * SITEMAP_URLS + 7, "50000101")
    assert renders.store_sitemaps(engine, settings)["written"] == 2
    for n in (1, 3):
        stored = client.get(f"/sitemap-firma-{n}.xml", headers={"Accept-Encoding": "gzip"})
        assert stored.headers["content-encoding"] == "gzip" and _valid(urlset, stored.content)
    assert_error(client.get("/sitemap-firma-2.xml"), 404, "NOT_FOUND")


def test_no_sitemap_without_companies(client):
    for path in ("/sitemap-firma.xml", "/sitemap-firma-hot.xml", "/sitemap-firma-1.xml"):
        assert_error(client.get(path), 404, "NOT_FOUND")
