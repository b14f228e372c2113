"""Public insolvency feeds (spec 4.7, 6.3) through HTTP, over a real gazette import and a register flag."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceInfo
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_obchodny_vestnik import SOURCE as GAZETTE
from tests.api.feed_checks import check_atom, check_rss
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.ingest.gazette_export import FIXTURES

BASE = "/api/v1/public/recent-bankruptcies"
CZ_REGISTER = SourceInfo(
    id="cz_register_test",
    name="Czech register (test)",
    publisher="regintel tests",
    country="CZ",
    category="register",
    formats="records",
    licence="CC0 1.0",
    attribution="Zdroj: testovací rejstřík",
    url="https://example.invalid/cz",
    cadence="daily",
)
CZ_ICO = "26168685"


@pytest.fixture
def loaded(engine, settings):
    run_import(engine, GAZETTE, str(FIXTURES / "export_sample.xml"), settings.data_dir)
    load_companies(
        engine, CompanyRecord(country="CZ", national_id=CZ_ICO, name="Seznam.cz, a.s."), source=CZ_REGISTER
    )
    load_companies(
        engine,
        CompanyRecord(country="CZ", national_id=CZ_ICO, name="Seznam.cz, a.s.", in_bankruptcy=True),
        source=CZ_REGISTER,
    )
    return engine


def feed(client, fmt="json", **params):
    return client.get(f"{BASE}.{fmt}", params=params)


def test_json_feed_newest_first_with_licence(client, loaded):
    resp = feed(client)
    data = assert_envelope(resp)
    assert [(i["kind"], i["ico"], i["date"]) for i in data["items"]] == [
        ("register", CZ_ICO, datetime.now(UTC).date().isoformat()),
        ("notice", "22789791", "2024-08-12"),
        ("notice", "14567652", "2024-07-08"),
        ("notice", "11640219", "2024-03-05"),
        ("notice", "13262297", "2005-01-10"),
    ]
    alfa = data["items"][3]
    assert {
        k: alfa[k]
        for k in (
            "id",
            "event_type",
            "phase",
            "country",
            "name",
            "title",
            "notice_title",
            "court",
            "case_number",
            "reference",
            "link",
            "source",
            "published_on",
        )
    } == {
        "id": "notice:sk_obchodny_vestnik:4100001",
        "event_type": "bankruptcy",
        "phase": "start",
        "country": "SK",
        "name": "ALFA STAV s.r.o.",
        "title": "ALFA STAV s.r.o.: bankruptcy declared",
        "notice_title": "Uznesenie o vyhlásení konkurzu",
        "court": "Okresný súd Bratislava I",
        "case_number": "8K/12/2024",
        "reference": "Obchodný vestník 44/2024, K000101",
        "link": "https://obchodnyvestnik.justice.gov.sk/ObchodnyVestnik/Formular/FormularDetail.aspx?IdFormular=4100001",
        "source": "sk_obchodny_vestnik",
        "published_on": "2024-03-05",
    }
    assert alfa["company_url"] == "http://testserver/api/v1/companies/SK/11640219"
    assert data["licence"]["id"] == "CC-BY-4.0"
    assert "Zdroj: Obchodný vestník, Ministerstvo spravodlivosti SR" in data["attribution"]
    assert "Zdroj: testovací rejstřík" in data["attribution"]
    assert resp.headers["cache-control"] == "public, max-age=900"
    assert resp.headers["x-data-license"] == "CC-BY-4.0"
    assert "Zdroj: Obchodny vestnik, Ministerstvo spravodlivosti SR" in resp.headers["x-attribution"]
    assert resp.headers["link"] == '<https://creativecommons.org/licenses/by/4.0/>; rel="license"'
    assert resp.json()["meta"]["total"] == 5


@pytest.mark.parametrize(
    "params, expected",
    [
        ({"scope": "restructuring", "phase": "any"}, [("12042773", "end"), ("12042773", "start")]),
        ({"scope": "any", "phase": "end"}, [("12042773", "end"), ("12445703", "end")]),
        ({"scope": "any", "country": "cz"}, [(CZ_ICO, "start"), ("22789791", "start")]),
        ({"limit": 2}, [(CZ_ICO, "start"), ("22789791", "start")]),
        ({"country": "FR"}, []),
    ],
)
def test_filters(client, loaded, params, expected):
    items = assert_envelope(feed(client, **params))["items"]
    assert [(i["ico"], i["phase"]) for i in items] == expected


@pytest.mark.parametrize(
    "fmt, params, field",
    [
        ("json", {"limit": 201}, "limit"),
        ("rss", {"limit": 0}, "limit"),
        ("atom", {"scope": "liquidation"}, "scope"),
        ("csv", {"limit": 501}, "limit"),
        ("json", {"phase": "middle"}, "phase"),
        ("json", {"country": "SVK"}, "country"),
        ("json", {"scope": "bankruptcy'; DROP TABLE companies;--"}, "scope"),
    ],
)
def test_bad_parameters(client, fmt, params, field):
    error = assert_error(feed(client, fmt, **params), 422, "VALIDATION_ERROR")
    assert field in error["message"]


def test_unknown_parameter_and_bad_country(client):
    assert assert_error(feed(client, scop="any"), 422, "VALIDATION_ERROR")["details"][0]["field"] == "scop"
    assert_error(feed(client, country="1x"), 422, "VALIDATION_ERROR")


def test_rss(client, loaded):
    resp = feed(client, "rss", scope="any", phase="any")
    assert resp.headers["content-type"] == "application/rss+xml; charset=utf-8"
    assert (
        resp.headers["x-data-license"] == "CC-BY-4.0"
        and resp.headers["cache-control"] == "public, max-age=900"
    )
    parsed = check_rss(resp.content)
    assert parsed.feed.title == "Recent bankruptcies and restructurings"
    assert "CC-BY-4.0" in parsed.feed.rights and "Obchodný vestník" in parsed.feed.rights
    assert [e.title for e in parsed.entries][:3] == [
        "Seznam.cz, a.s.: bankruptcy declared (register cz_register_test)",
        "BETA TRADE a.s.: restructuring ended",
        "OMEGA CZ s.r.o.: bankruptcy declared",
    ]
    assert parsed.entries[1].id == "tag:testserver,2024:notice:sk_obchodny_vestnik:4100010"
    assert parsed.entries[1].link.endswith("IdFormular=4100010")
    assert parsed.entries[1].published_parsed[:3] == (2024, 9, 10)
    assert len(parsed.entries) == 8


def test_atom_validates_against_the_rfc_grammar(client, loaded):
    resp = feed(client, "atom", scope="any", phase="any", limit=200)
    assert resp.headers["content-type"] == "application/atom+xml; charset=utf-8"
    parsed = check_atom(resp.content)
    assert parsed.feed.id == "tag:testserver,2024:insolvency:any:any:all"
    assert (
        parsed.feed.links[0].href
        == "http://testserver/api/v1/public/recent-bankruptcies.atom?scope=any&phase=any&limit=200"
    )
    assert len(parsed.entries) == 8 and parsed.entries[2].title == "OMEGA CZ s.r.o.: bankruptcy declared"
    assert "Okresný súd Trenčín 36K/2/2024" in parsed.entries[2].summary


def test_empty_feeds_are_valid(client):
    check_atom(feed(client, "atom").content)
    check_rss(feed(client, "rss").content)
    assert assert_envelope(feed(client))["items"] == []
    assert feed(client, "csv").text.splitlines()[1].startswith("date,event_type,phase")


def test_csv(client, loaded):
    resp = feed(client, "csv", scope="any", phase="any", limit=3)
    assert resp.headers["content-type"] == "text/csv; charset=utf-8"
    assert resp.headers["x-attribution"].startswith(
        "Insolvency feed of http://testserver, licensed CC-BY-4.0"
    )
    lines = resp.text.splitlines()
    assert lines[0].startswith('"# Insolvency feed of http://testserver, licensed CC-BY-4.0')
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[1:]))))
    assert [(r["ico"], r["event_type"], r["phase"], r["date"]) for r in rows] == [
        (CZ_ICO, "bankruptcy", "start", datetime.now(UTC).date().isoformat()),
        ("12042773", "restructuring", "end", "2024-09-10"),
        ("22789791", "bankruptcy", "start", "2024-08-12"),
    ]


def test_stats_bankrupt(client, loaded):
    resp = client.get("/api/v1/public/stats/bankrupt", params={"months": 120})
    data = assert_envelope(resp)
    assert (
        resp.headers["cache-control"] == "public, max-age=900"
        and resp.headers["x-data-license"] == "CC-BY-4.0"
    )
    assert data["current"] == [
        {"country": "CZ", "in_bankruptcy": 2, "in_restructuring": 0},
        {"country": "SK", "in_bankruptcy": 3, "in_restructuring": 0},
    ]
    months = {(r["country"], r["month"]): r for r in data["by_month"]}
    assert months[("SK", "2024-09")]["restructuring_ended"] == 1
    assert months[("SK", "2024-03")] == {
        "country": "SK",
        "month": "2024-03",
        "bankruptcy_started": 1,
        "bankruptcy_ended": 0,
        "restructuring_started": 1,
        "restructuring_ended": 0,
    }
    this_month = datetime.now(UTC).strftime("%Y-%m")
    assert months[("CZ", this_month)]["bankruptcy_started"] == 1
    assert ("SK", "2005-01") not in months  # older than 120 months
    assert data["by_month"][0]["month"] == this_month
    assert len(data["latest"]) == 8  # starts and ends of both kinds: 7 notices and the register flag
    only_sk = assert_envelope(
        client.get("/api/v1/public/stats/bankrupt", params={"country": "sk", "scope": "bankruptcy"})
    )
    assert only_sk["current"] == [{"country": "SK", "in_bankruptcy": 3}]
    assert_error(client.get("/api/v1/public/stats/bankrupt", params={"limit": 101}), 422, "VALIDATION_ERROR")


def test_stats_bankrupt_csv(client, loaded):
    resp = client.get("/api/v1/public/stats/bankrupt.csv", params={"months": 120, "scope": "bankruptcy"})
    lines = resp.text.splitlines()
    assert lines[0].startswith('"# Insolvency feed of') and resp.headers["x-data-license"] == "CC-BY-4.0"
    assert lines[1] == "country,month,bankruptcy_started,bankruptcy_ended"
    rows = list(csv.reader(lines[2:]))
    assert ["SK", "2024-05", "0", "1"] in rows and ["SK", "2024-08", "0", "0"] not in rows
    assert ["CZ", "2024-08", "1", "0"] in rows


def test_stats_bankrupt_csv_answers_a_conditional_get(client, loaded):
    """Through `respond` the statistics CSV is a feed like the others: an ETag and its 304; no
    `Last-Modified`, since aggregates have no newest entry."""
    path = "/api/v1/public/stats/bankrupt.csv"
    resp = client.get(path)
    assert resp.status_code == 200 and "last-modified" not in resp.headers
    again = client.get(path, headers={"If-None-Match": resp.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["x-data-license"] == "CC-BY-4.0"


def test_cached_until_the_data_changes(client, engine, loaded):
    first = client.get(f"{BASE}.json", params={"scope": "any"})
    assert first.json()["meta"]["cached"] is False
    again = client.get(f"{BASE}.json", params={"scope": "any"})
    assert again.json()["meta"]["cached"] is True and again.json()["data"] == first.json()["data"]
    load_companies(
        engine, CompanyRecord(country="CZ", national_id=CZ_ICO, in_bankruptcy=False), source=CZ_REGISTER
    )
    fresh = client.get(f"{BASE}.json", params={"scope": "any", "phase": "start"})
    assert fresh.json()["meta"]["cached"] is False
    ended = assert_envelope(client.get(f"{BASE}.json", params={"scope": "any", "phase": "end"}))["items"]
    assert (ended[0]["ico"], ended[0]["kind"], ended[0]["phase"]) == (CZ_ICO, "register", "end")
    stats = client.get("/api/v1/public/stats/bankrupt")
    assert client.get("/api/v1/public/stats/bankrupt").json()["meta"]["cached"] is True
    assert stats.json()["meta"]["cached"] is False
