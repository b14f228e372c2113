"""sk_rpvs: beneficial owners from the Register partnerov verejného sektora (a fixture written from the
service's documented OData layout: tests/fixtures/sk_rpvs/README.md), through the runner and HTTP."""

from __future__ import annotations

import io
from datetime import date

import pytest

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.sources.sk_rpvs import PUBLIC_OFFICIAL, SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import FIXTURES, assert_idempotent, rejects, role_rows, run

PAGE = FIXTURES / "sk_rpvs" / "partneri_page.json"
SLOVNAFT, STAVBY = "31322832", "35757442"


@pytest.fixture
def sk_companies(engine):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=SLOVNAFT, name="SLOVNAFT, a.s."),
        CompanyRecord(country="SK", national_id=STAVBY, name="Stavby Kováč s.r.o."),
    )


def test_owners_with_history_and_public_officials(engine, settings, sk_companies):
    stats, rejected = rejects(engine, settings, "sk_rpvs", PAGE)
    assert (stats.read, stats.updated, stats.skipped, stats.rejected) == (7, 2, 1, 4)
    reasons = sorted(r["reason"] for r in rejected)
    assert reasons[0].startswith("JeVerejnyCinitel is not true or false")
    assert reasons[1] == "a beneficial owner without a name"
    assert reasons[2].startswith("invalid IČO '31322833'")
    assert reasons[3] == "unknown company and the record has no name"  # 17321123 is not in the database
    owners = role_rows(engine, SLOVNAFT)
    assert [
        (r["role"], r["holder_name"], r["birth_date"], r["title"], r["since"], r["until"]) for r in owners
    ] == [
        ("beneficial_owner", "Peter Starý", "1955-01-02", None, date(2017, 2, 1), date(2019, 6, 9)),
        ("beneficial_owner", "Tomáš Horňák", "1971-03-04", None, date(2017, 2, 1), None),
        ("beneficial_owner", "Zuzana Ďurišová", "1968-11-20", PUBLIC_OFFICIAL, date(2019, 6, 10), None),
    ]
    assert [r["holder_name"] for r in role_rows(engine, STAVBY)] == ["Ján Kováč"]  # "35 757 442" normalised
    assert_idempotent(engine, settings, "sk_rpvs", PAGE)


def test_owners_served_behind_the_purpose_gate(client, auth, engine, settings, sk_companies):
    run(engine, settings, "sk_rpvs", PAGE)
    url = f"/api/v1/companies/{SLOVNAFT}/relations"
    plain = client.get(url, headers=auth)
    assert "1971-03-04" not in plain.text
    data = assert_envelope(client.get(url, headers=auth, params={"purpose": "kyc", "include_ended": "true"}))
    owners = {r["holder"]["name"]: r for r in data["beneficialOwners"]}
    assert set(owners) == {"Tomáš Horňák", "Zuzana Ďurišová", "Peter Starý"}
    assert (
        owners["Zuzana Ďurišová"]["title"] == PUBLIC_OFFICIAL and owners["Zuzana Ďurišová"]["active"] is True
    )
    assert owners["Peter Starý"]["active"] is False and owners["Peter Starý"]["until"] == "2019-06-09"
    assert owners["Tomáš Horňák"]["source"]["id"] == "sk_rpvs"
    assert "1971-03-04" in client.get(url, headers=auth, params={"purpose": "kyc"}).text
    sources = assert_envelope(client.get("/api/v1/public/data-sources"))
    assert any(s["id"] == "sk_rpvs" for s in (sources["items"] if isinstance(sources, dict) else sources))


def test_a_later_answer_replaces_the_owners(engine, settings, sk_companies, tmp_path):
    run(engine, settings, "sk_rpvs", PAGE)
    later = PAGE.read_text(encoding="utf-8").replace(
        '"Meno": "Ján", "Priezvisko": "Kováč"', '"Meno": "Mária", "Priezvisko": "Kováčová"'
    )
    (tmp_path / "later.json").write_text(later, encoding="utf-8")
    stats = run(engine, settings, "sk_rpvs", tmp_path / "later.json")
    assert stats.updated == 1
    assert [r["holder_name"] for r in role_rows(engine, STAVBY)] == ["Mária Kováčová"]


@pytest.mark.parametrize("content", [b"", b"<html></html>", b'{"value": [{"Id": 1, "Partner": {}}]}'])
def test_not_rpvs_data_is_refused_whole(engine, settings, sk_companies, tmp_path, content):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    with pytest.raises(SourceAbort):
        run(engine, settings, "sk_rpvs", bad)
    assert role_rows(engine, SLOVNAFT) == []


def test_json_lines_of_pages_and_a_bare_array():
    page = PAGE.read_bytes()
    lines = page.replace(b"\n", b" ") + b"\n" + page.replace(b"\n", b" ") + b"\n"
    assert (
        sum(1 for r in SOURCE.parse(io.BytesIO(lines), "x") if isinstance(r, CompanyRecord)) == 6
    )  # 3 a page
    array = b'[{"Id": 1, "Partner": {"Ico": "31322832"}, "KonecniUzivateliaVyhod": []}]'
    (record,) = list(SOURCE.parse(io.BytesIO(array), "x"))
    assert isinstance(record, CompanyRecord) and record.roles == ()
