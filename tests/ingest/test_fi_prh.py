"""fi_prh: a real YTJ API v3 answer (Nokia Oyj) through the runner, and variants of it."""

from __future__ import annotations

import copy
import json
from datetime import date

import pytest

from regintel.db.schema import data_sources
from regintel.ingest.base import SourceAbort
from tests.helpers import assert_envelope, assert_error
from tests.ingest.import_helpers import (
    FIXTURES,
    assert_idempotent,
    changes,
    company,
    count,
    identifier_pairs,
    provenance,
    rejects,
    run,
)

NOKIA = FIXTURES / "fi_prh" / "ytj_v3_companies_businessId_0112038-9.json"


def nokia() -> dict:
    return json.loads(NOKIA.read_text(encoding="utf-8"))["companies"][0]


def variant(business_id: str, **fields: object) -> dict:
    record = copy.deepcopy(nokia())
    record["businessId"]["value"] = business_id
    record.update(fields)
    return record


def write_lines(path, records) -> None:
    path.write_text(
        "".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n" for r in records),
        encoding="utf-8",
    )


def test_nokia(engine, settings):
    stats = run(engine, settings, "fi_prh", NOKIA)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "FI", "0112038-9")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "Nokia Oyj",
        "17",
        "Julkinen osakeyhtiö",
    )
    assert (row["status"], row["founded_on"], row["dissolved_on"]) == ("active", date(1896, 12, 19), None)
    assert (row["street"], row["postal_code"], row["city"], row["municipality_code"]) == (
        "Karakaari 7",
        "02610",
        "ESPOO",
        "049",
    )
    assert (row["nace_primary"], row["vat_id"]) == ("70100", "FI01120389")
    assert (row["in_bankruptcy"], row["in_restructuring"], row["in_liquidation"]) == (False, False, False)
    assert identifier_pairs(engine, "0112038-9") == {("elf", "K6VE"), ("vat", "FI01120389")}
    source = provenance(engine, "0112038-9")
    assert (source["source"], source["published_on"]) == ("fi_prh", date(2026, 8, 19))
    with engine.connect() as conn:
        catalogue = conn.execute(data_sources.select().where(data_sources.c.id == "fi_prh")).mappings().one()
    assert (catalogue["licence"], catalogue["row_count"]) == ("CC BY 4.0", 1)
    assert_idempotent(engine, settings, "fi_prh", NOKIA)


def test_situations_ceased_and_changes(engine, settings, tmp_path):
    ceased_entry = {**nokia()["registeredEntries"][0], "type": "4"}
    no_vat = [e for e in nokia()["registeredEntries"] if e["register"] != "6"]
    records = [
        variant(
            "2331970-0", companySituations=[{"type": "KONK", "registrationDate": "2026-01-05", "source": "1"}]
        ),
        variant(
            "2331971-9",
            companySituations=[
                {"type": "SANE", "registrationDate": "2026-01-05", "source": "1"},
                {"type": "KONK", "registrationDate": "2020-01-05", "endDate": "2021-01-01", "source": "1"},
            ],
        ),
        variant(
            "2331972-7",
            companySituations=[{"type": "SELTILA", "registrationDate": "2026-01-05", "source": "1"}],
        ),
        variant("2331973-5", registeredEntries=[ceased_entry] + no_vat[1:]),
    ]
    write_lines(tmp_path / "companies.jsonl", records)
    assert run(engine, settings, "fi_prh", tmp_path / "companies.jsonl").inserted == 4
    konk, sane, selv, ceased = (
        company(engine, "FI", n) for n in ("2331970-0", "2331971-9", "2331972-7", "2331973-5")
    )
    assert (konk["in_bankruptcy"], konk["status"]) == (True, "active")
    assert (sane["in_restructuring"], sane["in_bankruptcy"]) == (True, False)
    assert selv["in_liquidation"] is True
    assert (ceased["status"], ceased["vat_id"]) == ("dissolved", None)
    run(engine, settings, "fi_prh", NOKIA)
    renamed = copy.deepcopy(nokia())
    renamed["names"][0]["name"] = "Nokia Oyj (renamed)"
    renamed["lastModified"] = "2026-09-01T00:00:00"
    (tmp_path / "renamed.json").write_text(
        json.dumps({"totalResults": 1, "companies": [renamed]}), encoding="utf-8"
    )
    assert run(engine, settings, "fi_prh", tmp_path / "renamed.json").updated == 1
    assert changes(engine, "0112038-9")["name"] == ("Nokia Oyj", "Nokia Oyj (renamed)")
    # the older answer replayed afterwards does not roll the name back
    assert run(engine, settings, "fi_prh", NOKIA).updated == 0
    assert company(engine, "FI", "0112038-9")["name"] == "Nokia Oyj (renamed)"


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    records = [
        nokia(),
        json.dumps(nokia())[:300] + "\n",
        variant("0112038-8"),
        variant("2331970-0", registrationDate="19.12.1896"),
        variant("2331971-9", companySituations=[{"type": "XYZ", "source": "1"}]),
        variant("2331972-7", addresses="Karakaari 7"),
        ["not", "an", "object"],
    ]
    write_lines(tmp_path / "mixed.jsonl", records)
    stats, rows = rejects(engine, settings, "fi_prh", tmp_path / "mixed.jsonl")
    assert (stats.read, stats.inserted, stats.rejected) == (7, 1, 6)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "malformed JSON on line 2",
        "is not a valid FI Y-tunnus",
        "registrationDate is not a date",
        "unknown companySituations type ['XYZ']",
        "addresses is not a list of objects",
        "a companies item is not an object",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize("content", ["", "businessId;name\n", json.dumps({"ico": "26168685"})])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "fi_prh", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_empty_answer_imports_nothing(engine, settings, tmp_path):
    (tmp_path / "empty.json").write_text('{"totalResults": 0, "companies": []}', encoding="utf-8")
    assert run(engine, settings, "fi_prh", tmp_path / "empty.json").read == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "fi_prh", NOKIA)
    data = assert_envelope(client.get("/api/v1/companies/fi/0112038-9", headers=auth))
    assert (data["name"], data["country"], data["vatId"]) == ("Nokia Oyj", "FI", "FI01120389")
    assert any(s["id"] == "fi_prh" and s["licence"] == "CC BY 4.0" for s in data["sources"])
    assert assert_envelope(client.get("/api/v1/companies/fi/01120389", headers=auth))["name"] == "Nokia Oyj"
    assert_error(client.get("/api/v1/companies/fi/0112038-8", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/fi/2331970-0", headers=auth), 404, "NOT_FOUND")
