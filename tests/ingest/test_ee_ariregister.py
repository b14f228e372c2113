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


GENERAL = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__yldandmed.json"
OWNERS = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__kasusaajad.json"
SHAREHOLDERS = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__osanikud.json"


def test_nuts3_from_the_ehak_place_name_without_an_ads_address(engine, settings, tmp_path):
    row = FIRST.split(";")
    row[11], row[15] = "Kesklinna linnaosa, Tallinn, Harju maakond", ""
    (tmp_path / "lihtandmed.csv").write_text(f"{HEADER}\n{';'.join(row)}\n", encoding="utf-8")
    run(engine, settings, "ee_ariregister", tmp_path / "lihtandmed.csv")
    assert (
        company(engine, "EE", "10000018")["nuts3"],
        company(engine, "EE", "10000018")["address_text"],
    ) == (
        "EE001",
        None,
    )


def test_emtak_activities(engine, settings):
    run(engine, settings, "ee_ariregister", BASIC)
    stats = run(engine, settings, "ee_ariregister_general", GENERAL)
    assert (stats.read, stats.updated, stats.rejected) == (3, 3, 0)
    row = company(engine, "EE", "10000018")
    # the NACE class of the main activity; the EMTAK codes as published, main first, ended ones left out
    assert (row["nace_primary"], row["nace_codes"], row["nuts3"]) == ("62.01", ["62011", "62021"], "EE001")
    liquidating = company(engine, "EE", "12345678")  # EMTAK 2025: a NACE Rev. 2.1 class
    assert (liquidating["nace_primary"], liquidating["nace_codes"], liquidating["nuts3"]) == (
        "73.11",
        ["73111"],
        "EE008",
    )
    society = company(engine, "EE", "80000014")  # no nace_kood: the EMTAK code's first four digits
    assert (society["nace_primary"], society["nace_codes"], society["nuts3"]) == ("94.99", ["94991"], "EE008")
    assert company(engine, "EE", "90000021")["nace_primary"] is None
    assert changes(engine, "10000018")["nace_primary"] == (None, "62.01")
    again = run(engine, settings, "ee_ariregister_general", GENERAL)
    assert (again.updated, again.changes) == (0, 0)
    assert (
        assert_idempotent(engine, settings, "ee_ariregister", BASIC).unchanged == 6
    )  # basic data keeps them
    assert company(engine, "EE", "10000018")["nace_primary"] == "62.01"


def test_malformed_activities_are_rejected(engine, settings, tmp_path):
    run(engine, settings, "ee_ariregister", BASIC)
    base = json.loads(GENERAL.read_text(encoding="utf-8"))[0]
    activity = base["yldandmed"]["teatatud_tegevusalad"][0]

    def with_activity(**changed):
        return dict(base, yldandmed=dict(base["yldandmed"], teatatud_tegevusalad=[dict(activity, **changed)]))

    bad = [
        with_activity(emtak_kood="6201X"),
        with_activity(nace_kood="62.02"),
        with_activity(nace_kood=None, emtak_kood="99999"),
        with_activity(emtak_kood="62101", nace_kood="62.10"),  # a Rev. 2.1 class given as EMTAK 2008
        with_activity(on_pohitegevusala="jah"),
        dict(base, yldandmed=dict(base["yldandmed"], teatatud_tegevusalad={"emtak_kood": "62011"})),
        dict(base, yldandmed="none"),
    ]
    (tmp_path / "yldandmed.json").write_text(json.dumps([base, *bad]), encoding="utf-8")
    stats, rows = rejects(engine, settings, "ee_ariregister_general", tmp_path / "yldandmed.json")
    assert (stats.read, stats.rejected) == (8, 7)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "emtak_kood is not a 4- or 5-digit EMTAK code: '6201X'",
        "nace_kood is not the NACE class of emtak_kood '62011': '62.02'",
        "emtak_kood is not under a NACE class of its version: '99999'",
        "nace_kood is not the NACE class of emtak_kood '62101': '62.10'",
        "on_pohitegevusala is not true or false",
        "teatatud_tegevusalad is not a list of objects",
        "yldandmed is not an object",
    ):
        assert expected in reasons
    assert company(engine, "EE", "10000018")["nace_codes"] == ["62011", "62021"]
    with pytest.raises(SourceAbort):
        (tmp_path / "other.json").write_text(
            '[{"ariregistri_kood": 10000018, "nimi": "x"}]', encoding="utf-8"
        )
        run(engine, settings, "ee_ariregister_general", tmp_path / "other.json")


