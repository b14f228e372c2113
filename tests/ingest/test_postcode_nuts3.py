"""Postcode -> NUTS 3 (Eurostat TERCET table, data/codelists/postcode_nuts3_ee_ro.csv) in the ro_onrc
and ee_ariregister importers: the fixtures' rows with their county taken out or contradicted, through
the importer and through HTTP."""

from __future__ import annotations

import json

import pytest

from regintel.ingest.code_lists.postcodes import postcode_nuts3
from tests.helpers import assert_envelope
from tests.ingest.import_helpers import FIXTURES, company, run
from tests.ingest.test_ro_onrc import HEADER as RO_HEADER
from tests.ingest.test_ro_onrc import ROWS as RO_ROWS
from tests.ingest.test_ro_onrc import file_set

EE_BASIC = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__lihtandmed.csv"
EE_GENERAL = FIXTURES / "ee_ariregister" / "ettevotja_rekvisiidid__yldandmed.json"
EE_HEADER, *EE_ROWS = EE_BASIC.read_text(encoding="utf-8-sig").splitlines()


@pytest.mark.parametrize(
    "country, postcode, nuts3",
    [
        ("RO", "400129", "RO113"),  # Cluj-Napoca
        ("RO", "077190", "RO322"),  # Voluntari, Ilfov
        ("RO", "010071", "RO321"),  # București
        ("EE", "10128", "EE001"),  # Tallinn
        ("EE", "20308", "EE00A"),  # Narva
        ("EE", "51007", "EE008"),  # Tartu
        ("EE", "99999", None),  # not a postcode
        ("RO", "10128", None),  # an Estonian postcode asked for Romania
        ("SK", "81101", None),  # a country the table does not cover
        ("RO", None, None),
    ],
)
def test_table(country, postcode, nuts3):
    assert postcode_nuts3(country, postcode) == nuts3


def _ro_row(row: str, **values: str) -> str:
    cells = row.split("^")
    columns = RO_HEADER.split("^")
    for name, value in values.items():
        cells[columns.index(name)] = value
    return "^".join(cells)


def _ee_row(row: str, **values: str) -> str:
    cells = row.split(";")
    columns = EE_HEADER.split(";")
    for name, value in values.items():
        cells[columns.index(name)] = value
    return ";".join(cells)


def _ro_import(engine, settings, tmp_path, rows: list[str], name: str = "onrc-2026-11-01.zip") -> None:
    firms = "\n".join([RO_HEADER, *rows]) + "\n"
    run(engine, settings, "ro_onrc", file_set(tmp_path / name, firms=firms))


def test_ro_postcode_before_the_county_number(engine, settings, tmp_path):
    # No județ: the postcode (Cluj-Napoca) gives the region, not the registration number's county (40).
    moved = _ro_row(RO_ROWS[0], ADR_JUDET="", ADR_LOCALITATE="Cluj-Napoca", ADR_COD_POSTAL="400129")
    # No județ and a postcode the table does not list: the county number (J22, Iași) still gives it.
    unknown = _ro_row(RO_ROWS[4], ADR_JUDET="", ADR_COD_POSTAL="999999")
    _ro_import(engine, settings, tmp_path, [moved, unknown])
    soft = company(engine, "RO", "14547297")
    assert (soft["region_code"], soft["postal_code"], soft["nuts3"]) == ("40", "400129", "RO113")
    assert company(engine, "RO", "21098760")["nuts3"] == "RO213"


def test_ro_judet_wins_over_a_disagreeing_postcode(engine, settings, tmp_path):
    # Timiș with a Iași postcode: the județ names the region itself.
    timis = _ro_row(RO_ROWS[2], ADR_COD_POSTAL="700057")
    # An unknown județ name: the postcode, before the county number (J35, Timiș).
    unknown = _ro_row(RO_ROWS[2], ADR_JUDET="Județul Necunoscut", ADR_COD_POSTAL="700057")
    _ro_import(engine, settings, tmp_path, [timis])
    assert company(engine, "RO", "33221148")["nuts3"] == "RO424"
    _ro_import(engine, settings, tmp_path, [unknown], "onrc-2026-12-01.zip")
    assert company(engine, "RO", "33221148")["nuts3"] == "RO213"


@pytest.fixture
def ro_moved(engine, settings, tmp_path):
    """Imported before the client's app starts (the tests ask for it first): the app's index thread
    writes beside an import, and under load a run record waited past SQLite's busy timeout."""
    moved = _ro_row(RO_ROWS[0], ADR_JUDET="", ADR_COD_POSTAL="400129")
    _ro_import(engine, settings, tmp_path, [moved, *RO_ROWS[1:]])


