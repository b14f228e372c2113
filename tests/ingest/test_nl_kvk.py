"""nl_kvk: KvK API Basisprofiel answers of KvK's test environment (FICTITIOUS enterprises)."""

from __future__ import annotations

import copy
import json
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
    rejects,
    run,
)

DIR = FIXTURES / "nl_kvk"
EMZ = DIR / "kvk_test_basisprofiel_69599084.json"
VVE = DIR / "kvk_test_basisprofiel_vve.json"
ZOEKEN = DIR / "kvk_test_zoeken_v2.json"


def load(path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_test_environment_profiles(engine, settings):
    assert run(engine, settings, "nl_kvk", EMZ).inserted == 1
    emz = company(engine, "NL", "69599084")
    assert (emz["name"], emz["legal_form"], emz["legal_form_name"]) == (
        "Test EMZ Dagobert",
        None,
        "Eenmanszaak",
    )
    assert (emz["status"], emz["founded_on"], emz["employees"]) == ("active", date(2017, 1, 8), 1)
    assert (emz["street"], emz["postal_code"], emz["city"]) == ("Abebe Bikilalaan 17", "1034WL", "Amsterdam")
    assert (emz["nace_primary"], emz["nace_codes"]) == ("1011", ["1011", "1012", "1013"])
    assert identifier_pairs(engine, "69599084") == {("elf", "4QXM")}
    assert_idempotent(engine, settings, "nl_kvk", EMZ)
    # the test VvE's RSIN fails the 11-test: dropped with a reason, the company kept
    stats, rows = rejects(engine, settings, "nl_kvk", VVE)
    assert (stats.inserted, stats.rejected) == (1, 1)
    assert rows[0]["reason"].startswith("invalid identifier dropped (company kept): RSIN '992340594'")
    vve = company(engine, "NL", "90000749")
    assert (vve["legal_form_name"], vve["street"], vve["founded_on"]) == (
        "Vereniging van Eigenaars",
        "Blaauwweg 163",
        date(1999, 11, 3),
    )
    stats = run(engine, settings, "nl_kvk", ZOEKEN)
    assert stats.skip_reasons == {"Zoeken result page (names and street names only, not a base profile)": 1}


def test_end_date_shielded_address_and_changes(engine, settings, tmp_path):
    run(engine, settings, "nl_kvk", EMZ)
    ended = load(EMZ)
    ended["materieleRegistratie"]["datumEinde"] = "20240630"
    ended["_embedded"]["hoofdvestiging"]["adressen"][0].update(indAfgeschermd="Ja", straatnaam="Geheim")
    (tmp_path / "ended.json").write_text(json.dumps(ended), encoding="utf-8")
    assert run(engine, settings, "nl_kvk", tmp_path / "ended.json").updated == 1
    row = company(engine, "NL", "69599084")
    assert (row["status"], row["dissolved_on"], row["street"]) == (
        "dissolved",
        date(2024, 6, 30),
        "Abebe Bikilalaan 17",
    )
    assert changes(engine, "69599084")["status"] == ("active", "dissolved")


def test_malformed_profiles_are_rejected_with_reasons(engine, settings, tmp_path):
    good = load(EMZ)
    bad_number = dict(copy.deepcopy(good), kvkNummer="695990841")
    bad_date = dict(copy.deepcopy(good), kvkNummer="69599085", formeleRegistratiedatum="10-07-2017")
    bad_date["materieleRegistratie"] = {"datumAanvang": "2017-01-08"}
    bad_sbi = dict(copy.deepcopy(good), kvkNummer="69599086", sbiActiviteiten=[{"sbiCode": "10.11"}])
    bad_address = copy.deepcopy(good)
    bad_address["kvkNummer"] = "69599087"
    bad_address["_embedded"]["hoofdvestiging"]["adressen"] = "Abebe Bikilalaan 17"
    items = [good, bad_number, bad_date, bad_sbi, bad_address, 42]
    (tmp_path / "mixed.json").write_text(json.dumps(items), encoding="utf-8")
    stats, rows = rejects(engine, settings, "nl_kvk", tmp_path / "mixed.json")
    assert (stats.read, stats.inserted, stats.rejected) == (6, 1, 5)
    reasons = " | ".join(r["reason"] for r in rows)
    for expected in (
        "is not a valid NL KvK number",
        "datumAanvang is not a yyyymmdd date",
        "sbiCode is not an SBI code",
        "adressen is not a list of objects",
        "a Basisprofiel item is not an object",
    ):
        assert expected in reasons
    assert count(engine) == 1


@pytest.mark.parametrize(
    "content",
    [
        "",
        "kvkNummer;naam\n",
        json.dumps({"ico": "26168685"}),
        json.dumps({"fout": [{"code": "IPD0004", "omschrijving": "KVK nummer ongeldig"}]}),
    ],
)
def test_wrong_format_aborts(engine, settings, tmp_path, content):
    (tmp_path / "wrong.json").write_text(content, encoding="utf-8")
    with pytest.raises(SourceAbort):
        run(engine, settings, "nl_kvk", tmp_path / "wrong.json")
    assert count(engine) == 0


def test_served_over_http(engine, settings, client, auth):
    run(engine, settings, "nl_kvk", EMZ)
    data = assert_envelope(client.get("/api/v1/companies/nl/69599084", headers=auth))
    assert (data["name"], data["country"], data["employees"]) == ("Test EMZ Dagobert", "NL", 1)
    assert any(s["id"] == "nl_kvk" for s in data["sources"])
    assert_error(client.get("/api/v1/companies/nl/6959908A", headers=auth), 422, "VALIDATION_ERROR")
    assert_error(client.get("/api/v1/companies/nl/90000749", headers=auth), 404, "NOT_FOUND")
