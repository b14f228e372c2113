"""Rankings, most viewed, compare, root-level pages, sitemaps, CSP reports and the dashboard, through HTTP."""

from __future__ import annotations

import csv
import io
import json
import re

from lxml import etree, html

from tests.helpers import assert_envelope, assert_error
from tests.pages.conftest import HOSTILE, HOSTILE_ID

PUB = "/api/v1/public"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def _views(client, ico, n, country="sk"):
    for _ in range(n):
        client.get(f"{PUB}/check/{ico}.json?country={country}")
    client.app.state.page_view_counter.flush()


def test_most_viewed(client, companies):
    assert assert_envelope(client.get(f"{PUB}/most-viewed")) == []
    _views(client, "31322832", 3)
    _views(client, HOSTILE_ID, 1)
    _views(client, "00177041", 2, "cz")
    items = assert_envelope(client.get(f"{PUB}/most-viewed"))
    assert [(i["national_id"], i["views"], i["rank"]) for i in items] == [
        ("31322832", 3, 1),
        ("00177041", 2, 2),
        (HOSTILE_ID, 1, 3),
    ]
    assert [i["national_id"] for i in assert_envelope(client.get(f"{PUB}/most-viewed?country=CZ"))] == [
        "00177041"
    ]
    assert len(assert_envelope(client.get(f"{PUB}/most-viewed?limit=1"))) == 1
    assert_error(client.get(f"{PUB}/most-viewed?limit=101"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/most-viewed?country=xyz"), 422, "VALIDATION_ERROR")


def test_rankings(client, companies):
    index = assert_envelope(client.get(f"{PUB}/rankings.json"))
    assert {e["key"] for e in index} == {"largest", "public-contracts", "shell-addresses", "most-viewed"}
    resp = client.get(f"{PUB}/rankings/largest.json")
    assert resp.headers["cache-control"] == "public, max-age=900"
    items = assert_envelope(resp)["items"]
    assert [i["national_id"] for i in items] == ["31322832", "552100554", "35757442"]  # EUR only
    czk = assert_envelope(client.get(f"{PUB}/rankings/largest.json?currency=czk"))["items"]
    assert [i["national_id"] for i in czk] == ["00177041"]
    sk = assert_envelope(client.get(f"{PUB}/rankings/largest.json?country=fr"))["items"]
    assert [i["national_id"] for i in sk] == ["552100554"]
    shells = assert_envelope(client.get(f"{PUB}/rankings/shell-addresses.json"))["items"]
    assert shells[0]["companies"] == 3 and shells[0]["city"] == "Bratislava"
    assert assert_envelope(client.get(f"{PUB}/rankings/public-contracts.json"))["items"] == []  # not computed
    assert_error(client.get(f"{PUB}/rankings/nope.json"), 404, "NOT_FOUND")
    assert_error(client.get(f"{PUB}/rankings/largest.json?limit=0"), 422, "VALIDATION_ERROR")


def test_ranking_csv(client, companies):
    resp = client.get(f"{PUB}/rankings/largest.csv")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/csv")
    lines = [line for line in resp.text.splitlines() if not line.startswith("#")]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    assert rows[0]["national_id"] == "31322832" and rows[0]["rank"] == "1"
    shells = client.get(f"{PUB}/rankings/shell-addresses.csv").text
    assert "Bratislava" in shells
    empty = client.get(f"{PUB}/rankings/most-viewed.csv")
    assert empty.status_code == 200


def test_compare(client, companies):
    data = assert_envelope(client.get(f"{PUB}/compare.json?companies=sk:31322832,cz:00177041"))
    assert [c["name"] for c in data["companies"]] == ["SLOVNAFT, a.s.", "ŠKODA AUTO a.s."]
    same = assert_envelope(client.get(f"{PUB}/compare-companies.json?companies=sk:31322832,cz:00177041"))
    assert same == data
    assert_error(client.get(f"{PUB}/compare.json?companies=sk:31322832"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/compare.json"), 422, "VALIDATION_ERROR")
    six = ",".join(["sk:31322832"] * 6)
    assert_error(client.get(f"{PUB}/compare.json?companies={six}"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/compare.json?companies=sk:31322832,sk:31322832"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/compare.json?companies=sk:31322832,sk:50000004"), 404, "NOT_FOUND")
    assert_error(client.get(f"{PUB}/compare.json?companies=31322832,35757442"), 409, "AMBIGUOUS_IDENTIFIER")
    assert_error(client.get(f"{PUB}/compare.json?companies=s1:31322832,sk:1"), 422, "VALIDATION_ERROR")
    page = client.get(f"{PUB}/compare?companies=sk:31322832,sk:{HOSTILE_ID}")
    assert page.status_code == 200 and "SLOVNAFT" in page.text and "<script>alert" not in page.text
    assert client.get(f"{PUB}/compare-companies").status_code == 200  # the empty form
    assert client.get(f"{PUB}/compare?companies=sk:31322832").status_code == 422


def _doc(resp):
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in resp.headers["content-security-policy"]
    return html.fromstring(resp.text)


def test_landing(client, companies):
    doc = _doc(client.get("/"))
    links = {a.get("href") for a in doc.iter("a")}
    assert {"/api/v1/public/swagger", "/api/v1/docs", "/api/v1/docs/quickstart"} <= links
    assert "regintel keys create" in doc.text_content()
    assert doc.xpath("//div[@class='stat']/b")[0].text_content() == "12"  # live count of entities


def test_company_page(client, companies):
    resp = client.get(f"/firma/sk/{HOSTILE_ID}")
    doc = _doc(resp)
    assert "<script>alert" not in resp.text and HOSTILE in doc.text_content()
    assert doc.find(".//h1").text_content() == HOSTILE
    assert doc.xpath("//meta[@property='og:image']/@content")[0].endswith("/og.png?country=sk")
    ld = json.loads(doc.xpath("//script[@type='application/ld+json']")[0].text)
    assert ld["@type"] == "Organization" and ld["name"] == HOSTILE
    assert "</script>" not in doc.xpath("//script[@type='application/ld+json']")[0].text
    imgs = [i.get("src") for i in doc.iter("img")]
    assert len(imgs) == 4 and all(client.get(src).status_code == 200 for src in imgs)
    assert client.app.state.page_view_counter.pending(_id(client, HOSTILE_ID)) >= 1
    assert_error(client.get("/firma/sk/50000004"), 404, "NOT_FOUND")
    assert_error(client.get("/firma/s1/31322832"), 422, "VALIDATION_ERROR")
    assert_error(client.get("/firma/sk/31322832?x=1"), 422, "VALIDATION_ERROR")
    assert _doc(client.get("/firma/cz/35757442")).find(".//h1").text_content() == "Stavby Brno s.r.o."


def _id(client, ico):
    from regintel.areas.companies.service import resolve_ico

    with client.app.state.engine.connect() as conn:
        return resolve_ico(conn, ico, "SK")["id"]


def test_directory_and_rankings_pages(client, companies):
    doc = _doc(client.get("/firmy/sk"))
    names = [a.text_content() for a in doc.xpath("//tbody//a")]
    assert "SLOVNAFT, a.s." in names and HOSTILE in names
    assert _doc(client.get("/firmy/pl")).xpath("//tbody") == []
    assert_error(client.get("/firmy/pol"), 422, "VALIDATION_ERROR")
    doc = _doc(client.get("/najvacsie-firmy"))
    assert doc.xpath("//tbody/tr[1]//a")[0].text_content() == "SLOVNAFT, a.s."
    for key in ("largest", "shell-addresses", "most-viewed"):
        _doc(client.get(f"/rebricky/{key}"))
    assert client.get("/rebricky/public-contracts").status_code == 200
    assert_error(client.get("/rebricky/unknown"), 404, "NOT_FOUND")


def test_coverage(client, companies):
    data = assert_envelope(client.get("/coverage.json"))
    assert data["entities"] == 12 and {c["country"] for c in data["countries"]} >= {"SK", "CZ", "FR"}
    doc = _doc(client.get("/coverage"))
    assert "SK" in [a.text_content() for a in doc.xpath("//tbody//a")]


def test_sitemaps(client, companies):
    index = etree.fromstring(client.get("/sitemap-firma.xml").content)
    locs = [e.text for e in index.iter(f"{SM}loc")]
    assert locs == ["http://testserver/sitemap-firma-hot.xml", "http://testserver/sitemap-firma-1.xml"]
    page = client.get("/sitemap-firma-1.xml")
    assert page.headers["content-type"].startswith("application/xml")
    urls = etree.fromstring(page.content).findall(f"{SM}url")
    assert len(urls) == 12
    assert "http://testserver/firma/sk/31322832" in [u.findtext(f"{SM}loc") for u in urls]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d", u.findtext(f"{SM}lastmod")) for u in urls)
    hot = etree.fromstring(client.get("/sitemap-firma-hot.xml").content)
    assert len(hot.findall(f"{SM}url")) == 12
    assert_error(client.get("/sitemap-firma-2.xml"), 404, "NOT_FOUND")
    assert client.get("/sitemap-firma-0.xml").status_code == 422


def test_hot_sitemap_is_newest_first(client, engine, companies):
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import select, update

    from regintel.db.schema import companies as table

    with engine.begin() as conn:
        ids = [r.id for r in conn.execute(select(table.c.id).order_by(table.c.id))]
        # the oldest company touched last, and two tied just before it: newest first, ties by id
        now = datetime.now(UTC)
        conn.execute(update(table).where(table.c.id == ids[0]).values(updated_at=now + timedelta(days=2)))
        conn.execute(update(table).where(table.c.id.in_(ids[1:3])).values(updated_at=now + timedelta(days=1)))
        wanted = [
            f"http://testserver/firma/{r.country.lower()}/{r.national_id}"
            for r in conn.execute(
                select(table.c.country, table.c.national_id).order_by(
                    table.c.updated_at.desc(), table.c.id.desc()
                )
            )
        ]
    hot = etree.fromstring(client.get("/sitemap-firma-hot.xml").content)
    locs = [u.findtext(f"{SM}loc") for u in hot.findall(f"{SM}url")]
    assert locs == wanted and len(locs) == 12


def test_sitemap_of_empty_database(client):
    for path in ("/sitemap-firma.xml", "/sitemap-firma-hot.xml", "/sitemap-firma-1.xml"):
        assert_error(client.get(path), 404, "NOT_FOUND")  # no document rather than one with no entry


def test_root_badge_and_generator(client, companies):
    resp = client.get("/badge/sk/31322832.svg")
    assert etree.fromstring(resp.content).tag.endswith("svg")
    assert_error(client.get("/badge/sk/50000004.svg"), 404, "NOT_FOUND")
    _doc(client.get("/badge-generator"))
    doc = _doc(client.get(f"/badge-generator?cc=sk&ico={HOSTILE_ID}"))
    assert len(doc.xpath("//img")) == 4 and "<script>alert" not in html.tostring(doc, encoding="unicode")
    missing = client.get("/badge-generator?cc=sk&ico=50000004")
    assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]


def test_csp_report(client, engine):
    from regintel.areas.pages import queries

    report = {
        "csp-report": {
            "document-uri": "http://testserver/",
            "violated-directive": "img-src",
            "blocked-uri": "https://evil.example/x.png",
        }
    }
    resp = client.post(
        "/csp-report", content=json.dumps(report), headers={"Content-Type": "application/csp-report"}
    )
    assert resp.status_code == 204
    modern = [
        {
            "type": "csp-violation",
            "body": {
                "documentURL": "http://testserver/",
                "effectiveDirective": "style-src",
                "blockedURL": "inline",
            },
        }
    ]
    assert client.post("/csp-report", json=modern).status_code == 204
    with engine.connect() as conn:
        assert queries.csp_report_count(conn) == 2
    assert_error(client.post("/csp-report", content=b"x" * 20000), 422, "VALIDATION_ERROR")
    assert_error(client.post("/csp-report", content=b"not json"), 422, "VALIDATION_ERROR")
    assert_error(client.post("/csp-report", json={"other": 1}), 422, "VALIDATION_ERROR")


def test_csp_reports_are_bounded(engine):
    from datetime import UTC, datetime

    from regintel.areas.pages import queries

    with engine.begin() as conn:
        for i in range(7):
            queries.store_csp_report(
                conn, {"received_at": datetime.now(UTC), "body": {"i": i}, "size": 1}, keep=5
            )
        assert queries.csp_report_count(conn) == 5


def test_dashboard(client, api_key):
    assert_error(client.get("/dashboard"), 401, "UNAUTHORIZED")
    resp = client.get(f"/dashboard?api_key={api_key}")
    doc = _doc(resp)
    assert api_key not in resp.text
    assert "business" in doc.text_content().lower() and "/ 2000000" in doc.text_content().replace(",", "")
    assert resp.headers["cache-control"] == "private, no-store"
