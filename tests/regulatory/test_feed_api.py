"""The regulatory feed over HTTP: JSON with its filters, Atom (RFC 4287 RELAX NG grammar) and RSS 2.0
(structure and feedparser), CSV, HTML, the Markdown digest, sources and statistics; conditional GETs,
self links, and the 4xx answers of bad input."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.api.feed_checks import check_atom, check_rss
from tests.helpers import assert_envelope, assert_error
from tests.regulatory.common import FEEDS, import_all, rss, run

URL = "/api/v1/public/regulatory-feed"


@pytest.fixture
def feeds(engine, settings):
    import_all(engine, settings)


def test_json_lists_newest_first_with_tags(client, feeds):
    resp = client.get(URL)
    data = assert_envelope(resp)
    assert resp.json()["meta"]["total"] == 20 and len(data["items"]) == 20
    dates = [i["published_at"] for i in data["items"]]
    assert dates == sorted(dates, reverse=True)
    first = data["items"][0]
    assert (first["source"], first["title"], first["tags"]) == (
        "eu_eba_news",
        "EBA publishes final draft technical standards under DORA on major ICT-related incident reporting",
        ["cybersecurity", "dora"],
    )
    assert first["published_at"] == "2026-11-24T15:00:00Z" and first["guid"] == "eba-press-2026-0412"
    assert resp.headers["cache-control"] == "public, max-age=1800"
    assert "European Banking Authority" in resp.headers["x-attribution"]


@pytest.mark.parametrize(
    "params, titles",
    [
        ({"source": "CZ_CNB_NEWS"}, 4),
        ({"tag": "AML"}, 2),
        ({"tag": "sanctions"}, 1),
        ({"q": "ZATAZOVEHO"}, 1),  # folded: "záťažového"
        ({"q": "záťažového testu"}, 1),
        ({"q": "100%"}, 0),  # LIKE wildcards are literal
        ({"since": "2026-11-19"}, 6),
        ({"since": "2026-11-19T14:00:00+01:00"}, 5),
        ({"tag": "mica", "source": "eu_esma_news"}, 1),
        ({"limit": 3}, 3),
    ],
)
def test_filters(client, feeds, params, titles):
    resp = client.get(URL, params=params)
    data = assert_envelope(resp)
    assert len(data["items"]) == titles
    if "limit" not in params:
        assert resp.json()["meta"]["total"] == titles


def test_filters_are_echoed(client, feeds):
    data = assert_envelope(client.get(URL, params={"tag": "NIS2", "since": "2026-11-01"}))
    assert data["filters"] == {"source": None, "tag": "nis2", "q": None, "since": "2026-11-01T00:00:00Z"}
    assert [i["source"] for i in data["items"]] == ["eu_enisa_news"]


@pytest.mark.parametrize(
    "path, params, field",
    [
        (URL, {"source": "fr_amf"}, "source"),
        (URL, {"tag": "nis3"}, "tag"),
        (URL, {"since": "yesterday"}, "since"),
        (URL, {"since": "2026-13-01"}, "since"),
        (URL + ".csv", {"since": "2774041123"}, "since"),  # basic format: reads as a number (schemathesis)
        (URL, {"since": "20261101"}, "since"),
        (URL, {"q": ""}, "q"),
        (URL, {"q": "   "}, "q"),
        (URL, {"limit": 0}, "limit"),
        (URL, {"limit": 201}, "limit"),
        (URL + ".csv", {"limit": 501}, "limit"),
        (URL + ".csv", {"limit": 0}, "limit"),
        (URL + ".atom", {"tag": "unknown"}, "tag"),
        (URL + "/digest.md", {"hours": 0}, "hours"),
        (URL + "/digest.md", {"hours": 169}, "hours"),
        (URL, {"sorce": "eu_eba_news"}, "sorce"),
    ],
)
def test_bad_input_is_a_422(client, path, params, field):
    error = assert_error(client.get(path, params=params), 422, "VALIDATION_ERROR")
    assert field in str(error)


def test_empty_database_answers_empty_feeds(client):
    assert assert_envelope(client.get(URL))["items"] == []
    check_atom(client.get(URL + ".atom").content)
    check_rss(client.get(URL + ".rss").content)
    assert client.get(URL + ".csv").text.splitlines()[1].startswith("published_at,")
    assert "No publication matches" in client.get(URL + ".html").text
    stats = assert_envelope(client.get(URL + "/stats"))
    assert stats["total"] == 0 and stats["date_range"] == {"first": None, "last": None}


def test_atom_is_valid_with_self_link_and_categories(client, feeds):
    resp = client.get(URL + ".atom", params={"tag": "mica"})
    assert resp.headers["content-type"] == "application/atom+xml; charset=utf-8"
    parsed = check_atom(resp.content)
    links = {link["rel"]: link["href"] for link in parsed.feed.links}
    assert links["self"] == "http://testserver/api/v1/public/regulatory-feed.atom?tag=mica"
    assert links["alternate"] == "http://testserver/api/v1/public/regulatory-feed.html?tag=mica"
    assert [e.title for e in parsed.entries] == [
        "Upozornenie: subjekty ponúkajúce kryptoaktíva bez povolenia podľa nariadenia MiCA",
        "ESMA publishes guidelines for crypto-asset service providers under MiCA",
    ]
    entry = parsed.entries[1]
    assert entry.link == "https://www.esma.europa.eu/press-news/esma-news/guidelines-casps-mica"
    assert entry.id.startswith("tag:testserver,2024:regulatory:eu_esma_news:")
    assert {t.term for t in entry.tags} == {"eu_esma_news", "mica"}


def test_rss_is_valid(client, feeds):
    resp = client.get(URL + ".rss", params={"limit": 200})
    assert resp.headers["content-type"] == "application/rss+xml; charset=utf-8"
    parsed = check_rss(resp.content)
    assert len(parsed.entries) == 20
    assert parsed.feed.title == "Regulatory feed"
    assert parsed.feed.link == "http://testserver/api/v1/public/regulatory-feed.html?limit=200"


def test_self_link_follows_the_public_address(app_factory, feeds):
    client = app_factory(base_url="https://regintel.example.org")
    parsed = check_atom(client.get(URL + ".atom").content)
    assert {link["rel"]: link["href"] for link in parsed.feed.links}["self"] == (
        "https://regintel.example.org/api/v1/public/regulatory-feed.atom"
    )


@pytest.mark.parametrize("suffix", [".atom", ".rss", ".csv", ".html", "/digest.md"])
def test_conditional_get_answers_304(client, feeds, suffix):
    first = client.get(URL + suffix)
    assert first.status_code == 200 and first.headers["etag"] and first.headers["last-modified"]
    again = client.get(URL + suffix, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    since = client.get(URL + suffix, headers={"If-Modified-Since": first.headers["last-modified"]})
    assert since.status_code == 304
    stale = client.get(URL + suffix, headers={"If-None-Match": '"other"'})
    assert stale.status_code == 200


def test_a_new_import_changes_etag_and_last_modified(client, engine, settings, tmp_path):
    run(
        engine,
        settings,
        "eu_eba_news",
        rss(tmp_path / "a.xml", [("g1", "First", datetime(2026, 11, 1, tzinfo=UTC))]),
    )
    first = client.get(URL + ".atom")
    run(
        engine,
        settings,
        "eu_eba_news",
        rss(tmp_path / "b.xml", [("g2", "Second", datetime(2026, 11, 2, tzinfo=UTC))]),
    )
    second = client.get(URL + ".atom", headers={"If-None-Match": first.headers["etag"]})
    assert second.status_code == 200 and second.headers["etag"] != first.headers["etag"]


def test_csv(client, feeds):
    resp = client.get(URL + ".csv", params={"source": "sk_nbs_news"})
    assert resp.headers["content-type"] == "text/csv; charset=utf-8"
    preamble, *lines = list(csv.reader(io.StringIO(resp.text)))
    assert preamble[0].startswith("# regintel regulatory feed: Source: Národná banka Slovenska")
    rows = [dict(zip(lines[0], line, strict=True)) for line in lines[1:]]
    assert (
        len(rows) == 5
        and rows[0]["tags"] == "aml enforcement"
        and rows[0]["publisher"] == "Národná banka Slovenska"
    )
    assert rows[0]["published_at"] == "2026-11-24T14:00:00Z"
    default = client.get(URL + ".csv", params={"limit": 500})
    assert len(default.text.splitlines()) == 22


def test_csv_cells_cannot_inject_formulas(client, engine, settings, tmp_path):
    run(
        engine,
        settings,
        "eu_eba_news",
        rss(tmp_path / "f.xml", [("g", '=HYPERLINK("http://x")', datetime(2026, 11, 1, tzinfo=UTC))]),
    )
    body = client.get(URL + ".csv").text
    assert "\n'=HYPERLINK" in body or ",'=HYPERLINK" in body or "\"'=HYPERLINK" in body


def test_html_is_escaped_accessible_and_self_contained(client, engine, settings, tmp_path):
    run(
        engine,
        settings,
        "eu_eba_news",
        rss(
            tmp_path / "x.xml",
            [
                (
                    "g1",
                    "&lt;script&gt;alert(1)&lt;/script&gt; EBA &amp; AML",
                    datetime(2026, 11, 1, tzinfo=UTC),
                )
            ],
        ),
    )
    resp = client.get(URL + ".html", params={"q": "<b>alert</b>"})
    html = resp.text
    assert resp.status_code == 200 and resp.headers["content-type"] == "text/html; charset=utf-8"
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; EBA &amp; AML" not in html
    html = client.get(URL + ".html").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; EBA &amp; AML" in html and "<script" not in html
    assert '<html lang="en">' in html and "<main>" in html and '<label for="f-source">' in html
    assert 'href="https://www.eba.europa.eu/n/g1"' in html
    external = [
        u
        for u in re.findall(r'(?:src|href)="([^"]+)"', html)
        if not u.startswith(("http://testserver/", "#", "https://www.eba.europa.eu/"))
    ]
    assert external == []
    assert '<link rel="stylesheet"' not in html and " src=" not in html


def test_digest(client, engine, settings, tmp_path):
    now = datetime.now(UTC).replace(microsecond=0)
    run(
        engine,
        settings,
        "eu_eba_news",
        rss(
            tmp_path / "d.xml",
            [
                ("n1", "EBA [statement] on *AML* supervision", now - timedelta(hours=2)),
                ("n2", "Old news", now - timedelta(hours=30)),
            ],
        ),
    )
    resp = client.get(URL + "/digest.md")
    assert resp.headers["content-type"] == "text/markdown; charset=utf-8"
    md = resp.text
    assert md.startswith("# Regulatory digest: the last 24 hours\n")
    assert "## European Banking Authority \\(EBA\\) (1)" in md
    assert "[EBA \\[statement\\] on \\*AML\\* supervision](<https://www.eba.europa.eu/n/n1>) · aml" in md
    assert "Old news" not in md
    assert "Old news" in client.get(URL + "/digest.md", params={"hours": 48}).text
    assert "0 publications" in client.get(URL + "/digest.md", params={"hours": 1}).text


def test_sources(client, feeds):
    resp = client.get(URL + "/sources.json")
    data = assert_envelope(resp)
    assert {s["id"]: s["entries"] for s in data["sources"]} == FEEDS
    nbs = data["sources"][0]
    assert (nbs["publisher"], nbs["country"], nbs["latest_published_at"]) == (
        "Národná banka Slovenska",
        "SK",
        "2026-11-24T14:00:00Z",
    )
    assert nbs["licence"] and nbs["attribution"] and nbs["url"].startswith("https://")


def test_stats(client, feeds):
    data = assert_envelope(client.get(URL + "/stats"))
    assert data["total"] == 20 and data["tagged"] == 20
    assert {s["source"]: s["entries"] for s in data["per_source"]} == FEEDS
    assert data["date_range"] == {"first": "2026-10-05T10:00:00Z", "last": "2026-11-24T15:00:00Z"}
    tags = {t["tag"]: t["entries"] for t in data["top_tags"]}
    assert tags["cybersecurity"] == 4 and tags["nis2"] == 1 and len(data["top_tags"]) <= 25
    counts = [t["entries"] for t in data["top_tags"]]
    assert counts == sorted(counts, reverse=True)


def test_data_sources_list_the_regulators(client, feeds):
    data = assert_envelope(client.get("/api/v1/public/data-sources", params={"category": "regulatory"}))
    items = data if isinstance(data, list) else data.get("sources", data.get("items"))
    assert {s["id"] for s in items} == set(FEEDS)


def test_unicode_query(client, feeds):
    assert len(assert_envelope(client.get(URL, params={"q": "spotřebitele"}))["items"]) == 1
    assert assert_envelope(client.get(URL, params={"q": "数据"}))["items"] == []
