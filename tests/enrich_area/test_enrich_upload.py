"""`POST /api/v1/enrich/jobs` with a CSV upload (multipart/form-data) through HTTP, run by the real job
runner: identifiers and names, separators, byte-order marks and encodings, and every refusal (413, 415,
422 naming the line) before anything is queued."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from sqlalchemy import func, select

from regintel.areas.enrich import upload
from regintel.areas.enrich.service import MAX_IDENTIFIERS
from regintel.db.schema import jobs
from regintel.jobs.runner import run_due
from tests.api import companies_fixture
from tests.helpers import assert_envelope, assert_error

URL = "/api/v1/enrich/jobs"
SLOVNAFT, SKODA, ZILINA = "31322832", "00177041", "35757442"


@pytest.fixture
def data(engine):
    companies_fixture.load(engine)


def post(client, auth, content: bytes, filename: str = "companies.csv", **fields: str):
    return client.post(URL, files={"file": (filename, content, "text/csv")}, data=fields, headers=auth)


def run(
    client, auth, engine, settings, content: bytes, **fields: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    job = assert_envelope(post(client, auth, content, **fields), 202)
    assert job["input"]["kind"] == "csv" and job["input"]["filename"] == "companies.csv"
    assert run_due(engine, settings, "test-worker") >= 1  # other areas may queue jobs of their own
    done = assert_envelope(client.get(f"{URL}/{job['id']}", headers=auth))
    assert done["status"] == "done"
    resp = client.get(done["resultUrl"], headers=auth)
    return done, [json.loads(line) for line in resp.text.splitlines()]


def queued(engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(jobs)).scalar_one())


def test_semicolons_a_bom_and_a_country_column_answer_as_the_bulk_lookup(
    client, auth, engine, settings, data
):
    content = (
        "\ufeffIČO;Country;Note\r\n31322832;sk;a\r\n00177041;CZ;\r\n\r\n35 757 442;;x\r\n00000000;sk;\r\n"
    )
    done, answers = run(client, auth, engine, settings, content.encode())
    assert done["total"] == 4 and done["counts"] == {"found": 3, "not_found": 0, "invalid": 1, "ambiguous": 0}
    bulk = assert_envelope(
        client.post(
            "/api/v1/companies/bulk",
            headers=auth,
            json={
                "identifiers": [
                    {"country": "sk", "id": SLOVNAFT},
                    {"country": "CZ", "id": SKODA},
                    "35 757 442",
                    {"country": "sk", "id": "00000000"},
                ]
            },
        )
    )
    assert answers == bulk


def test_names_are_resolved_with_their_city_and_a_match_score(client, auth, engine, settings, data):
    content = (
        'name,city,country\n"SLOVNAFT, a.s.",Bratislava,sk\nŠkoda Auto,Mladá Boleslav,\n'
        "Zzyzx Quantum Holdings,,\n,,\n,Praha,cz\n"
    ).encode()  # a blank row is skipped
    done, answers = run(client, auth, engine, settings, content)
    assert [a["status"] for a in answers] == ["found", "found", "not_found", "invalid"]
    assert answers[0]["company"]["nationalId"] == SLOVNAFT and answers[0]["match"]["score"] >= 0.8
    assert answers[0]["input"] == {"name": "SLOVNAFT, a.s.", "city": "Bratislava", "country": "sk"}
    assert {r["feature"] for r in answers[0]["match"]["reasons"]} >= {"name"}
    assert answers[1]["company"]["nationalId"] == SKODA
    assert "no company matches this name" in answers[2]["reason"]
    rows = list(csv.DictReader(io.StringIO(client.get(f"{done['resultUrl']}?format=csv", headers=auth).text)))
    assert rows[0]["input"] == "SLOVNAFT, a.s.; Bratislava; sk" and float(rows[0]["matchScore"]) >= 0.8
    assert rows[2]["matchScore"] == "" and rows[3]["status"] == "invalid"


def test_a_single_column_without_a_known_header_is_read_as_identifiers(client, auth, engine, settings, data):
    done, answers = run(client, auth, engine, settings, f"{SLOVNAFT}\n{ZILINA}\n".encode(), country="sk")
    assert [a["company"]["nationalId"] for a in answers] == [SLOVNAFT, ZILINA]


@pytest.mark.parametrize(
    "encoding, content",
    [
        ("windows-1250", "name;city\nStavby Žilina s.r.o.;Žilina\n".encode("windows-1250")),
        ("iso-8859-2", "name;city\nStavby Žilina s.r.o.;Žilina\n".encode("iso-8859-2")),
        ("", "name\tcity\nStavby Žilina s.r.o.\tŽilina\n".encode("utf-16")),  # its byte-order mark tells
    ],
)
def test_other_encodings(client, auth, engine, settings, data, encoding, content):
    fields = {"encoding": encoding} if encoding else {}
    done, answers = run(client, auth, engine, settings, content, **fields)
    assert answers[0]["input"]["city"] == "Žilina" and answers[0]["company"]["nationalId"] == ZILINA


def test_a_file_in_another_encoding_is_refused_naming_the_line(client, auth, engine):
    content = "name;city\nAcme;Praha\nStavby Žilina;Žilina\n".encode("windows-1250")
    error = assert_error(post(client, auth, content), 422, "VALIDATION_ERROR")
    assert (
        error["message"].startswith("Line 3: the file is not valid utf-8") and "encoding" in error["message"]
    )
    assert error["details"][0]["line"] == 3
    assert queued(engine) == 0


BAD_FILES = [
    (b"", "The file is empty"),
    (b"  \n\n", "The file is empty"),
    (b"ico,country\n", "no data rows"),
    (b"company_size,revenue\n10,20\n", "no identifier or name column"),
    (b"ico\n31322832\x00\n", "Line 2: `id` holds a control character"),
    (b'ico\n"31322832\n', "malformed CSV (unexpected end of data)"),  # an unclosed quote
    (b'name\n"Acme"x\n', "Line 2: malformed CSV"),
    (b"ico\n" + b"1" * 65 + b"\n", "`id` is longer than 64"),
    (b"name\n" + "Ω".encode() * 301 + b"\n", "`name` is longer than 300"),
    # a field beyond the csv module's limit (or, where an importer raised that limit, beyond the column's)
    (b'name\n"' + b"x" * 200_000 + b'"\n', "Line 2: "),
]


@pytest.mark.parametrize("content, message", BAD_FILES)
def test_malformed_files(client, auth, engine, content, message):
    error = assert_error(post(client, auth, content), 422, "VALIDATION_ERROR")
    assert message in error["message"]
    assert queued(engine) == 0


def test_too_many_rows_and_too_many_bytes(client, auth, engine):
    rows = b"ico\n" + b"31322832\n" * (MAX_IDENTIFIERS + 1)
    error = assert_error(post(client, auth, rows), 422, "VALIDATION_ERROR")
    assert f"more than {MAX_IDENTIFIERS:,} rows" in error["message"]
    huge = b"ico\n" + b"31322832\n" * (upload.MAX_BYTES // 9 + 10)
    assert len(huge) > upload.MAX_BYTES
    assert_error(post(client, auth, huge), 413, "PAYLOAD_TOO_LARGE")
    assert queued(engine) == 0


def test_bad_forms_and_media_types(client, auth, engine):
    content = f"ico\n{SLOVNAFT}\n".encode()
    assert_error(
        client.post(URL, content=content, headers=auth | {"content-type": "text/csv"}),
        415,
        "UNSUPPORTED_MEDIA_TYPE",
    )
    error = assert_error(post(client, auth, content, sheet="1"), 422, "VALIDATION_ERROR")
    assert "Unknown form field(s): sheet" in error["message"]
    error = assert_error(
        client.post(URL, data={"country": "sk"}, files={"upload": ("a.csv", content)}, headers=auth),
        422,
        "VALIDATION_ERROR",
    )
    assert "upload" in error["message"]
    assert_error(post(client, auth, content, country="Slovakia"), 422, "VALIDATION_ERROR")
    assert_error(post(client, auth, content, country="zz"), 422, "VALIDATION_ERROR")
    error = assert_error(post(client, auth, content, encoding="klingon"), 422, "VALIDATION_ERROR")
    assert "Unknown encoding" in error["message"]
    two = client.post(URL, files=[("file", ("a.csv", content)), ("file", ("b.csv", content))], headers=auth)
    assert_error(two, 422, "VALIDATION_ERROR")
    broken = client.post(
        URL,
        content=b"--xyz\r\nnot a part",
        headers=auth | {"content-type": "multipart/form-data; boundary=xyz"},
    )
    assert_error(broken, 422, "VALIDATION_ERROR")
    assert queued(engine) == 0
    assert_error(post(client, {}, content), 401, "UNAUTHORIZED")