@pytest.fixture
def ee_moved(engine, settings, tmp_path):
    """As `ro_moved`: the Tartu company's county taken out, its postcode kept."""
    no_county = {"asukoha_ehak_tekstina": "Tartu linn", "ads_normaliseeritud_taisaadress": ""}
    _ee_import(engine, settings, tmp_path, [EE_ROWS[0], _ee_row(EE_ROWS[1], **no_county), *EE_ROWS[2:]])


def test_ro_postcode_region_served_and_searched(ro_moved, client, auth):
    data = assert_envelope(client.get("/api/v1/companies/ro/14547297", headers=auth))
    assert (data["address"]["postalCode"], data["address"]["nuts3"]) == ("400129", "RO113")
    found = client.get(
        "/api/v1/companies/advanced-search", params={"country": "ro", "nuts3": "RO113"}, headers=auth
    )
    assert {c["nationalId"] for c in assert_envelope(found)} == {"14547297", "12034872"}
    bucharest = client.get(
        "/api/v1/companies/advanced-search", params={"country": "ro", "nuts3": "RO321"}, headers=auth
    )
    assert {c["nationalId"] for c in assert_envelope(bucharest)} == {"38102938"}


def _ee_import(engine, settings, tmp_path, rows: list[str]) -> None:
    path = tmp_path / "ettevotja_rekvisiidid__lihtandmed_2026-12-01.csv"
    path.write_text("\n".join([EE_HEADER, *rows]) + "\n", encoding="utf-8")
    run(engine, settings, "ee_ariregister", path)


def test_ee_postcode_without_a_county(engine, settings, tmp_path):
    no_county = {"asukoha_ehak_tekstina": "Tartu linn", "ads_normaliseeritud_taisaadress": ""}
    tartu = _ee_row(EE_ROWS[1], **no_county)  # postcode 51007, Tartu
    unknown = _ee_row(EE_ROWS[3], **no_county, indeks_ettevotja_aadressis="99999")
    _ee_import(engine, settings, tmp_path, [tartu, unknown])
    assert company(engine, "EE", "12345678")["nuts3"] == "EE008"
    assert company(engine, "EE", "14700008")["nuts3"] is None


def test_ee_county_wins_over_a_disagreeing_postcode(engine, settings, tmp_path):
    # Harju maakond (ADS address) with a Tartu postcode; Ida-Viru (EHAK name only) with a Tallinn one.
    harju = _ee_row(EE_ROWS[0], indeks_ettevotja_aadressis="51007")
    ida_viru = _ee_row(
        EE_ROWS[3],
        asukoha_ehak_tekstina="Narva linn, Ida-Viru maakond",
        ads_normaliseeritud_taisaadress="",
        indeks_ettevotja_aadressis="10128",
    )
    _ee_import(engine, settings, tmp_path, [harju, ida_viru])
    assert company(engine, "EE", "10000018")["nuts3"] == "EE001"
    assert company(engine, "EE", "14700008")["nuts3"] == "EE00A"


def test_ee_general_data_postcode_without_a_county(engine, settings, tmp_path):
    no_county = {"asukoha_ehak_tekstina": "Tartu linn", "ads_normaliseeritud_taisaadress": ""}
    _ee_import(engine, settings, tmp_path, [_ee_row(EE_ROWS[1], **no_county, indeks_ettevotja_aadressis="")])
    assert company(engine, "EE", "12345678")["nuts3"] is None
    entities = json.loads(EE_GENERAL.read_text(encoding="utf-8"))
    address = entities[1]["yldandmed"]["aadressid"][-1]
    address["ehak_nimetus"] = "Tartu linn"  # no county named; postiindeks 51007
    (tmp_path / "yldandmed.json").write_text(json.dumps(entities, ensure_ascii=False), encoding="utf-8")
    run(engine, settings, "ee_ariregister_general", tmp_path / "yldandmed.json")
    assert company(engine, "EE", "12345678")["nuts3"] == "EE008"


def test_ee_postcode_region_served_and_searched(ee_moved, client, auth):
    data = assert_envelope(client.get("/api/v1/companies/ee/12345678", headers=auth))
    assert (data["address"]["postalCode"], data["address"]["nuts3"]) == ("51007", "EE008")
    found = client.get(
        "/api/v1/companies/advanced-search", params={"country": "ee", "nuts3": "EE008"}, headers=auth
    )
    assert {c["nationalId"] for c in assert_envelope(found)} == {"12345678", "80000014"}
