"""ee_ariregister / ee_ariregister_persons: the e-Business Register open-data layouts, from fixtures
WRITTEN FROM THE DOCUMENTED FORMAT (invented entities; see tests/fixtures/ee_ariregister/README.md)."""

from __future__ import annotations

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
    role_rows,
    run,
)

BASIC = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__lihtandmed.csv"
PERSONS = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__kaardile_kantud_isikud.json"
LINES = BASIC.read_text(encoding="utf-8-sig").splitlines()
HEADER, FIRST = LINES[0], LINES[1]


def test_basic_data(engine, settings):
    stats = run(engine, settings, "ee_ariregister", BASIC)
    assert (stats.read, stats.inserted, stats.rejected) == (6, 6, 0)
    row = company(engine, "EE", "10000018")
    assert (row["name"], row["legal_form"], row["legal_form_name"]) == ("Näidisettevõte OÜ", "OÜ", "Osaühing")
    assert (row["status"], row["founded_on"], row["vat_id"]) == ("active", date(2005, 3, 15), "EE100000104")
    assert (row["street"], row["city"], row["postal_code"], row["municipality_code"], row["nuts3"]) == (
        "Tartu mnt 43",
        "Kesklinna linnaosa, Tallinn",
        "10128",
        "0298",
        "EE001",
    )
    assert row["address_text"] == "Harju maakond, Tallinn, Kesklinna linnaosa, Tartu mnt 43"
    assert identifier_pairs(engine, "10000018") >= {("elf", "JC0Y")}
    liquidating = company(engine, "EE", "12345678")
    assert (liquidating["status"], liquidating["in_liquidation"], liquidating["nuts3"]) == (
        "active",
        True,
        "EE008",
    )
    bankrupt = company(engine, "EE", "16000002")
    assert (bankrupt["name"], bankrupt["in_bankruptcy"]) == ('Pankrotis Ehitus "PE" OÜ', True)
    assert company(engine, "EE", "14700008")["status"] == "dissolved"
    assert identifier_pairs(engine, "90000021") >= {("elf", "1NKP")}
    assert provenance(engine, "10000018")["source"] == "ee_ariregister"
    with engine.connect() as conn:
        row = (
            conn.execute(data_sources.select().where(data_sources.c.id == "ee_ariregister")).mappings().one()
        )
    assert (row["licence"], row["row_count"]) == ("CC BY 4.0", 6)


def test_reimport_writes_nothing(engine, settings):
    run(engine, settings, "ee_ariregister", BASIC)
    assert assert_idempotent(engine, settings, "ee_ariregister", BASIC).unchanged == 6


def test_older_file_never_overwrites(engine, settings, tmp_path):
    newer = tmp_path / "lihtandmed_2026-12-01.csv"
    newer.write_text(f"{HEADER}\n{FIRST.replace('Näidisettevõte OÜ', 'Uus Nimi OÜ')}\n", encoding="utf-8")
    run(engine, settings, "ee_ariregister", newer)
    older = tmp_path / "lihtandmed_2026-11-01.csv"
    older.write_text(f"{HEADER}\n{FIRST}\n", encoding="utf-8")
    stats = run(engine, settings, "ee_ariregister", older)
    assert stats.skip_reasons == {"older than the data already loaded from this source": 1}
    assert company(engine, "EE", "10000018")["name"] == "Uus Nimi OÜ"


def test_changes_and_malformed_rows(engine, settings, tmp_path):
    path = tmp_path / "lihtandmed.csv"
    path.write_text(f"{HEADER}\n{FIRST}\n", encoding="utf-8")
    run(engine, settings, "ee_ariregister", path)
    liquidating = FIRST.replace(";R;Registrisse kantud;", ";L;Likvideerimisel;")
    bad_check = FIRST.replace("10000018", "10000012")
    bad_status = FIRST.replace(";R;", ";X;").replace("10000018", "12345678")
    bad_date = FIRST.replace("15.03.2005", "2005-03-15").replace("10000018", "16000002")
    bad_vat = FIRST.replace("EE100000104", "EE100000105").replace("10000018", "80000014")
    path.write_text(
        "\n".join([HEADER, liquidating, bad_check, bad_status, bad_date, bad_vat, "x;y"]) + "\n",
        encoding="utf-8",
    )
    stats, rows = rejects(engine, settings, "ee_ariregister", path)
    assert (stats.updated, stats.inserted) == (1, 1)  # the bad VAT number is dropped, its company kept
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid EE registrikood",
        "ettevotja_staatus is not R, L, N or K",
        "ettevotja_esmakande_kpv is not a dd.mm.yyyy date",
        "invalid VAT id dropped",
        "has 2 fields, the header 17",
    ):
        assert expected in reasons
    assert changes(engine, "10000018")["in_liquidation"] == ("false", "true")
    assert company(engine, "EE", "80000014")["vat_id"] is None
    assert count(engine) == 2


