"""Stored reports rendered before a natural person was withheld (docs/accounts.md, "Withholding a natural
person"): the document is withdrawn in the withholding's transaction and rendered again by the worker without
the person (409 until then, never the old document); a lift renders it again with them. A withheld sole
trader's own reports go with the register entry (404) and come back with the lift."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import select

from regintel.areas.reports import queries
from regintel.areas.reports.service import render_again
from regintel.areas.reports.tables import reports
from regintel.db.schema import companies
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.sections import person_key
from regintel.jobs.runner import run_due
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.areas_accounts.test_privacy_traders import TRADER
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error
from tests.reports_area.test_reports_api import pdf_text

JANA = PersonRecord("Jana Testová", birth_date="1980-04")
PETER = PersonRecord("Peter Iný", birth_date="1970-01")
COMPANY = CompanyRecord(
    country="SK",
    national_id="35757442",
    name="NOVA s.r.o.",
    legal_form="112",
    city="Žilina",
    roles=[RoleRecord(role="director", holder_name=p.name, person=p) for p in (JANA, PETER)],
)
PDF = {"Accept": "application/pdf"}


def _stored(client, auth, engine, settings, cc: str, national_id: str) -> str:
    job = assert_envelope(client.post(f"/api/v1/companies/{cc}/{national_id}/report", headers=auth), 202)
    assert run_due(engine, settings, "test-worker") >= 1
    assert assert_envelope(client.get(job["statusUrl"], headers=auth))["status"] == "done"
    return str(job["statusUrl"])


def _document(client, auth, url: str) -> str:
    resp = client.get(url, headers=auth | PDF)
    assert resp.status_code == 200, resp.text[:300]
    return pdf_text(resp.content)


def test_a_report_naming_a_withheld_person_is_rendered_again(client, auth, engine, settings, cli):  # noqa: F811
    load_companies(engine, COMPANY)
    url = _stored(client, auth, engine, settings, "sk", "35757442")
    assert JANA.name in _document(client, auth, url)  # named before: the test can fail

    request_id = _file_request(client, engine, kind="erase")
    key = person_key(JANA.name, JANA.birth_date, JANA.nationality)
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{key}")
    # withdrawn at once: not the old document, whether or not a worker runs
    waiting = assert_envelope(client.get(url, headers=auth))
    assert waiting["status"] == "queued" and waiting["documentUrl"] is None
    assert_error(client.get(url, headers=auth | PDF), 409, "CONFLICT")

    assert run_due(engine, settings, "test-worker") >= 1
    text = _document(client, auth, url)
    assert JANA.name not in text and PETER.name in text and COMPANY.name in text

    cli("lift", f"p:{key}")
    assert run_due(engine, settings, "test-worker") >= 1
    assert JANA.name in _document(client, auth, url)


def test_a_render_that_began_before_the_withholding_does_not_write_back(client, auth, engine, settings):
    """A render job of a withdrawn report stores nothing once a newer job owns the report."""
    load_companies(engine, COMPANY)
    url = _stored(client, auth, engine, settings, "sk", "35757442")
    report_id = int(url.rsplit("/", 1)[1])
    with engine.begin() as conn:
        first_job = conn.execute(select(reports.c.job_id)).scalar_one()
        company_id = conn.execute(select(companies.c.id)).scalar_one()
        assert render_again(conn, [company_id], datetime.now(UTC)) == 1
    with engine.begin() as conn:
        assert not queries.finish(conn, report_id, datetime.now(UTC), b"old", "x", None, job_id=first_job)
    assert_error(client.get(url, headers=auth | PDF), 409, "CONFLICT")


def test_a_withheld_sole_traders_reports_go_and_come_back(client, auth, engine, settings, cli):  # noqa: F811
    load_companies(engine, TRADER)
    url = _stored(client, auth, engine, settings, "sk", TRADER.national_id)
    before = client.get(url, headers=auth | PDF).content
    assert TRADER.name in pdf_text(before)

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", f"SK:{TRADER.national_id}")
    assert_error(client.get(url, headers=auth), 404, "NOT_FOUND")
    assert_error(client.get(url, headers=auth | PDF), 404, "NOT_FOUND")

    assert json.loads(cli("lift", f"c:SK:{TRADER.national_id}"))["rows"] >= 3
    assert client.get(url, headers=auth | PDF).content == before
