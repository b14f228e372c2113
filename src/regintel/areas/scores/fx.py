"""The bundled ECB month-end reference rates (`regintel/data/fx/`, see its README.md), read once."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal
from functools import cache
from importlib import resources

from regintel.domain.scores.fx import RateTable

SOURCE = "ECB euro foreign exchange reference rates (month ends)"
FILE = "ecb_month_end.csv"


@cache
def rate_table() -> RateTable:
    text = (resources.files("regintel") / "data" / "fx" / FILE).read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    currencies = next(reader)[1:]
    dates: dict[str, list[date]] = {c: [] for c in currencies}
    rates: dict[str, list[Decimal]] = {c: [] for c in currencies}
    for row in reader:
        day = date.fromisoformat(row[0])
        for currency, value in zip(currencies, row[1:], strict=True):
            if value:
                dates[currency].append(day)
                rates[currency].append(Decimal(value))
    return RateTable({c: tuple(d) for c, d in dates.items()}, {c: tuple(r) for c, r in rates.items()}, SOURCE)
