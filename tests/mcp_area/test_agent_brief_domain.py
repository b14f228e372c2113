"""`domain.agent_brief`: flags, revenue change, NACE label candidates and the headline, directly."""

from __future__ import annotations

from decimal import Decimal

import pytest

from regintel.domain.agent_brief import flags, headline, nace_code_candidates, revenue_change

RECORD = {
    "name": "ALFA s.r.o.",
    "country": "SK",
    "nationalId": "11640219",
    "status": "active",
    "legalForm": {"code": "112", "name": "Spoločnosť s ručením obmedzeným"},
    "address": {"city": "Žilina"},
    "foundedOn": "2010-05-04",
    "inBankruptcy": False,
    "inRestructuring": False,
    "inLiquidation": False,
}


def year(y: int, revenue: object, profit: object = 0, equity: object = 1, currency: str = "EUR") -> dict:
    return {
        "year": y,
        "currency": currency,
        "revenue": revenue,
        "profit": profit,
        "equity": equity,
        "source": "sk_ruz",
    }


def codes(found: list[dict]) -> list[str]:
    return [f["code"] for f in found]


def test_no_flags_for_a_healthy_company_and_none_without_figures():
    assert flags(RECORD, []) == []
    assert flags(RECORD, [year(2023, 110), year(2022, 100)]) == []


def test_insolvency_and_status_flags_with_severity():
    found = flags(
        RECORD
        | {"inBankruptcy": True, "inLiquidation": True, "status": "dissolved", "dissolvedOn": "2024-01-31"},
        [],
    )
    assert [(f["code"], f["severity"]) for f in found] == [
        ("IN_BANKRUPTCY", "critical"),
        ("IN_LIQUIDATION", "warning"),
        ("DISSOLVED", "critical"),
    ]
    assert "2024-01-31" in found[2]["text"]
    assert codes(flags(RECORD | {"inRestructuring": True, "status": "inactive"}, [])) == [
        "IN_RESTRUCTURING",
        "INACTIVE",
    ]


def test_financial_flags_name_their_year_and_source():
    found = flags(RECORD, [year(2023, Decimal(50), profit=Decimal(-5), equity=-1), year(2022, 100)])
    assert codes(found) == ["NEGATIVE_EQUITY", "LOSS", "REVENUE_DROP"]
    assert all(f["source"] == "sk_ruz" and "2023" in f["text"] for f in found)
    assert "50%" in found[2]["text"]


def test_revenue_change_needs_consecutive_years_one_currency_and_a_positive_base():
    assert revenue_change([year(2023, 120), year(2022, 100)]) == 20.0
    assert revenue_change([year(2023, 120), year(2021, 100)]) is None
    assert revenue_change([year(2023, 120), year(2022, 100, currency="CZK")]) is None
    assert revenue_change([year(2023, 120), year(2022, 0)]) is None
    assert revenue_change([year(2023, None), year(2022, 100)]) is None
    assert revenue_change([year(2023, 120)]) is None


@pytest.mark.parametrize(
    "values",
    [
        (None, None),
        ("abc", 100),
        (100, "x"),
        (True, 100),
        (-(10**12), 10**12),
        ("NaN", 1),
        (1, "Infinity"),
        ("1e999999", 1),
        (Decimal("0.001"), -1),
    ],
)
def test_revenue_change_never_fails_on_odd_values(values):
    change = revenue_change([year(2023, values[0]), year(2022, values[1])])
    assert change is None or isinstance(change, float)


def test_nace_candidates_from_national_and_eu_codes():
    assert nace_code_candidates("62010") == ["62.01", "62.0", "62"]
    assert nace_code_candidates("62.01Z") == ["62.01", "62.0", "62"]
    assert nace_code_candidates("41.20") == ["41.20", "41.2", "41"]
    assert nace_code_candidates("6") == []
    assert nace_code_candidates(None) == []


def test_headline_says_who_where_state_and_figures():
    text = headline(
        RECORD | {"inBankruptcy": True},
        [year(2023, Decimal("1234567.4"), Decimal(-5))],
        flags(RECORD | {"inBankruptcy": True}, []),
    )
    assert text == (
        "ALFA s.r.o. (SK 11640219), Spoločnosť s ručením obmedzeným, Žilina: active, in bankruptcy, "
        "founded 2010-05-04; 2023: revenue 1,234,567 EUR, profit -5 EUR."
    )
    assert (
        headline(RECORD | {"legalForm": {}, "address": {}, "foundedOn": None}, [], [])
        == "ALFA s.r.o. (SK 11640219): active."
    )
