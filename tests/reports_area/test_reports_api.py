"""Reports through HTTP: the PDF company report, stored reports run by the worker, the due-diligence report
and its preview, with a fake OpenAI-compatible model on 127.0.0.1."""

from __future__ import annotations

import io
import json
import threading
from datetime import date
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from pypdf import PdfReader

from regintel.domain.types import CompanyKey, CompanyRecord, FinancialRecord, RoleRecord
from regintel.jobs.runner import run_due
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

POLISH = "Zakłady Przemysłowe Łódź Spółka z o.o."
GREEK = "ΕΛΛΗΝΙΚΑ ΠΕΤΡΕΛΑΙΑ Α.Ε."
CYRILLIC = "ТОВ «Київська Промислова Компанія»"
SLOVAK = "Žilinská stavebná spoločnosť, s.r.o."


def fin(year: int, revenue: int, profit: int, equity: int) -> FinancialRecord:
    return FinancialRecord(
        year=year,
        currency="EUR",
        revenue=Decimal(revenue),
        profit=Decimal(profit),
        total_assets=Decimal(revenue) * 2,
        equity=Decimal(equity),
        liabilities=Decimal(revenue * 2 - equity),
    )


@pytest.fixture
def companies(engine):
    load_companies(
        engine,
        CompanyRecord(
            country="SK",
            national_id="35757442",
            name=SLOVAK,
            legal_form="112",
            founded_on=date(2005, 3, 1),
            street="Hurbanova 5",
            postal_code="01001",
            city="Žilina",
            nace_primary="41.20",
            employees=12,
            financials=[
                fin(2021, 800_000, 40_000, 300_000),
                fin(2022, 900_000, -50_000, 250_000),
                fin(2023, 600_000, -80_000, 170_000),
            ],
            roles=[
                RoleRecord(
                    role="shareholder",
                    holder_name=POLISH,
                    holder_company=CompanyKey("PL", "0000012345"),
                    share_pct=60.0,
                ),
                RoleRecord(role="director", holder_name="Ján Ďurčík"),
            ],
        ),
        CompanyRecord(
            country="PL", national_id="0000012345", name=POLISH, city="Łódź", founded_on=date(1999, 1, 1)
        ),
        CompanyRecord(country="GR", national_id="094014201", name=GREEK, city="Αθήνα", in_bankruptcy=True),
        CompanyRecord(country="UA", national_id="32855961", name=CYRILLIC, city="Київ"),
        # Same number in two countries: `{ico}` without a country is ambiguous.
        CompanyRecord(country="SK", national_id="00177041", name="Dvojník SK s.r.o."),
        CompanyRecord(country="CZ", national_id="00177041", name="Dvojník CZ a.s."),
    )


def pdf_text(body: bytes) -> str:
    reader = PdfReader(io.BytesIO(body))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_report_pdf_renders_every_alphabet(client, auth, companies):
    resp = client.get("/api/v1/companies/35757442/report.pdf", headers=auth)
    assert resp.status_code == 200, resp.text
    assert resp.headers["content-type"] == "application/pdf"
    assert resp.headers["cache-control"].startswith("private")
    text = pdf_text(resp.content)
    for expected in (
        SLOVAK,
        "Financial history",
        "Credit assessment",
        "Sanctions screening",
        "NIS2 scope",
        "Sources and licences",
        "Zakłady Przemysłowe Łódź",
        "Ján Ďurčík",
        "Žilina",
    ):
        assert expected in text, expected
    for ico, country, name in (("094014201", "gr", GREEK), ("32855961", "ua", CYRILLIC)):
        resp = client.get(f"/api/v1/companies/{ico}/report.pdf?country={country}", headers=auth)
        assert resp.status_code == 200, resp.text
        assert name in pdf_text(resp.content)
    assert "Insolvency: bankruptcy" in pdf_text(
        client.get("/api/v1/companies/094014201/report.pdf?country=GR", headers=auth).content
    )


