"""Stored answers of enrichment jobs when a natural person is withheld (docs/enrich.md, "Withheld persons";
issue 23): the answers that name the person (an `ownership` section computed with a purpose, the register
entry of a sole trader) are withdrawn in the withholding's transaction (the result answers 409 until the
worker has answered them again, never the old lines) and answered again without the person; the lift has
them answered again with the person. A run that read its chunk before the withholding writes nothing."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from regintel.areas.enrich import jobs as enrich_jobs
from regintel.areas.enrich import privacy as enrich_privacy
from regintel.domain.types import CompanyKey, CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.sections import person_key
from regintel.jobs.runner import run_due
from tests.areas_accounts.test_privacy_persons import _file_request, cli  # noqa: F401 (fixture)
from tests.areas_accounts.test_privacy_traders import TRADER
from tests.builders import load_companies
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/enrich/jobs"
JANA = PersonRecord("Jana Testová", birth_date="1980-04-17", nationality="SK")
HOLDING = CompanyRecord(
    country="SK",
    national_id="35757442",
    name="NOVA HOLDING s.r.o.",
    legal_form="112",
    roles=[RoleRecord(role="shareholder", holder_name=JANA.name, share_pct=100.0, person=JANA)],
)
# owned by the holding: its ultimate owner is Jana too, though she holds no role in it
DAUGHTER = CompanyRecord(
    country="SK",
    national_id="36421928",
    name="NOVA DCÉRA s.r.o.",
    legal_form="112",
    roles=[
        RoleRecord(
            role="shareholder",
            holder_name=HOLDING.name,
            share_pct=100.0,
            holder_company=CompanyKey("SK", HOLDING.national_id),
        )
    ],
)
OTHER = CompanyRecord(
    country="SK",
    national_id="31322832",
    name="INÁ FIRMA a.s.",
    legal_form="121",
    roles=[
        RoleRecord(
            role="shareholder", holder_name="Peter Iný", share_pct=100.0, person=PersonRecord("Peter Iný")
        )
    ],
)
IDS = [HOLDING.national_id, DAUGHTER.national_id, OTHER.national_id, TRADER.national_id]
KEY = person_key(JANA.name, JANA.birth_date, JANA.nationality)


def _job(client, auth, engine, settings) -> str:
    body = {"identifiers": IDS, "country": "SK", "sections": ["ownership"], "purpose": "kyc"}
    job = assert_envelope(client.post(URL, json=body, headers=auth), 202)
    assert run_due(engine, settings, "test-worker") >= 1
    done = assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))
    assert done["status"] == "done", done
    return f"{URL}/{job['id']}"


def _result(client, auth, url: str) -> tuple[str, str]:
    """The JSON lines and the CSV of a job's result."""
    lines = client.get(f"{url}/result", headers=auth)
    table = client.get(f"{url}/result", params={"format": "csv"}, headers=auth)
    assert lines.status_code == table.status_code == 200, lines.text[:300]
    return lines.text, table.text


def _owners(text: str) -> dict[str, list[str]]:
    """National id -> the names of its ultimate owners, from the JSON lines."""
    out = {}
    for line in text.splitlines():
        a = json.loads(line)
        if a["status"] == "found":
            data = a["sections"]["ownership"]["data"] or {}
            names = (data["entities"][o["entity"]].get("name") for o in data.get("owners") or [])
            out[a["company"]["nationalId"]] = sorted(str(n) for n in names)
    return out


def _withdrawn(client, auth, url: str) -> None:
    assert assert_envelope(client.get(url, headers=auth))["resultUrl"] is None
    for fmt in ("jsonl", "csv"):
        assert_error(client.get(f"{url}/result", params={"format": fmt}, headers=auth), 409, "CONFLICT")


