"""Renders made ahead by the worker, through HTTP: once the data version settles at a new value the worker
queues `pages.sitemaps` and `pages.og-ahead`; after they ran, the first request for a sitemap page is served
from the store (gzip-compressed, as stored) and equals the live answer, and the most viewed company's and the
topic pages' images are read back, not rendered."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from lxml import etree
from sqlalchemy import delete, select, update

from regintel.api.app import create_app
from regintel.areas.pages import renders
from regintel.areas.pages.tables import page_renders
from regintel.config import Settings
from regintel.db.schema import jobs
from regintel.domain.types import CompanyRecord
from regintel.jobs.runner import run_due
from regintel.jobs.stats_refresh import StatsRefresher
from regintel.render import svg
from tests.builders import load_companies

PAGE = "/sitemap-firma-1.xml"
GZIP = {"Accept-Encoding": "gzip"}
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _settle_and_run(engine, settings, refresher: StatsRefresher) -> set[str]:
    refresher.poll()  # the first look at a new version: it may still be moving
    refresher.poll()
    with engine.connect() as conn:
        kinds = set(conn.execute(select(jobs.c.kind).where(jobs.c.status == "queued")).scalars())
    while run_due(engine, settings, "test-worker"):
        pass
    return kinds


def _bases(engine, settings) -> list[str]:
    deadline = time.monotonic() + 20  # the page and its base are written in a thread after the answer
    while True:
        with engine.connect() as conn:
            found = renders.sitemap_bases(conn, settings)
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _live(client, engine) -> bytes:
    with engine.begin() as conn:  # nothing stored: the page is streamed from the database
        conn.execute(delete(page_renders).where(page_renders.c.key.like("sitemap:%")))
    resp = client.get(PAGE, headers=GZIP)
    assert "content-encoding" not in resp.headers
    return resp.content


def test_worker_writes_the_sitemap_pages_of_a_new_version(client, companies, engine, settings):
    refresher = StatsRefresher(engine)
    assert {"pages.sitemaps", "pages.og-ahead"} <= _settle_and_run(engine, settings, refresher)
    stored = client.get(PAGE, headers=GZIP)
    assert stored.status_code == 200 and stored.headers["content-encoding"] == "gzip"  # the first request
    assert stored.content == _live(client, engine)
    load_companies(engine, CompanyRecord(country="SK", national_id="50000012", name="Nová firma s.r.o."))
    assert "pages.sitemaps" in _settle_and_run(engine, settings, refresher)
    after = client.get(PAGE, headers=GZIP)
    assert after.headers["content-encoding"] == "gzip"
    locs = [u.findtext(f"{SM}loc") for u in etree.fromstring(after.content).findall(f"{SM}url")]
    assert "http://testserver/firma/sk/50000012" in locs and after.content == _live(client, engine)
    assert _settle_and_run(engine, settings, refresher) == set()  # the same version: nothing queued again


def test_without_a_base_url_the_pages_follow_the_addresses_asked(companies, engine, settings, tmp_path):
    plain = Settings(database_url=settings.database_url, data_dir=tmp_path / "d", rate_limit_storage="memory")
    assert "base_url" not in plain.model_fields_set
    with TestClient(create_app(plain)) as client:
        refresher = StatsRefresher(engine)
        _settle_and_run(engine, plain, refresher)  # no address known yet: nothing to write
        assert "content-encoding" not in client.get(PAGE, headers=GZIP).headers  # live; its base is kept
        assert _bases(engine, plain) == ["http://testserver"]
        load_companies(engine, CompanyRecord(country="SK", national_id="50000021", name="Druhá s.r.o."))
        _settle_and_run(engine, plain, refresher)
        stored = client.get(PAGE, headers=GZIP)
        assert stored.headers["content-encoding"] == "gzip" and b"/firma/sk/50000021<" in stored.content


def test_worker_renders_the_likely_shared_images_ahead(client, companies, engine, settings):
    client.get("/api/v1/public/check/31322832.json?country=sk")  # a view: the most viewed company
    client.app.state.page_view_counter.flush()
    _settle_and_run(engine, settings, StatsRefresher(engine))
    for path in (
        "/api/v1/public/check/31322832/og",
        "/api/v1/public/nis2-checker/og",
        "/api/v1/public/privacy/og",
    ):
        key = f"og:{renders.digest(client.get(path + '.svg').text)}"
        with engine.begin() as conn:  # bytes no render gives: an answer with them came from the store
            done = conn.execute(update(page_renders).where(page_renders.c.key == key).values(body=b"marker"))
            assert done.rowcount == 1
        svg.to_png.cache_clear()
        assert client.get(path + ".png").content == b"marker"
    with engine.connect() as conn:
        assert (
            conn.execute(select(jobs.c.result).where(jobs.c.kind == "pages.og-ahead")).scalar()["rendered"]
            > 3
        )
