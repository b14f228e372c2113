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
    role_rows,
    run,
)

SAMPLE = FIXTURES / "lv_ur" / "register_sample.csv"
HEADER = SAMPLE.read_text(encoding="utf-8").splitlines()[1]
AST_BUVE = SAMPLE.read_text(encoding="utf-8").splitlines()[4]


def test_real_sample(engine, settings):
    stats = run(engine, settings, "lv_ur", SAMPLE, batch_size=200)
    assert (stats.read, stats.inserted, stats.rejected) == (887, 881, 0)
    assert stats.skip_reasons == {
        "9-digit registration number from before the 11-digit numbering (no check digit)": 6
    }
    ballet = company(engine, "LV", "40008223126")
    assert (ballet["name"], ballet["legal_form"], ballet["legal_form_name"]) == (
        "NEW LATVIAN BALLET",
        "BDR",
        "Biedrība",
    )
    assert (ballet["status"], ballet["founded_on"], ballet["dissolved_on"]) == (
        "active",
        date(2014, 4, 10),
        None,
    )
    assert (ballet["address_text"], ballet["postal_code"], ballet["municipality_code"]) == (
        "Rīga, Āraišu iela 36 - 1A",
        "LV-1039",
        "0010000",
    )
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
    path.write_text(
        "\n".join([HEADER, renamed, bad_check, bad_date, bad_closed, short]) + "\n", encoding="utf-8"
    )
    stats, rows = rejects(engine, settings, "lv_ur", path)
    assert (stats.read, stats.updated, stats.rejected) == (5, 1, 4)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid LV registration number",
        "registered is not a date",
        "closed is not L, R or empty",
        "has 3 fields, the header 21",
    ):
        assert expected in reasons
    assert changes(engine, "40003868290")["name"] == (
        'Sabiedrība ar ierobežotu atbildību "AST BŪVE"',
        'SIA "AST BŪVE 2"',
    )
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


BO = FIXTURES / "lv_ur" / "beneficial_owners_sample_first20.csv"


def test_beneficial_owners(engine, settings, tmp_path):
    # Register rows for two entities of the real BO sample (the register sample does not hold them):
    # the real AST BŪVE row under their registration numbers, with invented names.
    rows = [
        AST_BUVE.replace("40003868290", "42103060434").replace("AST BŪVE", "CELAJS TEST"),
        AST_BUVE.replace("40003868290", "40003229495").replace("AST BŪVE", "LUSINI TEST"),
    ]
    (tmp_path / "register.csv").write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    run(engine, settings, "lv_ur", tmp_path / "register.csv")
    stats, rejected = rejects(engine, settings, "lv_ur_bo", BO)
    # 16 entities in the 20 rows; 14 are not in this database and cannot be created from owners alone
    assert (stats.read, stats.updated, stats.rejected) == (16, 2, 14)  # two companies got their owners
    assert {r["reason"] for r in rejected} == {"unknown company and the record has no name"}
    owners = role_rows(engine, "42103060434")
    assert [
        (r["role"], r["holder_name"], r["birth_date"], r["nationality"], r["country_of_residence"])
        for r in owners
    ] == [
        ("beneficial_owner", "Ondrej Pavlik", "1975-07", "CZ", "CH"),
        ("beneficial_owner", "Ģirts Cēlājs", None, "LV", "LV"),
    ]
    assert owners[0]["since"] == date(2017, 12, 4)
    assert {r["holder_name"] for r in role_rows(engine, "40003229495")} == {"Argods Lūsiņš", "Antra Lūsiņa"}
    assert changes(engine, "42103060434")["roles"][1] == (
        "beneficial_owner: Ondrej Pavlik; beneficial_owner: Ģirts Cēlājs"
    )
    again = run(engine, settings, "lv_ur_bo", BO)
    assert (again.updated, again.changes) == (0, 0)


def test_beneficial_owner_rows_are_checked(engine, settings, tmp_path):
    head = BO.read_text(encoding="utf-8").splitlines()[1]
    rows = [
        '1;42103060434;Ondrej;Pavlik;"";07/1975;CZ;CH;2017-12-04;2017-12-04 14:16:43',
        '2;42103060434;Ondrej;Pavlik;"";1975-07;Czechia;CH;2017-12-04;2017-12-04 14:16:43',
        '3;42103060434;"";"";"";"";LV;LV;2017-12-04;2017-12-04 14:16:43',
        '4;"";Anna;Berzina;"";"";LV;LV;2017-12-04;2017-12-04 14:16:43',
    ]
    (tmp_path / "bo.csv").write_text("\n".join([head, *rows]) + "\n", encoding="utf-8")
    stats, rejected = rejects(engine, settings, "lv_ur_bo", tmp_path / "bo.csv")
    assert stats.rejected == 4
    reasons = " | ".join(r["reason"] for r in rejected)
    for expected in (
        "birth_date is not YYYY",
        "nationality is not an ISO 3166-1 alpha-2 code",
        "a beneficial owner without a name",
        "legal_entity_registration_number is empty",
    ):
        assert expected in reasons
