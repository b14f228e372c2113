"""Annex I sectors from the supervisory and licensing registers (domain/nis2/registers.py): each rule with
its legal reference in the test's name; the size rules of Art. 2(1) and 3 still apply."""

from __future__ import annotations

from dataclasses import replace

import pytest

from regintel.domain.nis2.registers import REGISTER_SECTORS, RegisteredActivity
from regintel.domain.nis2.scope import CERTAIN, ESSENTIAL, IMPORTANT, LIKELY, OUT, RULESET_VERSION, assess
from tests.nis2.test_scope_rules import LARGE, MEDIUM, SMALL, facts, fig


def licensed(nace=None, own=MEDIUM, *acts, country="SK"):
    return replace(facts(nace, own, country=country), activities=list(acts))


BANK = RegisteredActivity("sk_nbs", "financial", "credit_institution", "Banka", "yes")
VENUE = RegisteredActivity(
    "cz_cnb_jerrs", "financial", "trading_venue", "Organizátor regulovaného trhu", "yes"
)
CCP = RegisteredActivity("cz_cnb_jerrs", "financial", "central_counterparty", "Ústřední protistrana", "yes")
INSURER = RegisteredActivity("sk_nbs", "financial", "insurance_undertaking", "Poisťovňa", "yes")
DSO = RegisteredActivity("cz_eru", "energy", "electricity_distribution", "13 distribuce elektřiny")
GAS = RegisteredActivity("cz_eru", "energy", "gas_supply", "25 obchod s plynem")
HEAT_GEN = RegisteredActivity("cz_eru", "energy", "heat_generation", "31 výroba tepelné energie")
HEAT_NET = RegisteredActivity("sk_urso", "energy", "heat_distribution", "rozvod tepla")
WATER = RegisteredActivity(
    "sk_urso", "energy", "drinking_water", "výroba a dodávka pitnej vody verejným vodovodom"
)
SEWAGE = RegisteredActivity("sk_urso", "energy", "waste_water", "odvádzanie a čistenie odpadovej vody")
OTHER = RegisteredActivity("cz_eru", "energy", "other", "neznámá licence")


def bases(f, kind="register"):
    return [b for b in assess(f).bases if b["kind"] == kind]


def test_ruleset_version_bumped_for_register_sectors():
    assert (
        RULESET_VERSION == "nis2-2026.12.1"
        and assess(licensed(None, MEDIUM, BANK)).ruleset_version == RULESET_VERSION
    )


def test_annex_i_3_art_3_1_a_large_credit_institution_from_the_bank_register_is_essential():
    a = assess(licensed(None, LARGE, BANK))
    assert (a.category, a.certainty) == (ESSENTIAL, CERTAIN)
    b = bases(licensed(None, LARGE, BANK))[0]
    assert (b["annex_ref"], b["entity_type"], b["match"], b["registers"]) == (
        "Annex I, 3",
        "credit_institution",
        CERTAIN,
        ["sk_nbs"],
    )
    assert any("Art. 3(1)(a)" in r["legal_reference"] for r in a.reasons if r["rule"] == "register")


def test_annex_i_3_art_3_2_medium_credit_institution_is_important():
    a = assess(licensed("64.19", MEDIUM, BANK))
    assert (a.category, a.certainty) == (IMPORTANT, CERTAIN)
    # Without NACE another, size-independent activity stays open (essential): the register makes it likely.
    a = assess(licensed(None, MEDIUM, BANK))
    assert (a.category, a.certainty) == (IMPORTANT, LIKELY) and any(m["input"] == "nace" for m in a.missing)


def test_art_2_1_small_credit_institution_stays_out_of_scope():
    a = assess(licensed("64.19", SMALL, BANK))
    assert (a.category, a.certainty) == (OUT, CERTAIN)


def test_art_4_1_dora_replaces_art_21_and_23_for_a_bank_noted():
    a = assess(licensed(None, LARGE, BANK))
    assert any("Art. 4(1)" in n and "DORA" in n for n in a.notes)


