"""`/technologie` and `/technologies`: technology usage from the security area's stored passive checks."""

from __future__ import annotations

from lxml import html as lxml_html

from tests.helpers import assert_error
from tests.pages.conftest import store_check


def _rows(resp):
    return [
        [td.text_content() for td in tr.findall("td")]
        for tr in lxml_html.fromstring(resp.text).findall(".//tbody/tr")
    ]


def test_nothing_checked_is_said_so(client, companies):
    resp = client.get("/technologie")
    assert resp.status_code == 200 and resp.headers["cache-control"] == "public, max-age=900"
    assert "Zatiaľ nebola skontrolovaná žiadna doména" in resp.text and _rows(resp) == []
    en = client.get("/technologies")
    assert "No company domain has been checked yet" in en.text and 'hreflang="sk"' in en.text
    assert lxml_html.fromstring(en.text).get("lang") == "en"


def test_usage_from_stored_checks(client, companies, engine):
    store_check(
        engine,
        "SK",
        "31322832",
        "www.slovnaft.sk",
        90,
        signals=[("technology", "WordPress", "CMS"), ("mail_provider", "Microsoft 365", None)],
    )
    store_check(
        engine,
        "SK",
        "35757442",
        "stavby-zilina.sk",
        70,
        signals=[("technology", "WordPress", "CMS"), ("technology", "Nginx", "Web server")],
    )
    store_check(engine, "CZ", "00177041", "skoda-auto.cz", None)  # refused: checked, no signals
    rows = _rows(client.get("/technologies"))
    assert rows[0] == ["WordPress", "CMS", "2"]
    names = [r[0] for r in rows]
    assert "Microsoft 365" in names and all(r[2] != "0" for r in rows)  # only what was seen
    page = client.get("/technologies").text
    assert "(of 2)" in page  # hosts whose check is done; the refused one does not count


def test_technology_pages_take_no_parameters(client):
    assert_error(client.get("/technologies?x=1"), 422, "VALIDATION_ERROR")
