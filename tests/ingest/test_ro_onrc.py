"""ro_onrc: the ONRC open-data file set (fixture written from the documented layout) through the runner."""

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
    run,
)

DIR = FIXTURES / "ro_onrc"
FIRMS = DIR / "od_firme.csv"
HEADER, *ROWS = FIRMS.read_text(encoding="utf-8").splitlines()


def file_set(
    path: Path, firms: str | None = None, states: str | None = None, caen: str | None = None
) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("od_firme.csv", firms if firms is not None else FIRMS.read_text(encoding="utf-8"))
        archive.writestr(
            "od_stare_firma.csv", states or (DIR / "od_stare_firma.csv").read_text(encoding="utf-8")
        )
        archive.writestr("n_stare_firma.csv", (DIR / "n_stare_firma.csv").read_text(encoding="utf-8"))
        archive.writestr(
            "od_caen_autorizat.csv", caen or (DIR / "od_caen_autorizat.csv").read_text(encoding="utf-8")
        )
    return path


def test_file_set_fields(engine, settings, tmp_path):
    stats = run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc-2026-11-01.zip"))
    assert (stats.read, stats.inserted, stats.rejected) == (6, 6, 0)
    soft = company(engine, "RO", "14547297")
    assert (soft["name"], soft["legal_form"], soft["legal_form_name"]) == (
        "CARPAȚI SOFTWARE SRL",
        "SRL",
        "Societate cu răspundere limitată",
    )
    assert (soft["founded_on"], soft["status"], soft["in_liquidation"]) == (
        date(1998, 3, 12),
        "active",
        False,
    )
    assert (soft["street"], soft["city"], soft["postal_code"]) == (
        "Str. Ștefan cel Mare nr. 12 bl. A2 sc. 1 et. 3 ap. 14",
        "București",
        "020121",
    )
    assert (soft["region_code"], soft["nuts3"], soft["vat_id"]) == ("40", "RO321", None)
    assert soft["address_text"].endswith("Sector 2, 020121 București, Municipiul București, România")
    assert identifier_pairs(engine, "14547297") >= {
        ("elf", "XHN1"),
        ("onrc", "J40/12345/1998"),
        ("euid", "ROONRC.J40/12345/1998"),
    }
    insolvent, gone, liquidating, suspended = (
        company(engine, "RO", n) for n in ("12034872", "33221148", "21098760", "38102938")
    )
    assert (insolvent["in_bankruptcy"], insolvent["status"], insolvent["nuts3"]) == (True, "active", "RO113")
    assert (gone["status"], gone["in_bankruptcy"], gone["legal_form"]) == ("dissolved", False, "SNC")
    assert (liquidating["in_liquidation"], liquidating["nuts3"]) == (True, "RO213")
    assert (suspended["status"], suspended["legal_form"]) == ("inactive", "PFA")
    assert identifier_pairs(engine, "44556670") >= {("onrc", "J2025000123009")}
    source = provenance(engine, "14547297")
    assert (source["source"], source["published_on"]) == ("ro_onrc", date(2026, 11, 1))


def test_firms_file_alone_states_no_status(engine, settings):
    assert run(engine, settings, "ro_onrc", FIRMS).inserted == 6
    insolvent = company(engine, "RO", "12034872")  # the loader's rule for a new company without a state
    assert (insolvent["status"], insolvent["in_bankruptcy"]) == ("active", False)


def test_reimport_writes_nothing(engine, settings, tmp_path):
    path = file_set(tmp_path / "onrc.zip")
    run(engine, settings, "ro_onrc", path)
    assert assert_idempotent(engine, settings, "ro_onrc", path).unchanged == 6


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    renamed = FIRMS.read_text(encoding="utf-8").replace("CARPAȚI SOFTWARE SRL", "CARPAȚI DIGITAL SRL")
    assert run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc-2026-11-01.zip", renamed)).inserted == 6
    stats = run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc-2026-10-01.zip"))
    assert (stats.updated, stats.skip_reasons) == (
        0,
        {"older than the data already loaded from this source": 6},
    )
    assert company(engine, "RO", "14547297")["name"] == "CARPAȚI DIGITAL SRL"
    states = (
        (DIR / "od_stare_firma.csv")
        .read_text(encoding="utf-8")
        .replace("J40/12345/1998^1048", "J40/12345/1998^1103")
    )
    assert (
        run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc-2026-12-01.zip", renamed, states)).updated
        == 1
    )
    assert changes(engine, "14547297")["in_bankruptcy"] == ("false", "true")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    good = ROWS[0]
    rows = [
        good,
        good.replace("14547297", "14547298"),  # CUI check digit wrong
        good.replace("14547297", "").replace("CARPAȚI", "FĂRĂ CUI"),  # no CUI
        good.replace("14547297", "12034872").replace("1998-03-12", "31/02/1998"),
        good.replace("14547297", "33221148").replace("020121", "0201"),
        good.replace("14547297", "44556670").replace("J40/12345/1998^", "J99/1/1998^"),
        "SCURT SRL^21098760",
    ]
    path = tmp_path / "od_firme.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "ro_onrc", path)
    assert (stats.read, stats.inserted, stats.rejected) == (8, 2, 6)  # 7 rows and the dropped number
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid RO CUI",
        "trader without a CUI",
        "DATA_INMATRICULARE is not a dd/mm/yyyy date",
        "ADR_COD_POSTAL is not a 6-digit postcode",
        "invalid COD_INMATRICULARE dropped (company kept)",
        "has 2 fields, the header 20",
    ):
        assert expected in reasons
    assert count(engine) == 2
    assert ("onrc", "J99/1/1998") not in identifier_pairs(engine, "44556670")


