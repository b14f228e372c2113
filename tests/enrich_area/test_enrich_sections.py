"""Sections of enrichment jobs (issue 22) through HTTP with the real worker's job runner: each section's
answer equals the REST route's for the same company, the purpose gate of the ownership section, the CSV
upload with sections and their CSV columns, unknown sections refused, and a failing section absent for
one company only."""

from __future__ import annotations

import csv
import io
import json
import signal
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from sqlalchemy import func, select

from regintel.areas.accounts.service import FO_ADDENDUM_VERSION
from regintel.areas.enrich import sections
from regintel.areas.screening.hits import refresh_company_hits
from regintel.db.schema import jobs
from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, PersonRecord, RoleRecord
from regintel.jobs.runner import run_due
from tests.areas_accounts.test_account_api import sign_in
from tests.builders import load_companies
from tests.enrich_area.test_enrich_worker_process import start_worker, wait
from tests.helpers import assert_envelope, assert_error
from tests.screening.support import load_lists

URL = "/api/v1/enrich/jobs"
SK, BANKRUPT, CUBA = "31322832", "35757442", "36631124"
ALL = list(sections.NAMES)


def fin(year: int, revenue: int, profit: int) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency="EUR",
        revenue=Decimal(revenue),
        profit=Decimal(profit),
        total_assets=Decimal(revenue),
        equity=Decimal(revenue) // 2,
        liabilities=Decimal(revenue) // 2,
        employees=120,
    )


@pytest.fixture
def data(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id=SK,
            name="SLOVNAFT, a.s.",
            status="active",
            legal_form="121",
            founded_on=date(1992, 4, 24),
            vat_id="SK2020372640",
            employees=120,
            nace_primary="19200",
            financials=[fin(2022, 5_000_000, 400_000), fin(date.today().year - 1, 6_000_000, 500_000)],
            roles=[
                RoleRecord(
                    role="shareholder",
                    holder_name="Ján Novák",
                    share_pct=40.0,
                    person=PersonRecord(name="Ján Novák", birth_date="1970-02-03", nationality="SK"),
                ),
                RoleRecord(
                    role="shareholder",
                    holder_name="Stavby Žilina s.r.o.",
                    share_pct=60.0,
                    holder_company=CompanyKey("SK", BANKRUPT),
                ),
            ],
        ),
        CompanyRecord(
            country="SK",
            national_id=BANKRUPT,
            name="Stavby Žilina s.r.o.",
            founded_on=date(2005, 3, 1),
            in_bankruptcy=True,
            financials=[fin(2019, 800_000, -50_000)],
        ),
        CompanyRecord(
            country="SK",
            national_id=CUBA,
            name="BANCO NACIONAL DE CUBA, a.s.",
            roles=[RoleRecord(role="shareholder", holder_name="BNK (UK) Ltd")],
        ),
    )
    load_lists(engine)
    refresh_company_hits(engine)


def rest(client, auth, ico: str, path: str, **params: Any) -> Any:
    return assert_envelope(
        client.get(f"/api/v1/companies/{ico}/{path}", headers=auth, params={"country": "SK", **params})
    )


def run_job(client, auth, engine, settings, resp) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    job = assert_envelope(resp, 202)
    assert run_due(engine, settings, "test-worker") >= 1  # other areas may queue jobs of their own
    done = assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))
    assert done["status"] == "done", done
    text = client.get(done["resultUrl"], headers=auth).text
    return done, [json.loads(line) for line in text.splitlines()]


def queued(engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(jobs)).scalar_one())


def test_every_section_equals_its_rest_route(client, auth, engine, settings, data):
    body = {"identifiers": [SK, BANKRUPT, CUBA, "00000000", SK], "country": "SK", "sections": ALL[::-1]}
    done, answers = run_job(client, auth, engine, settings, client.post(URL, json=body, headers=auth))
    assert done["sections"] == ALL and done["purpose"] is None  # the documented order, each once
    assert [a["status"] for a in answers] == ["found", "found", "found", "invalid", "found"]
    assert "sections" not in answers[3]
    assert answers[4]["sections"] == answers[0]["sections"]  # the same company twice in a chunk
    for a in (answers[0], answers[1], answers[2]):
        ico, got = a["company"]["nationalId"], a["sections"]
        assert list(got) == ALL
        assert got["risk"] == {"present": True, "reason": None, "data": rest(client, auth, ico, "risk")}
        assert got["nis2"]["data"] == rest(client, auth, ico, "nis2")
        assert got["ownership"]["data"] == rest(client, auth, ico, "ultimate-owner")
        summary = rest(client, auth, ico, "compliance")
        assert got["compliance"]["data"] == summary
        assert got["sanctions"]["data"] == summary["sanctions"]
        score = rest(client, auth, ico, "credit-score")
        assert got["credit"]["present"] and set(got["credit"]["data"]) < set(score)
        assert got["credit"]["data"] == {k: score[k] for k in got["credit"]["data"]}
        years = rest(client, auth, ico, "financial-history")["years"]
        if years:
            assert got["financials"] == {"present": True, "reason": None, "data": years[0]}
    sk, cuba = answers[0]["sections"], answers[2]["sections"]
    assert sk["credit"]["data"]["grade"] and sk["financials"]["data"]["year"] == date.today().year - 1
    assert cuba["financials"] == {
        "present": False,
        "reason": "no financial statement on record",
        "data": None,
    }
    assert cuba["sanctions"]["data"]["status"] == "name_match"
    assert sk["sanctions"]["data"]["status"] == "clear"
    owners = sk["ownership"]["data"]
    person = next(e for e in owners["entities"].values() if e["type"] == "person")
    assert person["name"] == "Ján Novák" and person["personal"] is None  # no purpose declared