def test_answers_naming_a_withheld_person_are_answered_again(client, auth, engine, settings, cli):  # noqa: F811
    load_companies(engine, HOLDING, DAUGHTER, OTHER, TRADER)
    url = _job(client, auth, engine, settings)
    lines, table = _result(client, auth, url)
    # named, with the birth date the purpose let through, before: the test can fail
    assert JANA.name in lines and "1980-04-17" in lines and JANA.name in table
    assert _owners(lines)[DAUGHTER.national_id] == [JANA.name]

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{KEY}")
    _withdrawn(client, auth, url)  # at once, whether or not a worker runs

    assert run_due(engine, settings, "test-worker") >= 1
    lines, table = _result(client, auth, url)
    assert JANA.name not in lines and "1980-04-17" not in lines and JANA.name not in table
    owners = _owners(lines)
    assert owners[OTHER.national_id] == ["Peter Iný"] and HOLDING.national_id in owners
    assert [json.loads(x)["index"] for x in lines.splitlines()] == [0, 1, 2, 3]
    assert len(list(csv.DictReader(io.StringIO(table)))) == 4

    cli("lift", f"p:{KEY}")
    _withdrawn(client, auth, url)
    assert run_due(engine, settings, "test-worker") >= 1
    lines, table = _result(client, auth, url)
    assert "1980-04-17" in lines and JANA.name in table
    assert _owners(lines)[DAUGHTER.national_id] == [JANA.name]


def test_a_withheld_sole_trader_is_answered_again(client, auth, engine, settings, cli):  # noqa: F811
    load_companies(engine, HOLDING, DAUGHTER, OTHER, TRADER)
    url = _job(client, auth, engine, settings)
    lines, table = _result(client, auth, url)
    assert TRADER.name in lines and TRADER.name in table

    request_id = _file_request(client, engine, kind="erase")
    cli("answer", str(request_id), "--outcome", "Erased", "--withhold-company", f"SK:{TRADER.national_id}")
    _withdrawn(client, auth, url)
    assert run_due(engine, settings, "test-worker") >= 1
    lines, table = _result(client, auth, url)
    assert TRADER.name not in lines and TRADER.name not in table and "Ján Horváth" not in lines
    assert json.loads(lines.splitlines()[3])["status"] == "not_found"

    cli("lift", f"c:SK:{TRADER.national_id}")
    _withdrawn(client, auth, url)
    assert run_due(engine, settings, "test-worker") >= 1
    lines, table = _result(client, auth, url)
    found = json.loads(lines.splitlines()[3])
    assert found["status"] == "found" and found["company"]["name"] == TRADER.name


def test_a_run_that_read_before_the_withholding_writes_nothing(
    client,
    auth,
    engine,
    settings,
    cli,  # noqa: F811
    monkeypatch,
):
    """The withholding commits while a run answers a chunk: the chunk is not written, a new run answers it."""
    load_companies(engine, HOLDING, DAUGHTER, OTHER, TRADER)
    request_id = _file_request(client, engine, kind="erase")
    body = {"identifiers": IDS, "country": "SK", "sections": ["ownership"], "purpose": "kyc"}
    job = assert_envelope(client.post(URL, json=body, headers=auth), 202)
    real = enrich_jobs.add_sections
    calls: list[int] = []

    def then_withhold(conn: Any, answers: Any, names: Any, personal: bool) -> None:
        real(conn, answers, names, personal)  # read with the person in the register
        if not calls:
            calls.append(1)
            cli("answer", str(request_id), "--outcome", "Erased", "--withhold", f"p:{KEY}")

    monkeypatch.setattr(enrich_jobs, "add_sections", then_withhold)
    assert run_due(engine, settings, "test-worker") >= 1
    assert calls and assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))["status"] == "queued"
    assert run_due(engine, settings, "test-worker") >= 1
    lines, _ = _result(client, auth, f"{URL}/{job['id']}")
    assert JANA.name not in lines and len(lines.splitlines()) == 4


def test_the_needles_are_the_stored_json_text():
    """Names are matched as the JSON column writes them (non-ASCII escaped or not)."""
    assert set(enrich_privacy.needles([JANA.name], [])) == {"Jana Testová", "Jana Testov\\u00e1"}
    assert enrich_privacy.needles([], ["123"]) == ['"123"']
