"""`/companies/{ico}/timeline` through HTTP: gazette notices, change-log events, founding and LEI, merged."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from regintel.domain.types import CompanyKey, CompanyRecord, LeiRecord
from regintel.ingest.loader import Loader
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_obchodny_vestnik import SOURCE as GAZETTE
from tests.builders import TEST_SOURCE, load_companies
from tests.helpers import assert_envelope, assert_error
from tests.ingest.gazette_export import FIXTURES

ALFA = "11640219"
LEI = "529900T8BM49AURSDO55"
URL = f"/api/v1/companies/{ALFA}/timeline"


@pytest.fixture
def alfa(engine, settings):
    base = {"country": "SK", "national_id": ALFA, "founded_on": date(2010, 5, 4)}
    load_companies(
        engine,
        CompanyRecord(
            **base, name="ALFA STAV, s.r.o.", street="Mlynské nivy 16", city="Bratislava", postal_code="82109"
        ),
    )
    load_companies(
        engine,
        CompanyRecord(**base, name="ALFA STAV s.r.o.", street="Prievozská 4", city="Bratislava - Ružinov"),
    )
    run_import(engine, GAZETTE, str(FIXTURES / "export_sample.xml"), settings.data_dir)
    load_companies(engine, CompanyRecord(**base, in_liquidation=True))
    loader = Loader(engine, TEST_SOURCE)
    loader.add(
        LeiRecord(
            lei=LEI,
            legal_name="ALFA STAV s.r.o.",
            registration_status="ISSUED",
            company=CompanyKey("SK", ALFA),
            initial_registration=datetime(2015, 6, 1, tzinfo=UTC),
        )
    )
    loader.flush()


def test_timeline_merges_every_source_newest_first(client, auth, alfa):
    resp = client.get(URL, headers=auth)
    data = assert_envelope(resp)
    today = datetime.now(UTC).date().isoformat()
    assert [
        (e["event_type"], e["phase"], e["date"], e["date_kind"], e["source"]) for e in data["events"]
    ] == [
        ("liquidation", "start", today, "detected", "test_register"),
        ("address_change", None, today, "detected", "test_register"),
        ("name_change", None, today, "detected", "test_register"),
        ("bankruptcy", "start", "2024-03-05", "effective", "sk_obchodny_vestnik"),
        ("lei_registered", None, "2015-06-01", "effective", "test_register"),
        ("founded", None, "2010-05-04", "effective", "test_register"),
    ]
    liquidation, address, name, notice, lei, _ = data["events"]
    assert liquidation["title"] == "Liquidation reported"
    assert address["changes"] == [
        {"field": "street", "from": "Mlynské nivy 16", "to": "Prievozská 4"},
        {"field": "city", "from": "Bratislava", "to": "Bratislava - Ružinov"},
    ]
    assert name["changes"] == [{"field": "name", "from": "ALFA STAV, s.r.o.", "to": "ALFA STAV s.r.o."}]
    assert {
        k: notice[k]
        for k in (
            "id",
            "title",
            "court",
            "case_number",
            "reference",
            "link",
            "published_on",
            "decision_date",
            "trustee",
        )
    } == {
        "id": notice["id"],
        "title": "Uznesenie o vyhlásení konkurzu",
        "court": "Okresný súd Bratislava I",
        "case_number": "8K/12/2024",
        "reference": "Obchodný vestník 44/2024, K000101",
        "link": "https://obchodnyvestnik.justice.gov.sk/ObchodnyVestnik/Formular/FormularDetail.aspx?IdFormular=4100001",
        "published_on": "2024-03-05",
        "decision_date": "2024-02-29",
        "trustee": "KONKURZ PRÍKLAD k.s.",
    }
    assert lei["link"] == f"https://search.gleif.org/#/record/{LEI}" and "ISSUED" in lei["title"]
    assert set(notice) == set(name)  # every event has every field
    meta = resp.json()["meta"]
    assert (meta["next_cursor"], meta["country"], meta["national_id"]) == (None, "SK", ALFA)
    # the gazette's own flag flip is not repeated next to its notice
    assert [e for e in data["events"] if e["source"] == "sk_obchodny_vestnik"] == [notice]


def test_pages_and_filters(client, auth, alfa):
    everything = assert_envelope(client.get(URL, headers=auth))["events"]
    seen, cursor = [], None
    while True:
        resp = client.get(URL, params={"limit": 2} | ({"cursor": cursor} if cursor else {}), headers=auth)
        seen += assert_envelope(resp)["events"]
        cursor = resp.json()["meta"]["next_cursor"]
        if cursor is None:
            break
    assert seen == everything
    only = assert_envelope(client.get(URL, params={"event_type": "bankruptcy,founded"}, headers=auth))[
        "events"
    ]
    assert [e["event_type"] for e in only] == ["bankruptcy", "founded"]


def test_a_gazette_company_has_its_notices(client, auth, engine, settings):
    run_import(engine, GAZETTE, str(FIXTURES / "export_sample.xml"), settings.data_dir)
    events = assert_envelope(client.get("/api/v1/companies/12042773/timeline", headers=auth))["events"]
    assert [(e["event_type"], e["phase"], e["date"]) for e in events] == [
        ("liquidation", "start", "2024-10-08"),
        ("restructuring", "end", "2024-09-10"),
        ("restructuring", "start", "2024-03-12"),
    ]


@pytest.mark.parametrize(
    "path, params, status, code",
    [
        (URL, {"event_type": "bankruptcy,contracts"}, 422, "VALIDATION_ERROR"),
        (URL, {"cursor": "not-a-cursor"}, 422, "VALIDATION_ERROR"),
        (URL, {"cursor": "Yzox"}, 422, "VALIDATION_ERROR"),  # another endpoint's cursor
        (URL, {"limit": 501}, 422, "VALIDATION_ERROR"),
        (URL, {"country": "cz"}, 404, "NOT_FOUND"),
        (URL, {"country": "xyz"}, 422, "VALIDATION_ERROR"),
        (URL, {"typ": "x"}, 422, "VALIDATION_ERROR"),
        ("/api/v1/companies/11640218/timeline", {"country": "sk"}, 422, "VALIDATION_ERROR"),  # check digit
        ("/api/v1/companies/" + "1" * 41 + "/timeline", {}, 422, "VALIDATION_ERROR"),
        ("/api/v1/companies/35757442/timeline", {}, 404, "NOT_FOUND"),
        ("/api/v1/companies/%C5%BDilina'%20OR%201=1/timeline", {}, 422, "VALIDATION_ERROR"),
    ],
)
def test_bad_requests(client, auth, alfa, path, params, status, code):
    assert_error(client.get(path, params=params, headers=auth), status, code)


def test_needs_a_key(client, alfa):
    assert_error(client.get(URL), 401, "UNAUTHORIZED")
