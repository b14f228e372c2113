"""cy_drcor: the Registrar of Companies open-data CSVs (fixture written from the documented columns)."""

from __future__ import annotations

import zipfile
from datetime import date
from pathlib import Path

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

DIR = FIXTURES / "cy_drcor"
ORGS = DIR / "organisations_2026-11-24.csv"
OFFICES = DIR / "registered_office_2026-11-24.csv"
OFFICIALS = DIR / "organisation_officials_2026-11-24.csv"
TEXT = ORGS.read_text(encoding="utf-8-sig")
HEADER, FIRST = TEXT.splitlines()[:2]


def file_set(path: Path, orgs: str = TEXT, stamp: str = "2026-11-24") -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"organisations_{stamp}.csv", "\ufeff" + orgs)
        archive.writestr(f"registered_office_{stamp}.csv", OFFICES.read_text(encoding="utf-8"))
        archive.writestr(f"organisation_officials_{stamp}.csv", OFFICIALS.read_text(encoding="utf-8"))
    return path


def test_file_set_fields(engine, settings, tmp_path):
    stats = run(engine, settings, "cy_drcor", file_set(tmp_path / "cy.zip"))
    assert (stats.inserted, stats.rejected, stats.skip_reasons) == (
        6,
        0,
        {"business name (a registered trade name, not a legal person)": 1},
    )
    ltd = company(engine, "CY", "HE123456")
    assert (ltd["name"], ltd["legal_form"], ltd["legal_form_name"]) == (
        "LIMASSOL HARBOUR TRADING LIMITED",
        "C",
        "Ιδιωτική Εταιρεία Περιορισμένης Ευθύνης με Μετοχές",
    )
    assert (ltd["founded_on"], ltd["status"], ltd["nuts3"]) == (date(2011, 3, 14), "active", "CY000")
    assert ltd["address_text"] == "PROTEAS HOUSE 5ος όροφος, Λεωφόρος Μακαρίου Γ' 155, 3026, Λεμεσός, Κύπρος"
    assert (ltd["vat_id"], ltd["nace_primary"]) == (None, None)
    assert identifier_pairs(engine, "HE123456") == {("elf", "K9L6")}
    plc = company(engine, "CY", "HE45678")
    assert (plc["status"], plc["in_liquidation"], plc["in_bankruptcy"]) == ("active", True, False)
    assert identifier_pairs(engine, "HE45678") == {("elf", "BCF5")}
    gone = company(engine, "CY", "HE98765")
    assert (gone["status"], gone["dissolved_on"], gone["in_liquidation"]) == (
        "dissolved",
        date(2025, 5, 15),
        False,
    )
    assert company(engine, "CY", "AE3456")["legal_form_name"] == "Αλλοδαπή Εταιρεία"
    assert company(engine, "CY", "S7890")["legal_form"] == "P"
    split = company(engine, "CY", "HE234567")  # the record the publisher split after its name
    assert (split["name"], split["founded_on"]) == ("PAPHOS SOLAR ENERGY LIMITED", date(2022, 5, 5))
    assert split["address_text"].endswith("8046, Πάφος, Κύπρος")
    assert provenance(engine, "HE123456")["published_on"] == date(2026, 11, 24)
    officials = role_rows(engine, "HE123456")
    assert [(r["holder_name"], r["role"], r["title"], r["person_id"] is None) for r in officials] == [
        ("ANDREAS GEORGIOU", "director", "Διευθυντής", False),
        ("HARBOUR SECRETARIAL SERVICES LIMITED", "statutory_body", "Γραμματέας", True),
    ]
    assert [r["holder_name"] for r in role_rows(engine, "HE45678")] == ["ΕΛΕΝΗ ΧΑΤΖΗΠΕΤΡΟΥ"]
    assert role_rows(engine, "AE3456") == []


