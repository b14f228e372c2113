"""NUTS 3 regions: counts per region with names, the GeoJSON maps with the bundled geometry, the heat map
(server-drawn SVG) and the regions page, through HTTP."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from lxml import etree
from lxml import html as lxml_html

from regintel.areas.pages import regions
from regintel.domain.types import CompanyRecord
from tests.builders import load_companies
from tests.helpers import assert_error

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_bundled_geometry_covers_every_region_of_the_mapped_markets():
    names = regions.nuts_names()
    shapes = regions.geometry()
    expected = {
        c
        for c in names
        if c[:2] in regions.LEVELS and len(c) == 2 + regions.LEVELS[c[:2]] and not c.endswith("Z")
    }
    assert set(shapes) == expected
    per_country = {cc: sum(1 for c in shapes if c[:2] == cc) for cc in regions.LEVELS}
    assert per_country == {
        "SK": 8, "CZ": 14, "FR": 101, "RO": 42, "CH": 26, "BG": 28, "LT": 10, "AT": 9, "BE": 11, "DK": 5
    }  # fmt: skip
    for code, geom in shapes.items():
        assert geom["type"] in ("Polygon", "MultiPolygon"), code
        ring = geom["coordinates"][0] if geom["type"] == "Polygon" else geom["coordinates"][0][0]
        assert ring[0] == ring[-1] and len(ring) >= 4  # closed rings (RFC 7946)
        if code[:2] in ("SK", "CZ"):
            assert all(12 < x < 23 and 47 < y < 52 for x, y in ring), code  # WGS 84 within SK/CZ
        elif not code.startswith("FRY"):
            assert all(-6 < x < 30 and 41 < y < 58 for x, y in ring), code  # in Europe


def test_maps_of_the_other_markets(client, engine):
    load_companies(
        engine,
        CompanyRecord(
            country="AT", national_id="123456a", name="Wiener GmbH", nuts3="AT130", status="active"
        ),
        CompanyRecord(
            country="AT", national_id="234567b", name="Grazer GmbH", nuts3="AT221", status="active"
        ),
        CompanyRecord(
            country="AT", national_id="345678c", name="Leobner AG", nuts3="AT223", status="dissolved"
        ),
        CompanyRecord(country="FR", national_id="552100554", name="Lyon SA", nuts3="FRK26", status="active"),
    )
    at = json.loads(client.get("/maps/nuts2-at.geojson").content)
    props = {f["id"]: f["properties"] for f in at["features"]}
    assert len(props) == 9 and props["AT13"]["companies"] == 1 and props["AT13"]["name"] == "Wien"
    assert props["AT22"]["companies"] == 2 and props["AT22"]["active"] == 1  # two NUTS 3 regions summed
    assert props["AT22"]["level"] == 2 and props["AT11"]["companies"] == 0
    fr = json.loads(client.get("/maps/nuts3-fr.geojson").content)
    assert len(fr["features"]) == 101 and {f["properties"]["country"] for f in fr["features"]} == {"FR"}
    assert next(f for f in fr["features"] if f["id"] == "FRK26")["properties"]["companies"] == 1
    for name, count in [("nuts3-ro", 42), ("nuts3-ch", 26), ("nuts3-bg", 28), ("nuts3-lt", 10)]:
        assert len(json.loads(client.get(f"/maps/{name}.geojson").content)["features"]) == count
    assert [
        len(json.loads(client.get(f"/maps/nuts2-{c}.geojson").content)["features"]) for c in "be dk".split()
    ] == [
        11,
        5,
    ]
    assert_error(client.get("/maps/nuts3-de.geojson"), 404, "NOT_FOUND")  # no bundled geometry
    assert_error(client.get("/maps/nuts3-at.geojson"), 404, "NOT_FOUND")  # Austria is mapped at NUTS 2

    page = lxml_html.fromstring(client.get("/heatmap?country=at&lang=en").text)
    assert page.findtext(".//h1") == "Company heat map: Austria"
    titles = [p.find("title").text for p in page.findall(".//svg[@class='map']/path")]
    assert len(titles) == 9 and "Steiermark (AT22): 2" in titles
    assert "NUTS 2" in page.findtext(".//thead//th")
    assert page.xpath("//a[contains(@href, 'nuts2-at.geojson')]")
    fr_page = lxml_html.fromstring(client.get("/heatmap?country=fr&lang=sk").text)
    assert len(fr_page.findall(".//svg[@class='map']/path")) == 96  # the five outermost regions not drawn
    assert len(fr_page.findall(".//tbody/tr")) == 101 and "Guyane (FRY30)" in fr_page.text_content()
    assert fr_page.findtext(".//h1") == "Mapa firiem podľa krajov: Francúzsko"


def test_heatmap_of_a_country_without_a_map(client, engine):
    load_companies(engine, CompanyRecord(country="DE", national_id="HRB1", name="Kölner GmbH", nuts3="DEA23"))
    resp = client.get("/heatmap?country=de&lang=en")
    assert resp.status_code == 200
    doc = lxml_html.fromstring(resp.text)
    assert doc.find(".//svg[@class='map']") is None
    assert "There is no region map of Germany" in doc.text_content()
    assert [td.text_content() for td in doc.findall(".//tbody/tr/td")] == [
        "DEA23",
        "Köln, Kreisfreie Stadt",
        "1",
    ]
    assert "no region map" not in client.get("/heatmap?country=sk&lang=en").text
    assert_error(client.get("/heatmap?country=deu"), 422, "VALIDATION_ERROR")


def test_geojson_map(client, companies):
    resp = client.get("/maps/nuts3.geojson")
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/geo+json"
    assert resp.headers["cache-control"] == "public, max-age=3600"
    doc = json.loads(resp.content)
    assert doc["type"] == "FeatureCollection" and "Natural Earth" in doc["attribution"]
    props = {f["id"]: f["properties"] for f in doc["features"]}
    assert len(props) == 22
    assert props["SK010"]["companies"] == 3 and props["SK010"]["name"] == "Bratislavský kraj"
    assert props["SK031"]["companies"] == 1 and props["CZ020"]["companies"] == 1
    assert props["SK042"]["companies"] == 0  # a region without companies is on the map with 0
    sk = json.loads(client.get("/maps/nuts3-sk.geojson").content)
    assert {f["id"][:2] for f in sk["features"]} == {"SK"} and len(sk["features"]) == 8
    assert len(json.loads(client.get("/maps/nuts3-cz.geojson").content)["features"]) == 14
    again = client.get("/maps/nuts3.geojson", headers={"If-None-Match": resp.headers["etag"]})
    assert again.status_code == 304
    assert_error(client.get("/maps/nuts2.geojson"), 404, "NOT_FOUND")
    assert_error(client.get("/maps/%3Cscript%3E.geojson"), 404, "NOT_FOUND")
    assert_error(client.get(f"/maps/{'x' * 41}.geojson"), 422, "VALIDATION_ERROR")


def test_counts_follow_new_imports(client, companies, engine):
    before = {
        f["id"]: f["properties"]["companies"]
        for f in json.loads(client.get("/maps/nuts3-sk.geojson").content)["features"]
    }
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="50000004",
            name="Košická firma s.r.o.",
            nuts3="SK042",
            status="dissolved",
        ),
    )
    after = {
        f["id"]: f["properties"] for f in json.loads(client.get("/maps/nuts3-sk.geojson").content)["features"]
    }
    assert before["SK042"] == 0 and after["SK042"]["companies"] == 1 and after["SK042"]["active"] == 0


def test_heatmap_page(client, companies):
    resp = client.get("/heatmap")
    assert resp.status_code == 200 and "default-src 'none'" in resp.headers["content-security-policy"]
    doc = lxml_html.fromstring(resp.text)
    assert doc.get("lang") == "sk" and doc.find(".//h1").text == "Mapa firiem podľa krajov"
    svg = etree.fromstring(etree.tostring(doc.find(".//svg")))
    paths = svg.findall(".//path")
    assert len(paths) == 22
    titles = [p.find("title").text for p in paths]
    assert "Bratislavský kraj (SK010): 3" in titles
    fills = {p.find("title").text.split(" (")[0]: p.get("fill") for p in paths}
    assert fills["Bratislavský kraj"] == regions.SCALE[4] and fills["Košický kraj"] == regions.SCALE[0]
    assert doc.find(".//script") is None  # drawn on the server: no script
    en = client.get("/heatmap?lang=en")
    assert "Company heat map" in en.text and 'hreflang="sk"' in en.text
    assert_error(client.get("/heatmap?lang=de"), 422, "VALIDATION_ERROR")


def test_heatmap_of_an_empty_database(client):
    resp = client.get("/heatmap?lang=en")
    assert resp.status_code == 200 and "more (0)" in resp.text
    assert resp.text.count(f'fill="{regions.SCALE[0]}"><title>') == 22  # every region in the lightest class


def test_regions_page(client, companies):
    resp = client.get("/firmy-kraj")
    assert resp.status_code == 200
    cells = [
        [td.text_content() for td in tr.findall("td")]
        for tr in lxml_html.fromstring(resp.text).findall(".//tbody/tr")
    ]
    assert cells[0][:4] == ["SK010", "Bratislavský kraj", "SK", "3"]
    assert {c[0] for c in cells} >= {"SK010", "SK031", "CZ020"}
    cz = client.get("/firmy-kraj?country=cz&lang=en")
    rows = lxml_html.fromstring(cz.text).findall(".//tbody/tr")
    assert {r.findall("td")[2].text_content() for r in rows} == {"CZ"} and "Companies by region" in cz.text
    assert "No record carries" in client.get("/firmy-kraj?country=at&lang=en").text
    assert_error(client.get("/firmy-kraj?country=xyz"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/firmy-kraj?bogus=1"), 422, "VALIDATION_ERROR")


def test_stats_refresh_computes_the_region_counts(client, companies, engine):
    """`regintel stats refresh` (the end of imports, the worker) stores the counts for the data version, so
    the first page after an import reads them; the snapshot is what the pages then serve."""
    from regintel.areas.stats.snapshots import refresh
    from regintel.db import stats_snapshots as snapshots_db
    from regintel.db.stats import data_version

    assert regions.SNAPSHOT_KEY in refresh(engine)
    with engine.connect() as conn:
        stored = snapshots_db.find_snapshot(conn, regions.SNAPSHOT_KEY, data_version(conn))
        assert stored == regions.compute_counts(conn) and stored != []
    assert regions.SNAPSHOT_KEY not in refresh(engine)  # current: not computed again
    marked = [dict(stored[0], companies=987654)] + stored[1:]
    with engine.begin() as conn:  # a stored figure no live count gives shows that the page reads the snapshot
        snapshots_db.record_snapshot(
            conn, regions.SNAPSHOT_KEY, data_version(conn), marked, datetime.now(UTC)
        )
    page = client.get(f"/firmy-kraj?country={stored[0]['country'].lower()}&lang=en")
    assert "987\u202f654" in page.text
