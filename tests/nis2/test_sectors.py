"""The NACE → NIS2 sector mapping file and hand-checked examples (Directive (EU) 2022/2555, Annexes I, II)."""

from __future__ import annotations

import csv
from importlib.resources import files

import pytest

from regintel.domain.nis2.sectors import match_company, parse_rows, rows_for, sector_rows

ANNEX_I = {
    "energy",
    "transport",
    "banking",
    "financial_market_infrastructure",
    "health",
    "drinking_water",
    "waste_water",
    "digital_infrastructure",
    "ict_service_management",
    "public_administration",
    "space",
}
ANNEX_II = {
    "postal_and_courier",
    "waste_management",
    "chemicals",
    "food",
    "manufacturing",
    "digital_providers",
    "research",
}


def test_every_row_has_its_annex_point_and_a_justification():
    rows = sector_rows()
    assert len(rows) > 100
    for row in rows:
        assert row.annex_ref.startswith(f"Annex {row.annex}"), row
        assert len(row.justification) > 20, row
        assert row.sector in (ANNEX_I if row.annex == "I" else ANNEX_II), row
    text = files("regintel").joinpath("data/nis2/nace_sectors.csv").read_text(encoding="utf-8")
    keys = [(r["nace"], r["annex"], r["entity_type"]) for r in csv.DictReader(text.splitlines())]
    assert len(keys) == len(set(keys)), "a row is repeated"


def test_every_code_is_a_nace_rev2_code_of_the_eurostat_list():
    text = files("regintel").joinpath("data/codelists/nace_rev2_eurostat.csv").read_text(encoding="utf-8")
    known = {line.split(",")[0].strip('"') for line in text.splitlines()[1:]}
    known_digits = {k.replace(".", "") for k in known}
    missing = [r.nace for r in sector_rows() if r.nace.replace(".", "") not in known_digits]
    assert not missing, missing


@pytest.mark.parametrize(
    "bad",
    [
        "nace,annex\n",
        "nace,annex,sector,subsector,entity_type,match,annex_ref,justification\n"
        '3511,I,energy,,x,certain,"Annex I, 1(a)",why not\n',
        "nace,annex,sector,subsector,entity_type,match,annex_ref,justification\n"
        '35.11,III,energy,,x,certain,"Annex I, 1(a)",why not\n',
        "nace,annex,sector,subsector,entity_type,match,annex_ref,justification\n"
        '35.11,I,energy,,x,sure,"Annex I, 1(a)",why not\n',
    ],
)
def test_a_malformed_mapping_file_is_refused(bad):
    with pytest.raises(ValueError):
        parse_rows(bad)


def _summary(primary, secondary=None):
    return {
        (m.row.annex, m.row.sector, m.row.subsector, m.row.entity_type, m.match)
        for m in match_company(primary, secondary)
    }


def test_annex_i_1a_energy_utility_distribution_system_operator():
    # A distribution system operator as registered in Slovakia (SK NACE 35130).
    assert _summary("35130") == {("I", "energy", "electricity", "distribution_system_operator", "certain")}


def test_annex_i_5_hospital_is_a_healthcare_provider():
    assert _summary("86.10") == {("I", "health", None, "healthcare_provider", "certain")}


def test_annex_i_8_cloud_provider_from_data_processing_and_hosting():
    found = _summary("63.11")
    assert ("I", "digital_infrastructure", None, "cloud_computing_service_provider", "likely") in found
    assert ("I", "digital_infrastructure", None, "data_centre_service_provider", "likely") in found


def test_annex_ii_4_food_manufacturer_in_any_spelling():
    for code in ("10.71", "10710", "10.71Z", "10.710"):
        assert _summary(code) == {("II", "food", None, "food_business", "likely")}, code


def test_annex_i_8_small_it_firm_is_at_most_a_possible_cloud_provider():
    assert _summary("62010") == {
        ("I", "digital_infrastructure", None, "cloud_computing_service_provider", "possible")
    }


def test_annex_i_10_public_body_general_public_service():
    assert _summary("84.11") == {
        ("I", "public_administration", None, "public_administration_entity", "likely")
    }


def test_annex_ii_5_manufacturing_divisions_26_to_30_named_by_nace():
    for code, sub in (
        ("26.11", "computer_electronic_optical"),
        ("27.12", "electrical_equipment"),
        ("28.22", "machinery_and_equipment"),
        ("29.10", "motor_vehicles"),
        ("30.30", "other_transport_equipment"),
    ):
        assert ("II", "manufacturing", sub, "manufacturer", "certain") in _summary(code)


def test_annex_i_5_division_21_pharmaceuticals_named_by_nace():
    assert _summary("21.20") == {("I", "health", None, "pharmaceutical_manufacturer", "certain")}


def test_a_class_also_reaches_its_division_rows():
    # 26.60 is a medical-device class (Annex II 5(a)) and part of division 26 (Annex II 5(b)).
    assert {r.subsector for r in rows_for("26.60")} == {"medical_devices", "computer_electronic_optical"}


def test_secondary_codes_are_only_possible():
    assert _summary("62.01", ["35.11"]) >= {("I", "energy", "electricity", "producer", "possible")}


def test_unmapped_and_malformed_codes_lead_nowhere():
    assert match_company("47.11", None) == []  # retail of food in stores: not food production
    assert match_company(None, None) == [] and match_company("", []) == [] and match_company("x", ["7"]) == []


def test_annex_ii_4_feed_and_tobacco_are_not_food():
    assert match_company("10.91", None) == [] and match_company("46.35", None) == []  # animal feed, tobacco
    assert _summary("46.33") == {("II", "food", None, "food_business", "certain")}  # dairy wholesale


def test_annex_ii_3_formulating_mixtures_is_only_possible():
    assert _summary("20.30") == {("II", "chemicals", None, "chemicals_manufacturer", "possible")}
    assert _summary("20.14") == {("II", "chemicals", None, "chemicals_manufacturer", "certain")}