def test_annex_i_4_trading_venue_and_central_counterparty_from_the_cnb_register():
    for act, entity in ((VENUE, "trading_venue_operator"), (CCP, "central_counterparty")):
        a = assess(licensed("66.11", MEDIUM, act, country="CZ"))
        assert (a.category, a.certainty) == (IMPORTANT, CERTAIN)
        assert bases(licensed(None, MEDIUM, act, country="CZ"))[0]["entity_type"] == entity


def test_annexes_i_ii_insurer_is_no_nis2_entity_type_noted_with_dora():
    a = assess(licensed(None, LARGE, INSURER))
    assert a.category == OUT and not bases(licensed(None, LARGE, INSURER))
    assert any("not an entity type of NIS2 Annex I or II" in n and "DORA" in n for n in a.notes)


def test_annex_i_1_a_art_3_1_a_electricity_distribution_licence_decides_the_sector_without_nace():
    a = assess(licensed(None, LARGE, DSO, country="CZ"))
    assert (a.category, a.certainty) == (ESSENTIAL, CERTAIN)
    b = bases(licensed(None, LARGE, DSO, country="CZ"))[0]
    assert (b["annex_ref"], b["subsector"], b["entity_type"]) == (
        "Annex I, 1(a)",
        "electricity",
        "distribution_system_operator",
    )


def test_annex_i_1_d_gas_supply_licence():
    b = bases(licensed(None, MEDIUM, GAS, country="CZ"))[0]
    assert (b["annex_ref"], b["entity_type"], b["match"]) == ("Annex I, 1(d)", "supply_undertaking", CERTAIN)


def test_annex_i_1_b_heat_generation_licence_is_likely_district_heating_distribution_certain():
    a = assess(licensed("35.30", MEDIUM, HEAT_GEN, country="CZ"))
    assert (a.category, a.certainty) == (IMPORTANT, LIKELY)
    assert any(m["input"] == "activity:district_heating_operator" for m in a.missing)
    a = assess(licensed("35.30", MEDIUM, HEAT_NET))
    assert (a.category, a.certainty) == (IMPORTANT, CERTAIN)


def test_annex_i_6_and_7_regulated_water_and_waste_water_entities():
    for act, ref in ((WATER, "Annex I, 6"), (SEWAGE, "Annex I, 7")):
        assert bases(licensed(None, LARGE, act))[0]["annex_ref"] == ref
        assert assess(licensed(None, LARGE, act)).category == ESSENTIAL


def test_annex_i_register_proves_what_nace_only_suggests_64_19_bank():
    without = assess(facts("64.19", LARGE))
    assert (without.category, without.certainty) == (ESSENTIAL, LIKELY)
    assert any(m["input"] == "activity:credit_institution" for m in without.missing)
    a = assess(licensed("64.19", LARGE, BANK))
    assert (a.category, a.certainty) == (ESSENTIAL, CERTAIN)
    assert not any(m["input"].startswith("activity:") for m in a.missing)


def test_art_2_1_register_sector_with_unknown_size_lists_the_size_inputs():
    a = assess(licensed(None, fig(), DSO, country="CZ"))
    assert a.category != ESSENTIAL or a.certainty != CERTAIN
    assert {"headcount", "turnover_eur", "balance_sheet_eur"} <= {m["input"] for m in a.missing}
    assert OUT in a.possible_categories and ESSENTIAL in a.possible_categories


def test_licence_outside_the_mapping_adds_nothing():
    assert not bases(licensed(None, LARGE, OTHER)) and assess(licensed(None, LARGE, OTHER)).category == OUT


@pytest.mark.parametrize("key", sorted(REGISTER_SECTORS))
def test_annex_i_every_register_mapping_names_an_annex_point_and_its_definition(key):
    row = REGISTER_SECTORS[key]
    assert row.annex == "I" and row.annex_ref.startswith("Annex I, ") and row.match in (CERTAIN, LIKELY)
    assert "Art." in row.definition


def test_two_registers_for_one_entity_type_give_one_basis():
    second = replace(DSO, register="sk_urso", licence_type="distribúcia elektriny")
    found = bases(licensed(None, LARGE, DSO, second, country="CZ"))
    assert len(found) == 1 and found[0]["registers"] == ["cz_eru", "sk_urso"]