def test_beneficial_owners_and_shareholders(engine, settings):
    run(engine, settings, "ee_ariregister", BASIC)
    owners = run(engine, settings, "ee_ariregister_owners", OWNERS)
    assert (owners.read, owners.updated, owners.rejected) == (2, 2, 0)
    holders = run(engine, settings, "ee_ariregister_shareholders", SHAREHOLDERS)
    assert (holders.read, holders.updated, holders.rejected) == (1, 1, 0)
    roles = {(r["role"], r["holder_name"]): r for r in role_rows(engine, "10000018")}
    assert set(roles) == {
        ("beneficial_owner", "Mari Maasikas"),
        ("beneficial_owner", "Matti Virtanen"),
        ("shareholder", "Proovikivi AS"),
        ("shareholder", "Mari Maasikas"),
        ("shareholder", "Nordic Holding Oy"),
    }
    mari = roles[("beneficial_owner", "Mari Maasikas")]
    assert (mari["title"], mari["birth_date"], mari["since"]) == (
        "Otsene osalus",
        "1980-01",
        date(2019, 5, 20),
    )
    assert roles[("beneficial_owner", "Matti Virtanen")]["birth_date"] == "1970-01"  # from synniaeg
    parent = roles[("shareholder", "Proovikivi AS")]
    assert (parent["share_pct"], parent["holder_company_id"]) == (
        60.0,
        company(engine, "EE", "12345678")["id"],
    )
    assert roles[("shareholder", "Mari Maasikas")]["share_pct"] == 30.0
    ended = role_rows(engine, "12345678")
    assert [(r["role"], r["holder_name"], r["until"]) for r in ended] == [
        ("beneficial_owner", "Jaan Tamm", date(2024, 6, 1))
    ]
    # each file replaces only its own source's roles
    assert run(engine, settings, "ee_ariregister_owners", OWNERS).changes == 0
    assert run(engine, settings, "ee_ariregister_shareholders", SHAREHOLDERS).changes == 0
    assert len(role_rows(engine, "10000018")) == 5


def test_malformed_owner_entries_are_rejected(engine, settings, tmp_path):
    run(engine, settings, "ee_ariregister", BASIC)
    base = json.loads(SHAREHOLDERS.read_text(encoding="utf-8"))[0]
    holder = base["osanikud"][1]
    bad = [
        dict(base, osanikud=[dict(holder, isiku_tyyp="X")]),
        dict(base, osanikud=[dict(holder, osaluse_protsent="120")]),
        dict(base, osanikud=[dict(holder, osaluse_protsent="pool")]),
        dict(base, osanikud=[dict(holder, eesnimi=None, nimi_arinimi=None)]),
        dict(base, osanikud=[dict(holder, algus_kpv="2005-03-15")]),
        dict(base, osanikud=[dict(base["osanikud"][2], valis_kood_riik="Soome")]),
        dict(base, osanikud="none"),
    ]
    (tmp_path / "osanikud.json").write_text(json.dumps([base, *bad]), encoding="utf-8")
    stats, rows = rejects(engine, settings, "ee_ariregister_shareholders", tmp_path / "osanikud.json")
    assert (stats.read, stats.rejected) == (8, 7)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "isiku_tyyp is not F or J",
        "osaluse_protsent is not a percentage: '120'",
        "osaluse_protsent is not a percentage: 'pool'",
        "an owner without a name",
        "algus_kpv is not a dd.mm.yyyy",
        "valis_kood_riik is not an ISO 3166 alpha-3 country code",
        "osanikud is not a list of objects",
    ):
        assert expected in reasons
    assert len(role_rows(engine, "10000018")) == 3
    owner = json.loads(OWNERS.read_text(encoding="utf-8"))[0]
    broken = dict(owner, kasusaajad=[dict(owner["kasusaajad"][1], synniaeg="1970")])
    (tmp_path / "kasusaajad.json").write_text(json.dumps([broken]), encoding="utf-8")
    stats, rows = rejects(engine, settings, "ee_ariregister_owners", tmp_path / "kasusaajad.json")
    assert stats.rejected == 1 and "synniaeg is not a dd.mm.yyyy date" in rows[0]["reason"]
    with pytest.raises(SourceAbort):
        run(engine, settings, "ee_ariregister_owners", SHAREHOLDERS)


@pytest.fixture
def all_files(engine, settings):
    """Imported before the client's app starts (the test asks for it first): the app's index thread
    writes beside the imports, and under load a run record waited past SQLite's busy timeout."""
    run(engine, settings, "ee_ariregister", BASIC)
    run(engine, settings, "ee_ariregister_general", GENERAL)
    run(engine, settings, "ee_ariregister_owners", OWNERS)
    run(engine, settings, "ee_ariregister_shareholders", SHAREHOLDERS)


def test_activities_and_owners_served_over_http(all_files, client, auth):
    data = assert_envelope(client.get("/api/v1/companies/ee/10000018", headers=auth))
    assert data["nace"] == {"primary": "62.01", "codes": ["62011", "62021"]}
    assert {s["id"] for s in data["sources"]} >= {
        "ee_ariregister",
        "ee_ariregister_general",
        "ee_ariregister_owners",
        "ee_ariregister_shareholders",
    }
    url = "/api/v1/companies/10000018/relations?country=EE"
    plain = client.get(url, headers=auth)
    assert plain.status_code == 200 and "1980-01" not in plain.text
    gated = client.get(url, headers=auth, params={"purpose": "kyc"})
    body = gated.text
    assert "Matti Virtanen" in body and "1970-01" in body and "Otsene osalus" in body
    assert "Proovikivi AS" in body and "Nordic Holding Oy" in body