def test_report_pdf_edges(client, auth, companies):
    assert_error(client.get("/api/v1/companies/35757442/report.pdf"), 401, "UNAUTHORIZED")
    assert_error(client.get("/api/v1/companies/12345678/report.pdf", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/companies/not-an-id/report.pdf", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(
        client.get("/api/v1/companies/00177041/report.pdf", headers=auth), 409, "AMBIGUOUS_IDENTIFIER"
    )
    assert_error(
        client.get("/api/v1/companies/35757442/report.pdf?colour=red", headers=auth), 422, "VALIDATION_ERROR"
    )
    assert_error(
        client.get("/api/v1/companies/" + "9" * 41 + "/report.pdf", headers=auth), 422, "VALIDATION_ERROR"
    )


def test_stored_report_runs_in_the_worker_and_is_private(client, auth, companies, engine, settings, make_key):
    resp = client.post(
        "/api/v1/companies/sk/35757442/report", headers=auth, json={"sections": ["identity", "financials"]}
    )
    job = assert_envelope(resp, 202)
    assert job["status"] == "queued" and job["documentUrl"] is None
    assert resp.headers["location"] == job["statusUrl"] == f"/api/v1/reports/{job['id']}"
    assert job["company"] == {"country": "SK", "nationalId": "35757442", "name": SLOVAK}
    assert_error(client.get(job["statusUrl"], headers=auth | {"Accept": "application/pdf"}), 409, "CONFLICT")
    assert run_due(engine, settings, "test-worker") >= 1  # other areas may queue jobs of their own
    done = assert_envelope(client.get(job["statusUrl"], headers=auth))
    assert done["status"] == "done" and done["mediaType"] == "application/pdf" and done["sizeBytes"] > 1000
    resp = client.get(job["statusUrl"], headers=auth | {"Accept": "application/pdf"})
    assert resp.status_code == 200 and resp.headers["content-type"] == "application/pdf"
    text = pdf_text(resp.content)
    assert SLOVAK in text and "Financial history" in text and "Sources and licences" in text
    assert "Credit assessment" not in text  # not a chosen section
    assert client.get(done["documentUrl"], headers=auth).content == resp.content
    other = {"Authorization": f"Bearer {make_key('business', name='other')}"}
    assert_error(client.get(job["statusUrl"], headers=other), 404, "NOT_FOUND")
    assert_error(client.get(job["statusUrl"]), 401, "UNAUTHORIZED")
    assert_error(client.get("/api/v1/reports/999999", headers=auth), 404, "NOT_FOUND")
    assert_error(client.get("/api/v1/reports/abc", headers=auth), 422, "VALIDATION_ERROR")


def test_stored_report_edges(client, auth, companies):
    url = "/api/v1/companies/sk/35757442/report"
    assert_error(client.post(url, json={}), 401, "UNAUTHORIZED")
    assert_error(client.post(url, headers=auth, json={"format": "docx"}), 422, "VALIDATION_ERROR")
    assert_error(client.post(url, headers=auth, json={"colour": "red"}), 422, "VALIDATION_ERROR")
    assert_error(client.post(url, headers=auth, json={"sections": ["gossip"]}), 422, "VALIDATION_ERROR")
    assert_error(client.post(url, headers=auth, json={"sections": []}), 422, "VALIDATION_ERROR")
    assert_error(
        client.post(url, headers=auth, json={"sections": ["identity"] * 10_000}), 422, "VALIDATION_ERROR"
    )
    assert_error(client.post("/api/v1/companies/sk/31322832/report", headers=auth), 404, "NOT_FOUND")
    assert_error(client.post("/api/v1/companies/sk/ABC/report", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.post("/api/v1/companies/1x/35757442/report", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.post("/api/v1/companies/xx/35757442/report", headers=auth), 404, "NOT_FOUND")
    assert assert_envelope(client.post(url, headers=auth), 202)["status"] == "queued"  # no body: defaults


def test_dd_preview_is_rule_based_with_evidence(client, auth, companies):
    data = assert_envelope(client.post("/api/v1/companies/35757442/report/ai-dd/preview", headers=auth))
    assert data["writer"]["kind"] == "rule-based" and "no language model" in data["writer"]["note"]
    assert data["prose"] is None and data["complete"] is False
    assert [s["id"] for s in data["sections"]] == ["identity", "financials", "credit"]
    findings = [f for s in data["sections"] for f in s["findings"]]
    assert [f["ref"] for f in findings] == list(range(1, len(findings) + 1))
    loss = next(f for f in findings if f["statement"].startswith("Loss of"))
    assert loss["severity"] == "high" and loss["evidence"]["lossYearsOfLastThree"] == 2
    assert loss["source"] == "test_register"
    decline = next(f for f in findings if "Revenue fell" in f["statement"])
    assert decline["evidence"]["revenue_growth"] == pytest.approx(-1 / 3, abs=1e-4)
    assert data["conclusion"]["verdict"] == "escalate"
    gr = assert_envelope(
        client.post("/api/v1/companies/094014201/report/ai-dd/preview?country=GR", headers=auth)
    )
    assert any(f["statement"] == "The company is in bankruptcy." for f in gr["sections"][0]["findings"])
    assert_error(client.post("/api/v1/companies/35757442/report/ai-dd/preview"), 401, "UNAUTHORIZED")
    assert_error(
        client.post("/api/v1/companies/00177041/report/ai-dd/preview", headers=auth),
        409,
        "AMBIGUOUS_IDENTIFIER",
    )
    assert_error(
        client.post("/api/v1/companies/12345678/report/ai-dd/preview", headers=auth), 404, "NOT_FOUND"
    )


class FakeChat(BaseHTTPRequestHandler):
    """Answers like the OpenAI chat completions API and remembers what it was asked."""

    asked: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server interface
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeChat.asked.append({"path": self.path, "body": body})
        answer = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "The company is loss-making [5]."},
                }
            ],
        }
        data = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_llm():
    server = HTTPServer(("127.0.0.1", 0), FakeChat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    FakeChat.asked = []
    yield f"http://127.0.0.1:{server.server_port}/v1"
    server.shutdown()
    server.server_close()


def test_dd_report_job_without_a_model(client, auth, companies, engine, settings, make_key):
    job = assert_envelope(client.post("/api/v1/companies/35757442/report/ai-dd", headers=auth), 202)
    assert job["kind"] == "ai-dd" and job["format"] == "json"
    assert run_due(engine, settings, "test-worker") >= 1  # other areas may queue jobs of their own
    done = assert_envelope(client.get(job["statusUrl"], headers=auth))
    assert done["status"] == "done" and done["mediaType"] == "application/json"
    story = done["narrative"]
    assert story["complete"] is True and story["writer"]["kind"] == "rule-based"
    assert [s["id"] for s in story["sections"]] == [
        "identity",
        "financials",
        "credit",
        "risk",
        "ownership",
        "sanctions",
        "nis2",
        "events",
    ]
    ownership = next(s for s in story["sections"] if s["id"] == "ownership")["findings"]
    assert any(POLISH in f["statement"] and f["evidence"]["sharePct"] == 60.0 for f in ownership)
    assert not any(
        "Ďurčík" in f["statement"] for s in story["sections"] for f in s["findings"]
    )  # persons counted
    sanctions = next(s for s in story["sections"] if s["id"] == "sanctions")["findings"]
    assert sanctions[0]["evidence"] == {"screened": False}
    other = {"Authorization": f"Bearer {make_key('business', name='other')}"}
    assert_error(client.get(job["statusUrl"], headers=other), 404, "NOT_FOUND")
    assert_error(
        client.post("/api/v1/companies/35757442/report/ai-dd", headers=auth, json={"x": 1}),
        422,
        "VALIDATION_ERROR",
    )


def test_dd_report_with_a_configured_model_as_pdf(
    app_factory, companies, engine, settings, make_key, fake_llm
):
    client = app_factory(llm_base_url=fake_llm, llm_model="fake-model")
    auth = {"Authorization": f"Bearer {make_key('business')}"}
    job = assert_envelope(
        client.post(
            "/api/v1/companies/sk/35757442/report/ai-dd".replace("/sk", ""),
            headers=auth,
            json={"format": "pdf"},
        ),
        202,
    )
    worker_settings = settings.model_copy(update={"llm_base_url": fake_llm, "llm_model": "fake-model"})
    assert run_due(engine, worker_settings, "test-worker") >= 1
    done = assert_envelope(client.get(job["statusUrl"], headers=auth))
    assert done["status"] == "done", done
    assert done["narrative"]["writer"] == {
        "kind": "language-model",
        "model": "fake-model",
        "note": done["narrative"]["writer"]["note"],
    }
    assert done["narrative"]["prose"] == "The company is loss-making [5]."
    (asked,) = FakeChat.asked
    assert asked["path"] == "/v1/chat/completions" and asked["body"]["model"] == "fake-model"
    prompt = asked["body"]["messages"][1]["content"]
    assert "[1]" in prompt and SLOVAK in prompt and "Ďurčík" not in prompt  # no natural person given to it
    text = pdf_text(client.get(job["statusUrl"], headers=auth | {"Accept": "application/pdf"}).content)
    assert "Due-diligence report".upper() in text and "loss-making [5]" in text and "ESCALATE" in text
    # The preview never calls the model.
    assert_envelope(client.post("/api/v1/companies/35757442/report/ai-dd/preview", headers=auth))
    assert len(FakeChat.asked) == 1


def test_dd_report_when_the_model_fails(companies, engine, settings, client, auth):
    job = assert_envelope(client.post("/api/v1/companies/35757442/report/ai-dd", headers=auth), 202)
    # Nothing listens on port 9 of 127.0.0.1: the rule-based findings are served, and the answer says why.
    broken = settings.model_copy(update={"llm_base_url": "http://127.0.0.1:9/v1", "llm_model": "m"})
    assert run_due(engine, broken, "test-worker") >= 1
    story = assert_envelope(client.get(job["statusUrl"], headers=auth))["narrative"]
    assert story["writer"]["kind"] == "rule-based (model failed)" and story["prose"] is None