def test_unknown_state_keeps_the_company(engine, settings, tmp_path):
    states = "COD_INMATRICULARE^COD\nJ40/12345/1998^9999\n"
    stats, rejected = rejects(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip", states=states))
    assert stats.inserted == 6
    assert any("unknown ONRC state kept out (company kept): 9999" in r["reason"] for r in rejected)


@pytest.mark.parametrize("content", ["", "CUI;DENUMIRE\n1;x\n", '{"CUI": "14547297"}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "ro_onrc", tmp_path / "wrong.csv")
    with zipfile.ZipFile(tmp_path / "empty.zip", "w") as archive:
        archive.writestr("readme.txt", "no firms here")
    with pytest.raises(SourceAbort, match="no od_firme.csv"):
        run(engine, settings, "ro_onrc", tmp_path / "empty.zip")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth, tmp_path):
    run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip"))
    data = assert_envelope(client.get("/api/v1/companies/ro/14547297", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == ("CARPAȚI SOFTWARE SRL", "RO", "SRL")
    assert any(s["id"] == "ro_onrc" for s in data["sources"])
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=ro&category=register"))
    entry = next(e for e in entries if e["id"] == "ro_onrc")
    assert (entry["licence"], entry["row_count"]) == ("OGL-ROU 1.0", 6)
    assert entry["attribution"].startswith("Sursa: Oficiul Național")
    assert_error(client.get("/api/v1/companies/ro/14547298", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/ro/12034864", headers=auth), 404, "NOT_FOUND")


def test_caen_codes_as_nace_classes(engine, settings, tmp_path):
    run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip"))
    soft = company(engine, "RO", "14547297")
    # CAEN Rev. 2 classes kept (the Rev. 3 one of the same trader left out); no main activity in the file
    assert (soft["nace_primary"], soft["nace_codes"]) == (None, ["62.01", "62.02"])
    assert company(engine, "RO", "12034872")["nace_codes"] == ["10.51"]
    # only a CAEN Rev. 3 class: the NACE Rev. 2.1 class
    assert company(engine, "RO", "44556670")["nace_codes"] == ["41.00"]
    assert company(engine, "RO", "33221148")["nace_codes"] is None


def test_malformed_caen_codes_are_dropped_with_reasons(engine, settings, tmp_path):
    caen = (
        "COD_INMATRICULARE^COD_CAEN_AUTORIZAT^VER_CAEN_AUTORIZAT\n"
        "J40/12345/1998^6201^2\nJ40/12345/1998^6210^2\nJ12/3456/2005^62X1^2\n"
        "J35/789/2010^4100^2\nJ22/1500/2015^0111^9\n"
    )
    stats, rows = rejects(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip", caen=caen))
    assert stats.inserted == 6
    reasons = [r["reason"] for r in rows]
    assert len(reasons) == 4
    assert all(r.startswith("COD_CAEN_AUTORIZAT is not a CAEN class of its revision") for r in reasons)
    assert any("'6210' (VER_CAEN_AUTORIZAT '2')" in r for r in reasons)  # a Rev. 2.1 class as Rev. 2
    assert company(engine, "RO", "14547297")["nace_codes"] == ["62.01"]
    assert company(engine, "RO", "12034872")["nace_codes"] is None
    with pytest.raises(SourceAbort, match="od_caen_autorizat"):
        run(engine, settings, "ro_onrc", file_set(tmp_path / "bad.zip", caen="CUI^CAEN\n1^6201\n"))


def test_caen_change_is_logged_and_reimport_writes_nothing(engine, settings, tmp_path):
    run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip"))
    assert assert_idempotent(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip")).unchanged == 6
    caen = "COD_INMATRICULARE^COD_CAEN_AUTORIZAT^VER_CAEN_AUTORIZAT\nJ12/3456/2005^1052^2\n"
    stats = run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc2.zip", caen=caen))
    assert stats.updated == 1  # a trader the CAEN file no longer lists keeps its codes
    assert changes(engine, "12034872")["nace_codes"][1] == "10.52"
    assert company(engine, "RO", "14547297")["nace_codes"] == ["62.01", "62.02"]


def test_nuts3_from_the_county_number_when_the_judet_is_missing(engine, settings, tmp_path):
    firms = "\n".join([HEADER, ROWS[1].replace("^Cluj^Cluj-Napoca^", "^^Cluj-Napoca^"), ROWS[4]])
    firms = firms.replace("^Iași^Iași^", "^Județul Necunoscut^Iași^")
    # and no postcode, which would come before the county number (tests/ingest/test_postcode_nuts3.py)
    firms = firms.replace("^400129^", "^^").replace("^700057^", "^^")
    run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip", firms=firms + "\n"))
    cluj = company(engine, "RO", "12034872")
    assert (cluj["region_code"], cluj["nuts3"]) == ("12", "RO113")
    assert company(engine, "RO", "21098760")["nuts3"] == "RO213"  # J22: Iași


def test_caen_codes_served_over_http(engine, settings, client, auth, tmp_path):
    run(engine, settings, "ro_onrc", file_set(tmp_path / "onrc.zip"))
    data = assert_envelope(client.get("/api/v1/companies/ro/14547297", headers=auth))
    assert data["nace"] == {"primary": None, "codes": ["62.01", "62.02"]}
    assert data["address"]["nuts3"] == "RO321"
