"""gr_gemi: GEMI open-data API answers (fixtures written from the documented fields) through the runner."""

from __future__ import annotations

import copy
import json
import shutil
from datetime import date

import pytest

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
    role_rows,
    run,
)

DIR = FIXTURES / "gr_gemi"
ONE = DIR / "company_000123401000.json"
SEARCH = DIR / "companies_search.json"


def aegean() -> dict:
    return json.loads(ONE.read_text(encoding="utf-8"))


def variant(afm: str, **fields: object) -> dict:
    record = copy.deepcopy(aegean())
    record.update(afm=afm, arGemi="00" + afm[:9], **fields)
    return record


def write_lines(path, records) -> None:
    path.write_text(
        "".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n" for r in records),
        encoding="utf-8",
    )


def test_company_answer_fields(engine, settings, tmp_path):
    dated = tmp_path / "gemi-2026-11-20.json"
    shutil.copy(ONE, dated)
    stats = run(engine, settings, "gr_gemi", dated)
    assert (stats.read, stats.inserted, stats.rejected) == (1, 1, 0)
    row = company(engine, "GR", "094259216")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == (
        "ΑΙΓΑΙΟ ΛΟΓΙΣΜΙΚΟ ΑΝΩΝΥΜΗ ΕΤΑΙΡΕΙΑ",
        "ΑΕ",
        "Ανώνυμη Εταιρεία",
    )
    assert (row["status"], row["founded_on"], row["in_liquidation"]) == ("active", date(2012, 3, 15), False)
    assert (row["street"], row["postal_code"], row["city"]) == (
        "ΛΕΩΦΟΡΟΣ ΒΑΣΙΛΙΣΣΗΣ ΣΟΦΙΑΣ 12",
        "106 74",
        "ΑΘΗΝΑ",
    )
    assert (row["region_code"], row["municipality_code"]) == ("1", "6101")
    assert (row["nace_primary"], row["nace_codes"]) == ("62.01", ["62.01", "63.11"])
    assert (row["vat_id"], row["tax_id"]) == (None, "094259216")
    assert identifier_pairs(engine, "094259216") >= {("gemi", "000123401000"), ("elf", "W2NK")}
    officers = role_rows(engine, "094259216")
    assert [(r["holder_name"], r["role"], r["title"]) for r in officers] == [
        ("ΝΙΚΟΛΑΟΥ ΜΑΡΙΑ", "director", "Διευθύνουσα Σύμβουλος"),
        ("ΠΑΠΑΔΟΠΟΥΛΟΣ ΓΕΩΡΓΙΟΣ", "director", "Πρόεδρος Δ.Σ."),
    ]
    assert provenance(engine, "094259216")["published_on"] == date(2026, 11, 20)


def test_search_answer_statuses(engine, settings):
    stats = run(engine, settings, "gr_gemi", SEARCH)
    assert (stats.read, stats.inserted, stats.rejected) == (3, 3, 0)
    ike = company(engine, "GR", "800123456")
    assert (ike["legal_form"], ike["status"], ike["in_liquidation"], ike["postal_code"]) == (
        "ΙΚΕ",
        "active",
        True,
        "412 22",
    )
    assert identifier_pairs(engine, "800123456") >= {("elf", "QCA0")}
    partner = next(r for r in role_rows(engine, "800123456") if r["role"] == "shareholder")
    assert (partner["holder_name"], partner["until"]) == ("ΔΗΜΗΤΡΙΟΥ ΕΛΕΝΗ", date(2024, 1, 31))
    gone = company(engine, "GR", "998877666")
    assert (gone["status"], gone["in_liquidation"], gone["legal_form"]) == ("dissolved", False, "ΟΕ")
    bankrupt = company(engine, "GR", "123456783")
    assert (bankrupt["in_bankruptcy"], bankrupt["nace_primary"]) == (True, "41.20")


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "gr_gemi", SEARCH)
    assert assert_idempotent(engine, settings, "gr_gemi", SEARCH).unchanged == 3


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    renamed = aegean() | {"coNameEl": "ΑΙΓΑΙΟ ΨΗΦΙΑΚΗ ΑΕ", "status": {"id": 7, "descr": "Λύση-Εκκαθάριση"}}
    write_lines(tmp_path / "gemi-2026-11-30.jsonl", [renamed])
    run(engine, settings, "gr_gemi", tmp_path / "gemi-2026-11-30.jsonl")
    write_lines(tmp_path / "gemi-2026-10-01.jsonl", [aegean()])
    stats = run(engine, settings, "gr_gemi", tmp_path / "gemi-2026-10-01.jsonl")
    assert (stats.updated, stats.skip_reasons) == (
        0,
        {"older than the data already loaded from this source": 1},
    )
    row = company(engine, "GR", "094259216")
    assert (row["name"], row["in_liquidation"]) == ("ΑΙΓΑΙΟ ΨΗΦΙΑΚΗ ΑΕ", True)
    write_lines(tmp_path / "gemi-2026-12-01.jsonl", [aegean()])
    assert run(engine, settings, "gr_gemi", tmp_path / "gemi-2026-12-01.jsonl").updated == 1
    assert changes(engine, "094259216")["in_liquidation"] == ("true", "false")


def test_malformed_records_are_rejected_with_reasons(engine, settings, tmp_path):
    records = [
        aegean(),
        json.dumps(aegean())[:150] + "\n",  # truncated line
        variant("094259217"),  # AFM check digit wrong
        {**aegean(), "afm": None, "arGemi": "000222"},  # no AFM
        variant("801987650", incorporationDate="15/03/2012"),
        variant("998877666", zipCode="ABC"),
        variant("123456783", activities=[{"activity": {"id": "ΚΑΔ62"}, "type": "Κύρια"}]),
        variant("800123456", status={"descr": "Σε αναστολή"}),
        ["not", "an", "object"],
    ]
    write_lines(tmp_path / "mixed.jsonl", records)
    stats, rejected = rejects(engine, settings, "gr_gemi", tmp_path / "mixed.jsonl")
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "malformed JSON on line 2",
        "is not a valid GR AFM",
        "company without an AFM",
        "incorporationDate is not a date",
        "zipCode is not a 5-digit Greek postcode",
        "activity.id is not a ΚΑΔ code",
        "unknown GEMI status kept out (company kept)",
        "a GEMI company is not an object",
    ):
        assert expected in reasons
    assert count(engine) == 2


@pytest.mark.parametrize("content", ["", "afm;name\n", json.dumps({"ico": "26168685"}), "[1, 2]"])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "gr_gemi", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "gr_gemi", ONE)
    data = assert_envelope(client.get("/api/v1/companies/gr/094259216", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == (
        "ΑΙΓΑΙΟ ΛΟΓΙΣΜΙΚΟ ΑΝΩΝΥΜΗ ΕΤΑΙΡΕΙΑ",
        "GR",
        "ΑΕ",
    )
    assert any(s["id"] == "gr_gemi" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/gr/EL094259216", headers=auth))["name"] == data["name"]
    )
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=gr&category=register"))
    entry = next(e for e in entries if e["id"] == "gr_gemi")
    assert (entry["licence"], entry["row_count"]) == ("ODC-BY 1.0", 1)
    assert_error(client.get("/api/v1/companies/gr/094259217", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/gr/800123456", headers=auth), 404, "NOT_FOUND")