def test_organisations_alone(engine, settings):
    assert run(engine, settings, "cy_drcor", ORGS).inserted == 6
    assert company(engine, "CY", "HE123456")["address_text"] is None


def test_reimport_writes_nothing(engine, settings, tmp_path):
    path = file_set(tmp_path / "cy.zip")
    run(engine, settings, "cy_drcor", path)
    assert assert_idempotent(engine, settings, "cy_drcor", path).unchanged == 6


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    struck = TEXT.replace("14/03/2011,Εγγεγραμμένη,14/03/2011", "14/03/2011,Διαγραμμένη,01/12/2026")
    run(engine, settings, "cy_drcor", file_set(tmp_path / "new.zip", struck, "2026-12-01"))
    assert company(engine, "CY", "HE123456")["status"] == "dissolved"
    stats = run(engine, settings, "cy_drcor", file_set(tmp_path / "old.zip"))
    assert (
        stats.updated == 0 and stats.skip_reasons["older than the data already loaded from this source"] == 6
    )
    assert company(engine, "CY", "HE123456")["dissolved_on"] == date(2026, 12, 1)
    revived = TEXT.replace("Υπό Εκκαθάριση,30/06/2026", "Εγγεγραμμένη,30/11/2026")
    assert (
        run(engine, settings, "cy_drcor", file_set(tmp_path / "newer.zip", revived, "2026-12-08")).updated
        >= 1
    )
    assert changes(engine, "HE45678")["in_liquidation"] == ("true", "false")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    rows = [
        FIRST,
        FIRST.replace("123456,C", "12345678901,C"),  # longer than 8 digits
        FIRST.replace("123456,C", "123457,X"),
        FIRST.replace("123456,C", "123458,C").replace("14/03/2011,Εγγ", "2011-14-03,Εγγ"),
        FIRST.replace("123456,C", "123459,C").replace("Εγγεγραμμένη", "Σε αναστολή"),
        FIRST.replace("123456,C", ",C"),
        "ORPHAN NAME LIMITED,,,,,,,,,,",
        "ONLY,TWO",
    ]
    path = tmp_path / "organisations.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "cy_drcor", path)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid CY registration number",
        "ORGANISATION_TYPE_CODE is not C, O, P, N or B",
        "REGISTRATION_DATE is not a date",
        "unknown ORGANISATION_STATUS kept out (company kept)",
        "REGISTRATION_NO is empty",
        "record split after its name on line 8 is incomplete",
        "has 2 fields, the header 11",
    ):
        assert expected in reasons
    assert count(engine) == 2  # the good row and the one whose status was not understood
    assert company(engine, "CY", "HE123459")["status"] == "active"  # the loader's rule for a new company


@pytest.mark.parametrize(
    "content",
    [
        "",
        "REGISTRATION_NO,NAME\n1,x\n",
        '{"a": 1}',
        "REGISTRATION_NO,ORGANISATION_NAME,ORGANISATION_TYPE_CODE,ORGANISATION_TYPE,"
        "REGISTRATION_DATE,ORGANISATION_STATUS\n1,x,C,a,,\n",
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "cy_drcor", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth, tmp_path):
    run(engine, settings, "cy_drcor", file_set(tmp_path / "cy.zip"))
    data = assert_envelope(client.get("/api/v1/companies/cy/HE123456", headers=auth))
    assert (data["name"], data["country"]) == ("LIMASSOL HARBOUR TRADING LIMITED", "CY")
    assert any(s["id"] == "cy_drcor" for s in data["sources"])
    assert (
        assert_envelope(client.get("/api/v1/companies/cy/he%20123456", headers=auth))["name"] == data["name"]
    )
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=cy&category=register"))
    entry = next(e for e in entries if e["id"] == "cy_drcor")
    assert (entry["licence"], entry["row_count"]) == ("CC BY 4.0", 6)
    assert_error(client.get("/api/v1/companies/cy/HE123456789", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/cy/HE1", headers=auth), 404, "NOT_FOUND")
