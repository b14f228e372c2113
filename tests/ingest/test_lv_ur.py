"""lv_ur: the Latvian Register of Enterprises register.csv (887 real rows) through the runner."""

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

SAMPLE = FIXTURES / "lv_ur" / "register_sample.csv"
HEADER = SAMPLE.read_text(encoding="utf-8").splitlines()[1]
AST_BUVE = SAMPLE.read_text(encoding="utf-8").splitlines()[4]


def test_real_sample(engine, settings):
    stats = run(engine, settings, "lv_ur", SAMPLE, batch_size=200)
    assert (stats.read, stats.inserted, stats.rejected) == (887, 881, 0)
    assert stats.skip_reasons == {
        "9-digit registration number from before the 11-digit numbering (no check digit)": 6}
    ballet = company(engine, "LV", "40008223126")
    assert (ballet["name"], ballet["legal_form"], ballet["legal_form_name"]) == (
        "NEW LATVIAN BALLET", "BDR", "Biedrība")
    assert (ballet["status"], ballet["founded_on"], ballet["dissolved_on"]) == ("active", date(2014, 4, 10), None)
    assert (ballet["address_text"], ballet["postal_code"], ballet["municipality_code"]) == (
        "Rīga, Āraišu iela 36 - 1A", "LV-1039", "0010000")
    assert (ballet["in_bankruptcy"], ballet["in_liquidation"], ballet["vat_id"]) == (False, False, None)
    sia = company(engine, "LV", "40003868290")
    assert sia["name"] == 'Sabiedrība ar ierobežotu atbildību "AST BŪVE"'
    assert (sia["status"], sia["dissolved_on"], sia["legal_form"]) == ("dissolved", date(2013, 12, 11), "SIA")
    assert identifier_pairs(engine, "40003868290") == {("elf", "ES2D")}
    merged = company(engine, "LV", "44103030781")  # closed = R: ended by reorganisation
    assert merged["status"] == "dissolved"
    assert provenance(engine, "40003868290")["source"] == "lv_ur"
    with engine.connect() as conn:
        row = conn.execute(data_sources.select().where(data_sources.c.id == "lv_ur")).mappings().one()
    assert (row["licence"], row["row_count"]) == ("CC0 1.0", 881)
    assert "Register of Enterprises" in row["attribution"]


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "lv_ur", SAMPLE, batch_size=500)
    assert assert_idempotent(engine, settings, "lv_ur", SAMPLE).unchanged == 881


def test_changes_and_malformed_rows(engine, settings, tmp_path):
    path = tmp_path / "register.csv"
    path.write_text(f"{HEADER}\n{AST_BUVE}\n", encoding="utf-8")
    run(engine, settings, "lv_ur", path)
    renamed = AST_BUVE.replace('"Sabiedrība ar ierobežotu atbildību ""AST BŪVE"""', '"SIA ""AST BŪVE 2"""')
    bad_check = AST_BUVE.replace("40003868290", "40003868291")
    bad_date = AST_BUVE.replace("2006-10-24", "24.10.2006").replace("40003868290", "40003018517")
    bad_closed = AST_BUVE.replace(";L;", ";X;").replace("40003868290", "40003018521")
    short = "40003018521;LV;x"
    path.write_text("\n".join([HEADER, renamed, bad_check, bad_date, bad_closed, short]) + "\n", encoding="utf-8")
    stats, rows = rejects(engine, settings, "lv_ur", path)
    assert (stats.read, stats.updated, stats.rejected) == (5, 1, 4)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in ("is not a valid LV registration number", "registered is not a date",
                     "closed is not L, R or empty", "has 3 fields, the header 21"):
        assert expected in reasons
    assert changes(engine, "40003868290")["name"] == (
        'Sabiedrība ar ierobežotu atbildību "AST BŪVE"', 'SIA "AST BŪVE 2"')
    assert count(engine) == 1


@pytest.mark.parametrize("content", ["", "regcode,name\n40003868290,x\n", '{"regcode": "40003868290"}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "lv_ur", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "lv_ur", SAMPLE, batch_size=500)
    data = assert_envelope(client.get("/api/v1/companies/lv/40008223126", headers=auth))
    assert (data["name"], data["country"], data["status"]) == ("NEW LATVIAN BALLET", "LV", "active")
    assert any(s["id"] == "lv_ur" and s["licence"] == "CC0 1.0" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/lv/40008223127", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/lv/40003018536", headers=auth), 404, "NOT_FOUND")
