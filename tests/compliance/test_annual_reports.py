"""`/annual-reports` from the RÚZ filed statements (`sk_registeruz_filings`), on the real detail answers
of tests/fixtures/sk_registeruz/ (statements 1 and 3), through HTTP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from regintel.areas.compliance.tables import filed_statements
from regintel.db.schema import data_sources
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import SourceAbort
from regintel.ingest.runner import run_import
from regintel.ingest.sources.sk_registeruz_filings import SOURCE
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

FIXTURES = Path(__file__).parent.parent / "fixtures" / "sk_registeruz"
MO, MPRV, EMPTY, CZ, UOL = "30845572", "00156621", "31322832", "45795908", "50826042"
PAGE = "https://www.registeruz.sk/cruz-public/domain"


def real(n: int) -> dict:
    return json.loads((FIXTURES / f"uctovna-zavierka__id-{n}.json").read_text(encoding="utf-8"))


@pytest.fixture
def data(engine):
    load_companies(
        engine,
        CompanyRecord(country="SK", national_id=MO, name="Ministerstvo obrany Slovenskej republiky"),
        CompanyRecord(country="SK", national_id=MPRV, name="Ministerstvo pôdohospodárstva SR"),
        CompanyRecord(country="SK", national_id=EMPTY, name="SLOVNAFT, a.s."),
        CompanyRecord(country="CZ", national_id=CZ, name="České aerolinie a.s."),
        CompanyRecord(
            country="SK", national_id=UOL, name="UOL SK s.r.o.", identifiers=[("ruz_id", "1689373")]
        ),
    )


def lines(tmp_path: Path, name: str, *items: object) -> str:
    path = tmp_path / name
    path.write_text(
        "\n".join(i if isinstance(i, str) else json.dumps(i, ensure_ascii=False) for i in items) + "\n",
        encoding="utf-8",
    )
    return str(path)


def imp(engine, settings, location: str):
    return run_import(engine, SOURCE, location, settings.data_dir)


def rows(engine) -> list[dict]:
    with engine.connect() as conn:
        table = filed_statements
        return [dict(r) for r in conn.execute(select(table).order_by(table.c.id)).mappings()]


def get(client, auth, ico, **params):
    return client.get(f"/api/v1/companies/{ico}/annual-reports", headers=auth, params=params)


def test_import_rejects_malformed_records_and_reimport_writes_nothing(engine, settings, data, tmp_path):
    bad_period = {**real(3), "id": 4, "obdobieDo": "2009-13"}
    bad_ico = {**real(3), "id": 5, "ico": "00156622"}
    src = lines(tmp_path, "zavierky.jsonl", real(1), real(3), bad_period, '{"id": 6, "obdobieDo"', bad_ico)
    _, stats, rejects = imp(engine, settings, src)
    assert (stats.read, stats.inserted, stats.rejected) == (5, 2, 3)
    reasons = [json.loads(x)["reason"] for x in rejects.read_text(encoding="utf-8").splitlines()]
    assert reasons[0].startswith("obdobieDo is not a YYYY-MM period")
    assert reasons[1].startswith("malformed JSON on line 4")
    assert reasons[2].startswith("invalid IČO '00156622'")
    stored = rows(engine)
    first = stored[0]
    assert (first["statement_id"], first["national_id"], first["unit_id"]) == ("1", MO, "442175")
    assert (first["period_from"], first["period_to"], first["kind"], first["consolidated"]) == (
        "2009-01",
        "2009-12",
        "ordinary",
        True,
    )
    assert first["report_ids"] == [1, 2] and first["data_source"] == "JUS"
    _, again, _ = imp(engine, settings, src)
    assert (again.inserted, again.updated, again.unchanged) == (0, 0, 2)
    assert rows(engine) == stored
    with engine.connect() as conn:
        ds = (
            conn.execute(select(data_sources).where(data_sources.c.id == "sk_registeruz_filings"))
            .mappings()
            .one()
        )
    assert ds["row_count"] == 2 and ds["licence"] and ds["last_import_at"] is not None


def test_a_newer_version_updates_and_an_older_one_is_skipped(engine, settings, data, tmp_path):
    imp(engine, settings, str(FIXTURES / "uctovna-zavierka__id-1.json"))
    newer = {**real(1), "datumPoslednejUpravy": "2014-01-02", "idUctovnychVykazov": [1, 2, 9]}
    _, stats, _ = imp(engine, settings, lines(tmp_path, "newer.json", newer))
    assert (stats.updated, stats.inserted) == (1, 0)
    assert rows(engine)[0]["report_ids"] == [1, 2, 9]
    _, old, _ = imp(engine, settings, str(FIXTURES / "uctovna-zavierka__id-1.json"))
    assert (old.updated, old.skipped) == (0, 1)
    assert rows(engine)[0]["report_ids"] == [1, 2, 9]


def test_the_list_answer_and_wrong_files_are_refused_whole(engine, settings, data, tmp_path):
    with pytest.raises(SourceAbort, match="list answer"):
        imp(engine, settings, str(FIXTURES / "uctovne-zavierky__max-zaznamov-2_zmenene-od-1993-01-01.json"))
    with pytest.raises(SourceAbort, match="empty"):
        imp(engine, settings, lines(tmp_path, "empty.json", ""))
    with pytest.raises(SourceAbort, match="not RÚZ statements"):
        imp(engine, settings, str(FIXTURES / "kraje.json"))  # a code list
    assert rows(engine) == []


def test_annual_reports_answer(client, auth, engine, settings, data, tmp_path):
    err = assert_error(get(client, auth, MO), 501, "NOT_IMPLEMENTED")
    assert "sk_registeruz_filings" in err["message"]
    later = {**real(1), "id": 7, "obdobieOd": "2010-01", "obdobieDo": "2010-12", "typ": "Mimoriadna"}
    imp(engine, settings, lines(tmp_path, "z.jsonl", real(1), real(3), later))
    body = assert_envelope(get(client, auth, MO))
    assert body["total"] == 2 and [d["statementId"] for d in body["documents"]] == ["7", "1"]
    doc = body["documents"][1]
    assert doc == {
        "statementId": "1",
        "periodFrom": "2009-01",
        "periodTo": "2009-12",
        "type": "ordinary",
        "consolidated": True,
        "compiledOn": "2009-12-31",
        "updatedOn": "2013-08-18",
        "channel": "JUS",
        "source": "sk_registeruz_filings",
        "url": f"{PAGE}/accountingclosure/show/1",
        "reports": [
            {"reportId": "1", "url": f"{PAGE}/financialreport/show/1"},
            {"reportId": "2", "url": f"{PAGE}/financialreport/show/2"},
        ],
        "annualReportIds": [],
    }
    assert body["documents"][0]["type"] == "extraordinary"
    one = assert_envelope(get(client, auth, MO, limit=1))
    assert one["total"] == 2 and len(one["documents"]) == 1
    assert assert_envelope(get(client, auth, EMPTY)) | {"name": None} == {
        "country": "SK",
        "nationalId": EMPTY,
        "name": None,
        "total": 0,
        "documents": [],
    }
    cz = assert_error(get(client, auth, CZ, country="cz"), 501, "NOT_IMPLEMENTED")
    assert "of CZ" in cz["message"] and "Sbírka listin" in cz["message"]
    assert_error(get(client, auth, MO, limit=0), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, MO, limit=501), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, MO, foo=1), 422, "VALIDATION_ERROR")
    assert_error(get(client, auth, "35763469"), 404, "NOT_FOUND")
    assert client.get(f"/api/v1/companies/{MO}/annual-reports").status_code == 401


def test_bulk_lines_skip_units_and_reports_and_link_by_ruz_unit_id(client, auth, engine, settings, data):
    _, stats, rejects = imp(engine, settings, str(FIXTURES / "bulk_sample.jsonl"))
    assert (stats.read, stats.inserted, stats.skipped, stats.rejected, rejects) == (10, 4, 6, 0, None)
    body = assert_envelope(get(client, auth, UOL))
    # 2869310 names the company by IČO; 2417702 (the current API's shape) only by its RÚZ unit id
    assert [(d["statementId"], d["periodTo"]) for d in body["documents"]] == [
        ("2869310", "2019-12"),
        ("2417702", "2018-12"),
    ]
    assert [r["reportId"] for r in body["documents"][0]["reports"]] == ["3711208", "3711209"]
