"""ie_cro: 300 real CRO companies (the open-data CSV's columns) through the runner."""

from __future__ import annotations

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

SAMPLE = FIXTURES / "ie_cro" / "cro_companies_subset_300.csv"
LINES = SAMPLE.read_text(encoding="utf-8").splitlines()
HEADER, JUEL = LINES[0], LINES[4]
# The full CRO file's extra columns, appended to the real JUEL DIGITAL row.
FULL_HEADER = HEADER + ",company_status,comp_dissolved_date"


def test_real_sample(engine, settings):
    stats = run(engine, settings, "ie_cro", SAMPLE, batch_size=64)
    assert (stats.read, stats.inserted, stats.rejected) == (300, 300, 0)
    juel = company(engine, "IE", "806019")
    assert (juel["name"], juel["legal_form"], juel["legal_form_name"]) == (
        "JUEL DIGITAL LIMITED",
        "LTD",
        "Private Company Limited by Shares",
    )
    assert (juel["founded_on"], juel["status"], juel["dissolved_on"]) == (date(2026, 1, 14), "active", None)
    assert (juel["street"], juel["postal_code"]) == ("Windgate House", "A45 E865")
    assert juel["address_text"] == "Windgate House, Whitestown, Oldtown, DUBLIN, Ireland, A45 E865"
    assert (juel["nace_primary"], juel["nace_codes"], juel["vat_id"]) == ("62.02", ["62.02"], None)
    assert identifier_pairs(engine, "806019") == {("elf", "MNQ7")}
    dac = company(engine, "IE", "805999")
    assert (dac["legal_form"], dac["legal_form_name"]) == (
        "DAC",
        "Designated Activity Company (limited by shares)",
    )
    assert identifier_pairs(engine, "805999") == {("elf", "LGWG")}
    assert provenance(engine, "806019")["source"] == "ie_cro"
    with engine.connect() as conn:
        row = conn.execute(data_sources.select().where(data_sources.c.id == "ie_cro")).mappings().one()
    assert (row["licence"], row["row_count"]) == ("CC BY 4.0", 300)


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "ie_cro", SAMPLE, batch_size=100)
    assert assert_idempotent(engine, settings, "ie_cro", SAMPLE).unchanged == 300


def test_status_columns_of_the_full_file(engine, settings, tmp_path):
    path = tmp_path / "companies.csv"
    rows = [
        JUEL + ",Liquidation,",
        JUEL.replace("806019", "806020") + ",Examinership,",
        JUEL.replace("806019", "806021") + ",Dissolved,2026-06-30",
        JUEL.replace("806019", "806022") + ",Strike Off Listed,",
    ]
    path.write_text("\n".join([FULL_HEADER, *rows]) + "\n", encoding="utf-8")
    assert run(engine, settings, "ie_cro", path).inserted == 4
    liq, exam, gone, listed = (company(engine, "IE", n) for n in ("806019", "806020", "806021", "806022"))
    assert (liq["status"], liq["in_liquidation"], liq["in_bankruptcy"]) == ("active", True, False)
    assert (exam["status"], exam["in_restructuring"]) == ("active", True)
    assert (gone["status"], gone["dissolved_on"]) == ("dissolved", date(2026, 6, 30))
    assert (listed["status"], listed["in_liquidation"]) == ("active", False)
    path.write_text(f"{FULL_HEADER}\n{JUEL},Normal,\n", encoding="utf-8")
    assert run(engine, settings, "ie_cro", path).updated == 1
    assert changes(engine, "806019")["in_liquidation"] == ("true", "false")


def test_malformed_rows_are_rejected_with_reasons(engine, settings, tmp_path):
    path = tmp_path / "companies.csv"
    rows = [
        JUEL + ",Normal,",
        JUEL.replace("806019", "ABC123") + ",Normal,",
        JUEL.replace("806019", "806023").replace("2026-01-14", "14/01/2026") + ",Normal,",
        JUEL.replace("806019", "806024") + ",Hibernating,",
        JUEL.replace("806019", "806025").replace("A45E865", "A45") + ",Normal,",
        JUEL.replace("806019", "806026").replace(",6202", ",62X2") + ",Normal,",
        "806027,SHORT ROW LIMITED",
    ]
    path.write_text("\n".join([FULL_HEADER, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "ie_cro", path)
    assert (stats.read, stats.inserted, stats.rejected) == (7, 1, 6)
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "is not a valid IE CRO number",
        "company_reg_date is not a date",
        "company_status is not a known CRO status: 'Hibernating'",
        "eircode is not an Eircode",
        "nace_v2_code is not a 4-digit NACE class",
        "has 2 fields, the header 12",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize("content", ["", "regcode;name\n1;x\n", '[{"company_num": 1}]'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "ie_cro", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "ie_cro", SAMPLE, batch_size=500)
    data = assert_envelope(client.get("/api/v1/companies/ie/806019", headers=auth))
    assert (data["name"], data["country"], data["legalForm"]["code"]) == ("JUEL DIGITAL LIMITED", "IE", "LTD")
    assert any(s["id"] == "ie_cro" and s["licence"] == "CC BY 4.0" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/ie/99999999", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/ie/1", headers=auth), 404, "NOT_FOUND")
