"""si_ajpes: the PRS list (fixture in a layout regintel defines, not a real download) through the runner."""

from __future__ import annotations

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
    run,
)

SAMPLE = FIXTURES / "si_ajpes" / "prs_2026-11-27.csv"
HEADER, FIRST, *_ = SAMPLE.read_text(encoding="utf-8").splitlines()


def test_real_layout_fields(engine, settings):
    stats = run(engine, settings, "si_ajpes", SAMPLE)
    assert (stats.inserted, stats.rejected, stats.skip_reasons) == (
        5,
        0,
        {"branch (podružnica) of a registered entity: unit number not 000": 1},
    )
    doo = company(engine, "SI", "5330238")
    assert (doo["name"], doo["legal_form"], doo["legal_form_name"]) == (
        "LJUBLJANSKA PROGRAMSKA OPREMA, d.o.o.",
        "d.o.o.",
        "družba z omejeno odgovornostjo",
    )
    assert (doo["status"], doo["founded_on"], doo["nace_primary"]) == ("active", date(2009, 3, 12), "62.01")
    assert (doo["street"], doo["postal_code"], doo["city"], doo["municipality_code"]) == (
        "Dunajska cesta 156",
        "1000",
        "Ljubljana",
        "061",
    )
    assert (doo["tax_id"], doo["vat_id"]) == ("12345679", None)
    assert identifier_pairs(engine, "5330238") == {("elf", "KBKD"), ("dic", "12345679")}
    bankrupt, liquidating, gone, settling = (
        company(engine, "SI", n) for n in ("6543219", "5800129", "7000014", "5102359")
    )
    assert (bankrupt["in_bankruptcy"], bankrupt["status"]) == (True, "active")
    assert ("elf", "1OR3") in identifier_pairs(engine, "6543219")
    assert liquidating["in_liquidation"] is True
    assert (gone["status"], gone["dissolved_on"], gone["legal_form"]) == (
        "dissolved",
        date(2025, 10, 31),
        "s.p.",
    )
    assert (settling["in_restructuring"], settling["nace_primary"]) == (True, "01.47")
    assert provenance(engine, "5330238")["published_on"] == date(2026, 11, 27)


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "si_ajpes", SAMPLE)
    assert assert_idempotent(engine, settings, "si_ajpes", SAMPLE).unchanged == 5


def test_older_snapshot_never_overwrites_newer(engine, settings, tmp_path):
    newer = tmp_path / "prs_2026-12-01.csv"
    newer.write_text(f"{HEADER}\n{FIRST.replace(';;aktiven', ';;likvidacija')}\n", encoding="utf-8")
    run(engine, settings, "si_ajpes", newer)
    stats = run(engine, settings, "si_ajpes", SAMPLE)
    assert stats.skip_reasons["older than the data already loaded from this source"] == 1
    assert company(engine, "SI", "5330238")["in_liquidation"] is True
    newest = tmp_path / "prs_2026-12-02.csv"
    newest.write_text(f"{HEADER}\n{FIRST}\n", encoding="utf-8")
    assert run(engine, settings, "si_ajpes", newest).updated == 1
    assert changes(engine, "5330238")["in_liquidation"] == ("true", "false")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    rows = [
        FIRST,
        FIRST.replace("5330238000", "5330239000"),  # check digit wrong
        FIRST.replace("5330238000", "6543219000").replace("12345679", "12345678"),
        FIRST.replace("5330238000", "5800129000").replace("12.03.2009", "2009-13-12"),
        FIRST.replace("5330238000", "7000014000").replace(";1000;", ";SI-1000;"),
        FIRST.replace("5330238000", "5102359000").replace("62.010", "6X.01"),
        FIRST.replace("5330238000", "5102367000").replace("aktiven", "v mirovanju"),
        "5102375000;x",
    ]
    path = tmp_path / "prs.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "si_ajpes", path)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid SI matična številka",
        "DAVCNA_STEVILKA is not a valid Slovenian tax number",
        "DATUM_VPISA is not a date",
        "POSTNA_STEVILKA is not a 4-digit postcode",
        "SKD_DEJAVNOST is not an SKD 2008 code",
        "unknown PRS status kept out (company kept)",
        "has 2 fields, the header 13",
    ):
        assert expected in reasons
    assert count(engine) == 2


@pytest.mark.parametrize("content", ["", "regcode;name\n1;x\n", '{"MATICNA_STEVILKA": 1}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "si_ajpes", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "si_ajpes", SAMPLE)
    data = assert_envelope(client.get("/api/v1/companies/si/5330238", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == (
        "LJUBLJANSKA PROGRAMSKA OPREMA, d.o.o.",
        "SI",
        "d.o.o.",
    )
    assert (
        assert_envelope(client.get("/api/v1/companies/si/5330238000", headers=auth))["name"] == data["name"]
    )
    assert any(s["id"] == "si_ajpes" for s in data["sources"])
    entries = assert_envelope(client.get("/api/v1/public/data-sources?country=si&category=register"))
    entry = next(e for e in entries if e["id"] == "si_ajpes")
    assert (entry["licence"], entry["row_count"]) == ("CC BY 4.0", 5)
    assert_error(client.get("/api/v1/companies/si/5330239", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/si/5102367", headers=auth), 404, "NOT_FOUND")