@pytest.mark.parametrize("content", ["", "nimi,ariregistri_kood\nx,10000018\n", '{"nimi": "x"}'])
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.csv").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "ee_ariregister", tmp_path / "wrong.csv")
    assert count(engine) == 0


def test_card_persons(engine, settings):
    run(engine, settings, "ee_ariregister", BASIC)
    stats = run(engine, settings, "ee_ariregister_persons", PERSONS)
    assert (stats.read, stats.updated, stats.rejected) == (2, 2, 0)
    roles = role_rows(engine, "10000018")
    assert [(r["role"], r["holder_name"], r["title"], r["birth_date"]) for r in roles] == [
        ("statutory_body", "John Smith", "Prokurist", None),
        ("director", "Mari Maasikas", "Juhatuse liige", "1980-01"),
        ("shareholder", "Proovikivi AS", "Osanik", None),
    ]
    assert (roles[0]["since"], roles[0]["until"]) == (date(2015, 1, 1), date(2020, 12, 31))
    assert roles[2]["holder_company_id"] == company(engine, "EE", "12345678")["id"]
    assert {r["title"] for r in role_rows(engine, "12345678")} == {"Juhatuse liige", "Likvideerija"}
    again = run(engine, settings, "ee_ariregister_persons", PERSONS)
    assert (again.updated, again.changes) == (0, 0)


def test_card_person_entries_are_checked(engine, settings, tmp_path):
    run(engine, settings, "ee_ariregister", BASIC)
    base = json.loads(PERSONS.read_text(encoding="utf-8"))[0]
    person = base["kaardile_kantud_isikud"][0]
    bad = [
        dict(base, kaardile_kantud_isikud=[dict(person, isiku_tyyp="X")]),
        dict(base, kaardile_kantud_isikud=[dict(person, eesnimi=None, nimi_arinimi=None)]),
        dict(base, kaardile_kantud_isikud=[dict(person, algus_kpv="2005-03-15")]),
        dict(base, kaardile_kantud_isikud="none"),
        {"ariregistri_kood": None, "nimi": "x", "kaardile_kantud_isikud": []},
    ]
    (tmp_path / "persons.json").write_text(json.dumps([base, *bad]), encoding="utf-8")
    stats, rows = rejects(engine, settings, "ee_ariregister_persons", tmp_path / "persons.json")
    assert (stats.read, stats.rejected) == (6, 5)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "isiku_tyyp is not F or J",
        "a card person without a name",
        "algus_kpv is not a dd.mm.yyyy",
        "kaardile_kantud_isikud is not a list",
        "without ariregistri_kood",
    ):
        assert expected in reasons
    with pytest.raises(SourceAbort):
        (tmp_path / "other.json").write_text('[{"nimi": "x"}]', encoding="utf-8")
        run(engine, settings, "ee_ariregister_persons", tmp_path / "other.json")


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "ee_ariregister", BASIC)
    data = assert_envelope(client.get("/api/v1/companies/ee/10000018", headers=auth))
    assert (data["name"], data["country"], data["status"]) == ("Näidisettevõte OÜ", "EE", "active")
    assert any(s["id"] == "ee_ariregister" and s["licence"] == "CC BY 4.0" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/ee/10000012", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/ee/10000024", headers=auth), 404, "NOT_FOUND")


def test_card_persons_behind_the_purpose_gate(engine, settings, client, auth):
    run(engine, settings, "ee_ariregister", BASIC)
    run(engine, settings, "ee_ariregister_persons", PERSONS)
    url = "/api/v1/companies/10000018/relations?country=EE"
    plain = client.get(url, headers=auth)
    assert plain.status_code == 200 and "1980-01" not in plain.text  # birth month only with a purpose
    gated = client.get(url, headers=auth, params={"purpose": "kyc", "include_ended": "true"})
    assert "Mari Maasikas" in gated.text and "1980-01" in gated.text
    assert "Proovikivi AS" in gated.text
