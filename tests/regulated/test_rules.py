"""The area's pure rules: published licence types → category → DORA (Regulation (EU) 2022/2554 Art. 2)
and NIS2 Annex I (Directive (EU) 2022/2555) flags; energy licence kinds → activity → Annex I subsector."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from regintel.areas.regulated import rules
from regintel.ingest.sources.regulated_common import city_of, status


@pytest.mark.parametrize(
    "label, category, dora, article",
    [
        ("Banka", "credit_institution", "yes", "Art. 2(1)(a)"),
        ("Pobočka zahraničnej banky", "credit_institution", "yes", "Art. 2(1)(a)"),
        ("Platobná inštitúcia", "payment_institution", "yes", "Art. 2(1)(b)"),
        ("Poskytovatel platebních služeb malého rozsahu", "small_payment_institution", "no", "Art. 2(3)"),
        ("Instituce elektronických peněz", "electronic_money_institution", "yes", "Art. 2(1)(d)"),
        ("Obchodník s cennými papíry", "investment_firm", "yes", "Art. 2(1)(e)"),
        ("Centrální depozitář", "central_securities_depository", "yes", "Art. 2(1)(g)"),
        ("Organizátor regulovaného trhu", "trading_venue", "yes", "Art. 2(1)(i)"),
        ("Správcovská spoločnosť", "fund_manager", "possible", "Art. 2(1)(k)-(l)"),
        ("POISŤOVŇA", "insurance_undertaking", "yes", "Art. 2(1)(n)"),
        ("Samostatný zprostředkovatel pojištění", "insurance_intermediary", "possible", "Art. 2(1)(o)"),
        ("Doplnková dôchodková spoločnosť", "iorp", "yes", "Art. 2(1)(p)"),
        ("Směnárník", "bureau_de_change", "no", None),
        ("Penzijní společnost", "pension_company", "no", None),
        ("Samostatný finančný agent v sektore kapitálového trhu", "other", "unknown", None),
    ],
)
def test_dora_art_2_entity_types(label, category, dora, article):
    assert rules.financial_category(label) == category
    assert (rules.dora(category).applies, rules.dora(category).article) == (dora, article)


@pytest.mark.parametrize(
    "category, sector",
    [
        ("credit_institution", "3 Banking"),
        ("trading_venue", "4 Financial market infrastructure"),
        ("central_counterparty", "4 Financial market infrastructure"),
        ("insurance_undertaking", None),
        ("payment_institution", None),
    ],
)
def test_nis2_annex_i_sectors_3_and_4(category, sector):
    found = rules.nis2_sector("financial", category)
    assert (found.sector if found else None) == sector


@pytest.mark.parametrize(
    "text, activity, subsector",
    [
        ("11 - Výroba elektřiny", "electricity_generation", "(a) Electricity"),
        ("12 - Přenos elektřiny", "electricity_transmission", "(a) Electricity"),
        ("25 - Obchod s plynem", "gas_supply", "(d) Gas"),
        ("32 - Rozvod tepelné energie", "heat_distribution", "(b) District heating and cooling"),
        ("Distribúcia elektriny", "electricity_distribution", "(a) Electricity"),
        ("Uskladňovanie plynu", "gas_storage", "(d) Gas"),
        ("Výroba tepla", "heat_generation", "(b) District heating and cooling"),
        ("Odvádzanie a čistenie odpadovej vody verejnou kanalizáciou", "waste_water", None),
        ("Výroba a dodávka pitnej vody verejným vodovodom", "drinking_water", None),
        ("Preprava ropy", "other", None),
    ],
)
def test_nis2_annex_i_energy_and_water(text, activity, subsector):
    assert rules.energy_activity(text) == activity
    sector = rules.nis2_sector("energy", activity)
    assert (sector.subsector if sector else None) == subsector
    if activity == "waste_water":
        assert sector is not None and sector.sector == "7 Waste water"
    if activity == "drinking_water":
        assert sector is not None and sector.sector == "6 Drinking water"


@pytest.mark.parametrize(
    "published, ended, expected",
    [
        ("platné", None, "active"),
        ("odňaté", None, "ended"),
        ("Zaniklá", None, "ended"),
        ("pozastavený", None, "suspended"),
        (None, date.today() - timedelta(days=1), "ended"),
        (None, date.today() + timedelta(days=30), "active"),
        ("vyčiarknutý", None, "ended"),
    ],
)
def test_status(published, ended, expected):
    assert status(published, ended) == expected


@pytest.mark.parametrize(
    "address, city",
    [
        ("Testovacia 1, 811 01 Bratislava", "Bratislava"),
        ("Distribuční 1, 400 01 Ústí nad Labem", "Ústí nad Labem"),
        ("Košice", "Košice"),
        (None, None),
        ("", None),
    ],
)
def test_city_of(address, city):
    assert city_of(address) == city
