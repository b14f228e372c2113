"""Conversion of statement amounts to EUR for the size thresholds of Recommendation 2003/361/EC, which
are set in EUR (Annex Art. 2).

One dated table of euro foreign exchange reference rates published by the European Central Bank
(units of the currency per 1 EUR), kept here with its date and source so that every answer can say which
rate it used. The Recommendation names no conversion date; the rate of one fixed day is used for every
statement so that results do not move with the day of the request (docs/nis2.md discusses the choice).
A currency without a rate here makes the financial figures unknown, never silently EUR.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cache

RATES_DATE = "2024-12-31"
RATES_SOURCE = "European Central Bank, euro foreign exchange reference rates of 31 December 2024"
RATES_URL = "https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/"
# Units of currency per 1 EUR.
EUR_RATES: dict[str, Decimal] = {
    "EUR": Decimal(1),
    "BGN": Decimal("1.9558"),
    "CHF": Decimal("0.9412"),
    "CZK": Decimal("25.185"),
    "DKK": Decimal("7.4578"),
    "GBP": Decimal("0.82918"),
    "HUF": Decimal("411.35"),
    "NOK": Decimal("11.7950"),
    "PLN": Decimal("4.2750"),
    "RON": Decimal("4.9743"),
    "SEK": Decimal("11.4590"),
    "USD": Decimal("1.0389"),
}


@dataclass(frozen=True)
class Conversion:
    currency: str
    rate: Decimal  # units per EUR
    rate_date: str
    source: str


def conversion(currency: str | None) -> Conversion | None:
    return _conversion((currency or "").strip().upper())


@cache
def _conversion(code: str) -> Conversion | None:
    rate = EUR_RATES.get(code)
    return None if rate is None else Conversion(code, rate, RATES_DATE, RATES_SOURCE)


def to_eur(amount: Decimal | None, currency: str | None) -> Decimal | None:
    """`amount` in EUR (cents rounded half up), or None when the amount or the rate is unknown."""
    found = conversion(currency)
    if amount is None or found is None:
        return None
    return (Decimal(amount) / found.rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
