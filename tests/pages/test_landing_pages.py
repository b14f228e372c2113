"""The landing pages of spec 4.7 (16 topics with the per-country directories) and the policy pages, with their
social images, in Slovak and English, through HTTP."""

from __future__ import annotations

import struct

import pytest
from lxml import etree
from lxml import html as lxml_html

from regintel.areas.pages.landing_routes import processors
from regintel.areas.pages.topics import POLICIES, TOPICS
from tests.helpers import assert_error

PUB = "/api/v1/public"
PAGES = [f"{PUB}/{slug}" for slug in (*TOPICS, *POLICIES)]


def test_fifteen_topics_and_the_directories_make_sixteen():
    assert len(TOPICS) == 15 and set(POLICIES) == {
        "privacy",
        "terms",
        "subprocessors",
        "dsa-notice",
        "privacy-request",
    }


def test_topic_endpoints_exist_in_the_openapi_document(client):
    spec = client.get(f"{PUB}/openapi.json").json()
    operations = {(m.upper(), p) for p, ops in spec["paths"].items() for m in ops}
    for topic in TOPICS.values():
        for endpoint in topic.endpoints:
            assert tuple(endpoint.split(" ")) in operations, (topic.slug, endpoint)


@pytest.mark.parametrize("path", PAGES)
def test_page_in_both_languages(client, companies, path):
    sk, en = client.get(path), client.get(f"{path}?lang=en")
    for resp, lang in ((sk, "sk"), (en, "en")):
        assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
        assert "default-src 'none'" in resp.headers["content-security-policy"]
        doc = lxml_html.fromstring(resp.text)
        assert doc.find(".//h1").text_content().strip()
        assert doc.find(".//script") is None
        og = doc.find(".//meta[@property='og:image']").get("content")
        assert og.endswith("/og.png") and og.startswith("http://testserver/api/v1/public/")
        assert doc.get("lang") == lang
    assert sk.text != en.text


@pytest.mark.parametrize(
    "path", [f"{PUB}/nis2-checker", f"{PUB}/privacy", f"{PUB}/firmy-sk", f"{PUB}/companies-cz"]
)
def test_social_images(client, companies, path):
    svg = client.get(f"{path}/og.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    root = etree.fromstring(svg.content)
    assert root.get("width") == "1200" and root.get("height") == "630"
    png = client.get(f"{path}/og.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert png.content[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png.content[16:24]) == (1200, 630)
    assert png.headers["cache-control"] == "public, max-age=3600"
    assert client.get(f"{path}/og.png", headers={"If-None-Match": png.headers["etag"]}).status_code == 304
    assert png.headers["etag"] != svg.headers["etag"]
    # the format is the path's alone: no hidden parameter turns the SVG into a PNG (found by schemathesis)
    assert client.get(f"{path}/og.svg", params={"_png": "true"}).status_code == 422


def test_topic_content(client, companies):
    doc = lxml_html.fromstring(client.get(f"{PUB}/public-contracts?lang=en").text)
    codes = [c.text for c in doc.findall(".//code")]
    assert "GET /api/v1/companies/{ico}/contracts" in codes
    assert any(a.get("href") == "/rebricky/public-contracts" for a in doc.findall(".//a"))
    sk = client.get(f"{PUB}/public-contracts").text
    assert "Verejné zákazky" in sk and 'hreflang="en"' in sk


def test_directory_pages(client, companies):
    resp = client.get(f"{PUB}/firmy-sk")
    assert resp.status_code == 200 and "default-src 'none'" in resp.headers["content-security-policy"]
    sk = lxml_html.fromstring(resp.text)
    assert sk.find(".//meta[@property='og:image']").get("content").endswith("/firmy-sk/og.png")
    assert sk.get("lang") == "sk" and sk.find(".//h1").text == "Firmy v krajine SK"
    names = [a.text for a in sk.findall(".//tbody//a")]
    assert names and names[0] == "SLOVNAFT, a.s."  # the largest by revenue, EUR
    cz = lxml_html.fromstring(client.get(f"{PUB}/companies-cz").text)
    assert (
        cz.get("lang") == "en"
        and cz.find(".//link[@hreflang='sk']").get("href") == f"http://testserver{PUB}/firmy-cz"
    )
    assert [a.text for a in cz.findall(".//tbody//a")][0] == "ŠKODA AUTO a.s."  # CZK statements
    empty = client.get(f"{PUB}/companies-at")
    assert empty.status_code == 200 and "No companies of this country are loaded yet." in empty.text
    assert_error(client.get(f"{PUB}/companies-s1"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/firmy-sk?lang=de"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{PUB}/firmy-%3Cb%3E"), 422, "VALIDATION_ERROR")


def test_subprocessors_follow_the_settings(settings, app_factory):
    assert processors(settings) == []
    configured = settings.model_copy(
        update={
            "smtp_host": "smtp.example.eu",
            "stripe_api_key": "sk_test_x",
            "llm_base_url": "http://127.0.0.1:11434/v1",
        }
    )
    listed = processors(configured)
    assert [p["who"] for p in listed] == ["smtp.example.eu", "api.stripe.com", "127.0.0.1"]
    assert all("sk_test" not in str(p) for p in listed)
    client = app_factory(smtp_host="smtp.example.eu")
    page = client.get(f"{PUB}/subprocessors?lang=en").text
    assert "smtp.example.eu" in page and "E-mail delivery" in page
    bare = app_factory().get(f"{PUB}/subprocessors?lang=en").text
    assert "None: this instance has no e-mail" in bare


def test_privacy_request_page_names_the_calls(client):
    text = client.get(f"{PUB}/privacy-request?lang=en").text
    for kind in ("access", "erase", "object", "rectify"):
        assert f"POST /api/v1/privacy/{kind}" in text
    assert_error(client.get(f"{PUB}/privacy?bogus=1"), 422, "VALIDATION_ERROR")
