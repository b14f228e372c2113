"""Euro amounts at ECB reference rates: the rate of the last month end on or before a date."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import date
from decimal import Decimal


@dataclass(frozen=True)
class EurRate:
    currency: str
    rate: Decimal  # units of `currency` per 1 EUR
    on: date  # the day the ECB published it


@dataclass(frozen=True)
class RateTable:
    """Per currency, ascending publication dates and their rates."""

    dates: dict[str, tuple[date, ...]]
    rates: dict[str, tuple[Decimal, ...]]
    source: str

    def find(self, currency: str, on: date) -> EurRate | None:
        """The latest rate published on or before `on`, None when the table has none (a currency the
        ECB does not quote, or a day before its first rate). EUR converts at 1 on the day itself."""
        currency = currency.upper()
        if currency == "EUR":
            return EurRate("EUR", Decimal(1), on)
        days = self.dates.get(currency)
        if not days:
            return None
        i = bisect.bisect_right(days, on) - 1
        return None if i < 0 else EurRate(currency, self.rates[currency][i], days[i])


def to_eur(amount: Decimal | None, rate: EurRate | None) -> Decimal | None:
    """`amount` in euro, to the cent, or None when the amount or the rate is unknown."""
    if amount is None or rate is None:
        return None
    return (amount / rate.rate).quantize(Decimal("0.01"))