def test_the_ownership_section_shows_personal_fields_only_with_a_purpose(
    client, auth, engine, settings, data
):
    body = {"identifiers": [SK], "country": "SK", "sections": ["ownership"], "purpose": "KYC"}
    done, answers = run_job(client, auth, engine, settings, client.post(URL, json=body, headers=auth))
    assert done["purpose"] == "kyc"
    got = answers[0]["sections"]["ownership"]["data"]
    assert got == rest(client, auth, SK, "ultimate-owner", purpose="kyc")
    person = next(e for e in got["entities"].values() if e["type"] == "person")
    assert person["personal"]["birthDate"] == "1970-02-03" and person["personal"]["nationality"] == "SK"
    before = queued(engine)
    error = assert_error(
        client.post(URL, json=body | {"purpose": "curiosity"}, headers=auth), 422, "VALIDATION_ERROR"
    )
    assert error["details"][0]["field"] == "purpose" and "kyc" in error["details"][0]["allowed"]
    files = {"file": ("c.csv", b"ico\n31322832\n", "text/csv")}
    assert_error(
        client.post(URL, files=files, data={"purpose": "curiosity", "sections": "ownership"}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert queued(engine) == before


def test_the_natural_persons_addendum_opens_the_gate_as_on_the_rest_route(
    client, auth, engine, settings, data
):
    csrf = sign_in(client, engine)
    raw = assert_envelope(client.post("/account/api-keys", json={"name": "kyc"}, headers=csrf), 201)["key"]
    assert_envelope(
        client.post(
            "/account/fo-addendum/accept",
            headers=csrf,
            json={"text_version": FO_ADDENDUM_VERSION, "person_name": "Anna Nováková", "accept": True},
        )
    )
    signed = {"Authorization": f"Bearer {raw}"}
    body = {"identifiers": [SK], "country": "SK", "sections": ["ownership"]}
    done, answers = run_job(client, signed, engine, settings, client.post(URL, json=body, headers=signed))
    got = answers[0]["sections"]["ownership"]["data"]
    assert done["purpose"] is None and got == rest(client, signed, SK, "ultimate-owner")
    person = next(e for e in got["entities"].values() if e["type"] == "person")
    assert person["personal"]["birthDate"] == "1970-02-03"
    _, others = run_job(client, auth, engine, settings, client.post(URL, json=body, headers=auth))
    other = next(
        e for e in others[0]["sections"]["ownership"]["data"]["entities"].values() if e["type"] == "person"
    )
    assert other["personal"] is None  # another account's key: the gate stays shut


@pytest.mark.parametrize("sent", [["credit", "bogus"], ["ALL"], [1], ["credit"] * 15, ["x" * 33], "credit"])
def test_unknown_or_malformed_sections_are_refused_before_anything_is_queued(client, auth, engine, sent):
    before = queued(engine)
    error = assert_error(
        client.post(URL, json={"identifiers": [SK], "sections": sent}, headers=auth), 422, "VALIDATION_ERROR"
    )
    if sent == ["credit", "bogus"]:
        assert "bogus" in error["message"] and error["details"][0]["unknown"] == ["bogus"]
        assert error["details"][0]["allowed"] == ALL
    assert queued(engine) == before


def test_unknown_sections_of_an_upload_are_refused(client, auth, engine):
    before = queued(engine)
    files = {"file": ("c.csv", b"ico\n31322832\n", "text/csv")}
    error = assert_error(
        client.post(URL, files=files, data={"sections": "credit, nope"}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert "nope" in error["message"]
    assert_error(
        client.post(URL, files=files, data={"sections": "credit," * 100}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert queued(engine) == before


def test_a_csv_upload_with_sections_gets_their_columns(client, auth, engine, settings, data):
    content = f"IČO;country\n{SK};SK\n{CUBA};SK\n99999999;SK\n".encode()
    resp = client.post(
        URL,
        files={"file": ("c.csv", content, "text/csv")},
        data={"sections": ["financials, credit", "sanctions"]},
        headers=auth,
    )
    done, answers = run_job(client, auth, engine, settings, resp)
    assert done["sections"] == ["credit", "sanctions", "financials"] and done["input"]["kind"] == "csv"
    resp = client.get(done["resultUrl"], params={"format": "csv"}, headers=auth)
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    sk, cuba, missing = rows
    credit = answers[0]["sections"]["credit"]["data"]
    assert (sk["creditScore"], sk["creditGrade"]) == (str(credit["score"]), credit["grade"])
    assert (sk["financialsYear"], sk["revenue"], sk["financialsReason"]) == (
        str(date.today().year - 1),
        "6000000.0",
        "",
    )
    assert (cuba["financialsYear"], cuba["financialsReason"]) == ("", "no financial statement on record")
    assert (cuba["sanctionsStatus"], sk["sanctionsStatus"], sk["sanctionsHits"]) == (
        "name_match",
        "clear",
        "0",
    )
    assert missing["status"] in ("not_found", "invalid")
    assert missing["creditScore"] == missing["creditReason"] == ""
    header = next(csv.reader(io.StringIO(resp.text)))
    assert header[header.index("matchScore") + 1 :] == [
        "creditScore",
        "creditGrade",
        "creditConfidence",
        "creditReason",
        "sanctionsStatus",
        "sanctionsHits",
        "sanctionsConfirmed",
        "sanctionsReason",
        "financialsYear",
        "financialsCurrency",
        "revenue",
        "profit",
        "totalAssets",
        "equity",
        "financialsEmployees",
        "financialsReason",
    ]


def test_a_job_without_sections_has_no_section_columns(client, auth, engine, settings, data):
    done, answers = run_job(
        client, auth, engine, settings, client.post(URL, json={"identifiers": [SK]}, headers=auth)
    )
    assert done["sections"] == [] and "sections" not in answers[0]
    header = next(
        csv.reader(io.StringIO(client.get(done["resultUrl"], params={"format": "csv"}, headers=auth).text))
    )
    assert header[-1] == "matchScore"


def test_a_failing_section_is_absent_for_that_company_only(client, auth, engine, settings, data, monkeypatch):
    real = sections.scores_views.risk

    def risk(conn: Any, row: Any) -> Any:
        if row["national_id"] == BANKRUPT:
            raise RuntimeError("bad data")
        return real(conn, row)

    monkeypatch.setattr(sections.scores_views, "risk", risk)
    body = {"identifiers": [SK, BANKRUPT, CUBA], "country": "SK", "sections": ["risk", "credit"]}
    done, answers = run_job(client, auth, engine, settings, client.post(URL, json=body, headers=auth))
    assert done["counts"]["found"] == 3 and done["error"] is None
    assert [a["sections"]["risk"]["present"] for a in answers] == [True, False, True]
    assert (
        answers[1]["sections"]["risk"]["reason"] == "the section failed (RuntimeError); the error is logged"
    )
    assert all(a["sections"]["credit"]["present"] for a in answers)  # the other section is untouched
    assert answers[0]["sections"]["risk"]["data"] == rest(client, auth, SK, "risk")


@pytest.mark.slow
def test_regintel_worker_as_a_process_answers_a_job_with_sections(
    client, auth, engine, settings, data, tmp_path
):
    body = {"identifiers": [SK, CUBA], "country": "SK", "sections": ALL, "purpose": "kyc"}
    job = assert_envelope(client.post(URL, json=body, headers=auth), 202)
    worker = start_worker(settings, tmp_path, "worker")
    try:
        wait(
            lambda: assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))["status"] == "done",
            120,
            "the job to finish",
        )
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
    resp = client.get(f"{URL}/{job['id']}/result", headers=auth)
    answers = [json.loads(line) for line in resp.text.splitlines()]
    assert [list(a["sections"]) for a in answers] == [ALL, ALL]
    got = answers[0]["sections"]
    assert got["ownership"]["data"] == rest(client, auth, SK, "ultimate-owner", purpose="kyc")
    assert got["compliance"]["data"] == rest(client, auth, SK, "compliance")
    assert got["risk"]["data"] == rest(client, auth, SK, "risk")
    assert answers[1]["sections"]["financials"]["present"] is False
