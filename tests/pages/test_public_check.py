"""Public check data, badges, social images and the view counter, through HTTP."""

from __future__ import annotations

import struct

import pytest
from lxml import etree

from tests.helpers import assert_envelope, assert_error
from tests.pages.conftest import HOSTILE, HOSTILE_ID, store_check

BASE = "/api/v1/public/check"


def test_check_json(client, companies):
    resp = client.get(f"{BASE}/31322832.json")
    data = assert_envelope(resp)
    assert resp.headers["cache-control"] == "public, max-age=3600"
    assert data["name"] == "SLOVNAFT, a.s." and data["country"] == "SK"
    assert data["insolvency"]["state"] == "none"
    assert data["security"] == {
        "assessed": False,
        "score": None,
        "band": None,
        "findings": None,
        "checked_at": None,
        "note": data["security"]["note"],
    }
    assert data["financials"]["year"] == 2023 and data["financials"]["revenue"] == 6_000_000_000
    assert data["nis2"]["badge"] in {"ESSENTIAL", "IMPORTANT", "IN SCOPE", "OUT OF SCOPE", "NOT DETERMINED"}
    assert data["credit_grade"] in {None, "A+", "A", "B", "C", "D", "E", "F"}
    assert data["sanctions"]["hits"] == 0


def test_check_insolvent_and_country(client, companies):
    data = assert_envelope(client.get(f"{BASE}/27082440.json?country=cz"))
    assert data["insolvency"]["state"] == "restructuring"


def test_check_errors(client, companies):
    assert_error(client.get(f"{BASE}/50000004.json?country=sk"), 404, "NOT_FOUND")
    assert_error(client.get(f"{BASE}/35757442.json"), 409, "AMBIGUOUS_IDENTIFIER")
    assert_error(client.get(f"{BASE}/31322832.json?country=s1"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{BASE}/31322832.json?bogus=1"), 422, "VALIDATION_ERROR")
    assert_error(client.get(f"{BASE}/{'9' * 41}.json"), 422, "VALIDATION_ERROR")
    assert client.get(f"{BASE}/%C5%BD%C3%A1%C5%A1.json").status_code in (404, 422)


@pytest.mark.parametrize(
    "kind,expect",
    [("badge", "active"), ("credit-badge", None), ("nis2-badge", None), ("security-badge", "not assessed")],
)
def test_badges_are_valid_svg(client, companies, kind, expect):
    resp = client.get(f"{BASE}/31322832/{kind}.svg")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("image/svg+xml")
    assert resp.headers["cache-control"] == "public, max-age=3600"
    root = etree.fromstring(resp.content)
    title = root.find("{http://www.w3.org/2000/svg}title").text
    if expect:
        assert expect in title
    again = client.get(f"{BASE}/31322832/{kind}.svg", headers={"If-None-Match": resp.headers["etag"]})
    assert again.status_code == 304


def test_security_badge_reads_the_stored_posture(client, companies, engine):
    store_check(
        engine,
        "SK",
        "31322832",
        "www.slovnaft.sk",
        60,
        [{"severity": "critical", "code": "tls-expired", "title": "Certificate expired"}],
    )
    data = assert_envelope(client.get(f"{BASE}/31322832.json"))
    assert data["security"]["assessed"] is True and data["security"]["score"] == 60
    assert data["security"]["findings"] == 1 and data["security"]["band"] == "fair"
    title = (
        etree.fromstring(client.get(f"{BASE}/31322832/security-badge.svg").content)
        .find("{http://www.w3.org/2000/svg}title")
        .text
    )
    assert "60/100" in title
    store_check(engine, "SK", "35757442", "stavby-zilina.sk", None)  # refused or failed: nothing scored
    other = assert_envelope(client.get(f"{BASE}/35757442.json?country=sk"))["security"]
    assert other["assessed"] is True and other["score"] is None and "not scored" in other["note"]
    title = (
        etree.fromstring(client.get(f"{BASE}/35757442/security-badge.svg?country=sk").content)
        .find("{http://www.w3.org/2000/svg}title")
        .text
    )
    assert "not scored" in title


def test_credit_badge_value_is_a_grade_or_honest(client, companies):
    grade = assert_envelope(client.get(f"{BASE}/31322832.json"))["credit_grade"]
    title = (
        etree.fromstring(client.get(f"{BASE}/31322832/credit-badge.svg").content)
        .find("{http://www.w3.org/2000/svg}title")
        .text
    )
    assert title == f"credit: {grade or 'not rated'}"


def test_status_badge_of_bankrupt_company(client, companies):
    root = etree.fromstring(client.get(f"{BASE}/35757442/badge.svg?country=sk").content)
    assert "bankruptcy" in root.find("{http://www.w3.org/2000/svg}title").text


def test_unknown_badge_kind(client, companies):
    assert client.get(f"{BASE}/31322832/gold-badge.svg").status_code == 404


def test_og_svg_and_png_with_hostile_name(client, companies):
    resp = client.get(f"{BASE}/{HOSTILE_ID}/og.svg?country=sk")
    root = etree.fromstring(resp.content)
    assert root.get("width") == "1200"
    texts = "".join(root.itertext())
    assert "<script>" in texts and b"<script>" not in resp.content  # shown as text, escaped in the markup
    png = client.get(f"{BASE}/{HOSTILE_ID}/og.png?country=sk")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    assert struct.unpack(">II", png.content[16:24]) == (1200, 630)
    assert (
        client.get(
            f"{BASE}/{HOSTILE_ID}/og.png?country=sk", headers={"If-None-Match": png.headers["etag"]}
        ).status_code
        == 304
    )
    assert HOSTILE  # the fixture's name


def test_view_counter_batches_writes(client, companies, engine):
    from sqlalchemy import func, select

    from regintel.areas.pages.tables import page_views

    for _ in range(3):
        client.get(f"{BASE}/31322832.json")
    stats = assert_envelope(client.get(f"{BASE}/31322832/stats"))
    assert stats["views"] == 3 and stats["pending"] == 3
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(page_views)).scalar() == 0  # nothing written yet
    counter = client.app.state.page_view_counter
    assert counter.flush() == 3
    stats = assert_envelope(client.get(f"{BASE}/31322832/stats"))
    assert stats["views"] == 3 and stats["pending"] == 0 and stats["last_viewed_at"]
    client.get(f"{BASE}/31322832.json")
    counter.flush()
    assert assert_envelope(client.get(f"{BASE}/31322832/stats"))["views"] == 4


def test_view_counter_flushes_every_n_views(client, companies, engine):
    import time

    from regintel.areas.pages.service import ViewCounter

    counter = ViewCounter(engine, batch=5, max_age=60)
    client.app.state.page_view_counter = counter
    for _ in range(5):
        client.get(f"{BASE}/31322832.json")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        data = assert_envelope(client.get(f"{BASE}/31322832/stats"))
        # A read whose snapshot began just before the flush committed can still miss it once: poll for both.
        if data["pending"] == 0 and data["views"] == 5:
            break
        time.sleep(0.05)
    assert data["views"] == 5 and data["pending"] == 0


def test_view_counter_flushes_after_max_age(client, companies, engine):
    import time

    from regintel.areas.pages.service import ViewCounter

    client.app.state.page_view_counter = ViewCounter(engine, batch=1000, max_age=0.2)
    client.get(f"{BASE}/31322832.json")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        data = assert_envelope(client.get(f"{BASE}/31322832/stats"))
        if data["pending"] == 0:
            break
        time.sleep(0.05)
    assert data["views"] == 1 and data["pending"] == 0
