"""The TED contract-award CSV export (fixture written from the documented layout,
tests/fixtures/ted_csv/README.md): the same notice, winner and contract rows and the same company
linking as the eForms importer, re-import, rejects, malformed files, and the routes that show it."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from regintel.areas.public_money.tables import contracts, ted_notices, ted_winners
from regintel.db.schema import data_sources, import_runs
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.ted_csv import SOURCE as TED_CSV
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.public_money.common import FIXTURES, count

EXPORT = FIXTURES / "ted_csv" / "export_CAN_2019_fixture.csv"
SLOVNAFT, DUSLO, TELEKOM, ORANGE, CEZ = "31322832", "35826487", "35763469", "35697270", "45274649"


def _companies(engine):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=SLOVNAFT, name="SLOVNAFT, a.s.", city="Bratislava"),
        CompanyRecord(country="SK", national_id=DUSLO, name="Duslo, a.s.", city="Šaľa"),
        CompanyRecord(country="SK", national_id=TELEKOM, name="Slovak Telekom, a.s.", city="Bratislava"),
        CompanyRecord(country="SK", national_id=ORANGE, name="Orange Slovensko, a.s.", city="Bratislava"),
        CompanyRecord(country="CZ", national_id=CEZ, name="ČEZ, a. s.", city="Praha"),
    )


@pytest.fixture
def imported(engine, settings):
    _companies(engine)
    return run_import(engine, TED_CSV, str(EXPORT), settings.data_dir)


def _snapshot(engine):
    with engine.connect() as conn:
        return [
            sorted(map(tuple, conn.execute(select(t).where(t.c.id.is_not(None))).all()), key=repr)
            for t in (contracts,)
        ] + [sorted(map(tuple, conn.execute(select(ted_winners)).all()), key=repr)]


def _links(engine):
    with engine.connect() as conn:
        rows = conn.execute(select(contracts).where(contracts.c.source == "ted_csv")).all()
    return {(r.record_key, r.party_name): (r.match_method, r.company_id is not None) for r in rows}


def test_import_counts_and_rejects(engine, imported):
    _, stats, rejects = imported
    assert (stats.read, stats.inserted, stats.rejected, stats.skipped) == (6, 3, 2, 1)
    reasons = [json.loads(line)["reason"] for line in rejects.read_text(encoding="utf-8").splitlines()]
    assert reasons == [
        "notice 2019301130: DT_DISPATCH '31/06/19' is not a date",
        "notice 2019301150: VALUE_EURO 'veľa' is not an amount",
    ]
    with engine.connect() as conn:
        notices = {r.notice_id: r for r in conn.execute(select(ted_notices))}
    assert set(notices) == {"2019104501", "2019215377", "2019301122"}
    first = notices["2019104501"]
    assert (first.publication_number, first.issue_date.isoformat(), first.country, first.source) == (
        "104501-2019",
        "2019-03-06",
        "SK",
        "ted_csv",
    )
    assert (first.nature, first.cpv_main, float(first.value), first.currency) == (
        "supplies",
        "09134100",
        5250000.0,
        "EUR",
    )
    assert notices["2019301122"].issue_date.isoformat() == "2019-06-22"  # DD-MON-YY
    assert notices["2019215377"].publication_number == "215377-2019"  # from the id: no URL


def test_winners_linked_as_the_eforms_importer_links_them(engine, imported):
    links = _links(engine)
    assert links == {
        ("2019104501", "SLOVNAFT, a.s."): ("identifier", True),
        ("2019104501", "Duslo, a.s."): ("name", True),
        ("2019215377", "Slovak Telekom, a.s."): ("name", True),  # a VAT number, not an IČO: by name
        ("2019215377", "Orange Slovensko, a.s."): ("name", True),
        ("2019301122", "ČEZ, a. s."): ("identifier", True),
    }
    with engine.connect() as conn:
        scores = conn.execute(
            select(contracts.c.match_score).where(contracts.c.match_method == "name")
        ).scalars()
        assert all(s >= 0.9 for s in scores)
        group = conn.execute(
            select(ted_winners.c.name, ted_winners.c.group_lead, ted_winners.c.value)
            .join(ted_notices, ted_notices.c.id == ted_winners.c.notice_pk)
            .where(ted_notices.c.notice_id == "2019215377")
            .order_by(ted_winners.c.org_ref)
        ).all()
    assert [(n, lead, float(v)) for n, lead, v in group] == [
        ("Slovak Telekom, a.s.", True, 1820000.0),
        ("Orange Slovensko, a.s.", False, 1820000.0),
    ]


def test_reimport_writes_nothing(engine, settings, imported):
    before = _snapshot(engine)
    _, stats, _ = run_import(engine, TED_CSV, str(EXPORT), settings.data_dir)
    assert (stats.inserted, stats.updated, stats.unchanged) == (0, 0, 3)
    assert _snapshot(engine) == before


def test_a_changed_notice_replaces_its_rows(engine, settings, tmp_path, imported):
    changed = tmp_path / "export_CAN_2019.csv"
    changed.write_text(
        EXPORT.read_text(encoding="utf-8").replace(",3100000,N,", ",3200000,N,"), encoding="utf-8"
    )
    _, stats, _ = run_import(engine, TED_CSV, str(changed), settings.data_dir)
    assert (stats.updated, stats.unchanged) == (1, 2)
    with engine.connect() as conn:
        value = conn.execute(
            select(contracts.c.value).where(contracts.c.party_name == "SLOVNAFT, a.s.")
        ).scalar_one()
    assert float(value) == 3200000.0 and count(engine, contracts) == 5


def _header():
    return EXPORT.read_text(encoding="utf-8").splitlines()[0]


@pytest.mark.parametrize(
    "body, reason",
    [
        (None, "malformed CSV"),  # cut short inside a quoted field
        ("cut-row", "fields, the header"),  # cut short at a comma
        (b"ID_NOTICE_CAN,TITLE\n2019104501,x\n", "not a TED contract award CSV"),
        (b"", "empty file"),
        (b"\xff\xfeI\x00D\x00", "not UTF-8"),
        (b"<html>maintenance</html>\n", "not a TED contract award CSV"),
    ],
)
def test_a_malformed_file_is_rejected_whole(engine, settings, tmp_path, body, reason):
    _companies(engine)
    text = EXPORT.read_text(encoding="utf-8")
    path = tmp_path / "export_CAN_2019.csv"
    if body is None:
        path.write_text(text[: text.index("Telekomunikačné") + 30].rsplit('"', 1)[0] + '"Slovak', "utf-8")
    elif body == "cut-row":
        lines = text.splitlines()
        path.write_text("\n".join([*lines[:4], lines[4][:200]]) + "\n", encoding="utf-8")
    else:
        path.write_bytes(body)
    with pytest.raises(SourceAbort, match=reason):
        run_import(engine, TED_CSV, str(path), settings.data_dir)
    assert count(engine, ted_notices) == 0 and count(engine, contracts) == 0
    with engine.connect() as conn:
        run = conn.execute(select(import_runs).order_by(import_runs.c.id.desc())).first()
    assert run.status == "failed"
    reject = next((settings.data_dir / "rejects").glob(f"ted_csv-{run.id}.jsonl"))
    assert reason in json.loads(reject.read_text(encoding="utf-8").splitlines()[-1])["reason"]


def test_rows_of_a_notice_apart_are_rejected(engine, settings, tmp_path):
    lines = EXPORT.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "export_CAN_2019.csv"
    path.write_text("\n".join([lines[0], lines[1], lines[4], lines[3]]) + "\n", encoding="utf-8")
    _, stats, rejects = run_import(engine, TED_CSV, str(path), settings.data_dir)
    assert (stats.inserted, stats.rejected) == (2, 1)
    assert "rows of notice 2019104501 are not together" in rejects.read_text(encoding="utf-8")


def test_in_the_catalogue_with_licence(engine, client, imported):
    with engine.connect() as conn:
        row = conn.execute(select(data_sources).where(data_sources.c.id == "ted_csv")).one()
    assert (row.row_count, row.category) == (3, "public_money")
    entry = {d["id"]: d for d in client.get("/api/v1/public/data-sources").json()["data"]}["ted_csv"]
    assert entry["licence"] == "CC BY 4.0" and "European Union" in entry["attribution"]


def test_notice_and_search_through_http(client, auth, imported):
    notice = assert_envelope(client.get("/api/v1/ted/notice/104501-2019", headers=auth))
    assert (notice["noticeId"], notice["form"], notice["country"], notice["totalValue"]) == (
        "2019104501",
        "ContractAwardNotice",
        "SK",
        5250000.0,
    )
    assert notice["link"] == "https://ted.europa.eu/en/notice/-/detail/104501-2019"
    assert [(w["name"], w["lot"], w["value"], w["link"]["method"]) for w in notice["winnerParties"]] == [
        ("SLOVNAFT, a.s.", "1", 3100000.0, "identifier"),
        ("Duslo, a.s.", "2", 2150000.5, "name"),
    ]
    assert [c["code"] for c in notice["cpvCodes"]] == ["09132100", "09134100", "09135100"]
    assert assert_envelope(client.get("/api/v1/ted/notice/2019104501", headers=auth))["pub"] == "104501-2019"
    found = assert_envelope(
        client.get(
            "/api/v1/ted/search",
            headers=auth,
            params={"country": "SK", "cpv": "09000000", "date_from": "2019-01-01", "winner": "slovnaft"},
        )
    )
    assert [n["pub"] for n in found] == ["104501-2019"]
    assert assert_envelope(client.get("/api/v1/ted/search", headers=auth, params={"country": "CZ"}))[0][
        "winners"
    ] == ["ČEZ, a. s."]
    assert_error(client.get("/api/v1/ted/notice/2019301130", headers=auth), 404, "NOT_FOUND")


def test_contracts_and_timeline_through_http(client, auth, imported):
    items = assert_envelope(
        client.get(f"/api/v1/companies/{SLOVNAFT}/contracts", headers=auth, params={"country": "SK"})
    )
    assert items == [
        {
            "id": items[0]["id"],
            "source": "ted_csv",
            "role": "supplier",
            "title": "Dodávka motorovej nafty, časť 1",
            "buyer": {
                "name": "Ministerstvo vnútra Slovenskej republiky",
                "nationalId": "00151866",
                "country": "SK",
            },
            "value": 3100000.0,
            "currency": "EUR",
            "valueBasis": "awarded",
            "signedOn": "2019-02-14",
            "publishedOn": "2019-03-06",
            "link": "https://ted.europa.eu/en/notice/-/detail/104501-2019",
            "notice": "2019104501",
            "match": {
                "method": "identifier",
                "score": 1.0,
                "company": {"country": "SK", "nationalId": SLOVNAFT, "name": "SLOVNAFT, a.s."},
            },
        }
    ]
    duslo = assert_envelope(client.get(f"/api/v1/companies/{DUSLO}/contracts", headers=auth))
    assert [(i["source"], i["value"], i["match"]["method"]) for i in duslo] == [
        ("ted_csv", 2150000.5, "name")
    ]
    events = assert_envelope(
        client.get(f"/api/v1/companies/{SLOVNAFT}/timeline", headers=auth, params={"event_type": "contract"})
    )["events"]
    assert [(e["date"], e["source"], e["summary"]) for e in events] == [
        ("2019-02-14", "ted_csv", "Supplier to Ministerstvo vnútra Slovenskej republiky, 3,100,000.00 EUR")
    ]
