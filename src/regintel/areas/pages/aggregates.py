"""The pages area's figures that the statistics area stores as snapshots per data version
(`areas/stats/snapshots.py` reads `SNAPSHOTS`): the companies of each NUTS 3 region, the shell-address
ranking of every country, and the ten largest companies of every country.

They live below `service` and `regions`, which read the snapshots through `areas.stats.snapshots`, so that
the statistics area imports this module and nothing of the pages area imports it back."""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import lru_cache
from importlib.resources import files
from typing import Any

from sqlalchemy import Connection

from regintel.areas.stats import service as stats_svc

from . import queries

REGION_COUNTS = "pages:nuts3-counts"
SHELL_SNAPSHOT = "pages:shell-addresses"
SHELL_TOP = 100  # the rankings' largest `limit`: any smaller limit is a prefix (ordered by count, address)
COUNTRY_LARGEST = "pages:country-largest"
# The currency a country's statements are filed in, for its largest companies (nothing is converted).
CURRENCIES = {
    "CZ": "CZK",
    "GB": "GBP",
    "PL": "PLN",
    "HU": "HUF",
    "SE": "SEK",
    "DK": "DKK",
    "RO": "RON",
    "BG": "BGN",
    "CH": "CHF",
    "UA": "UAH",
}


@lru_cache(maxsize=1)
def nuts_names() -> dict[str, str]:
    text = (files("regintel.data") / "codelists" / "nuts2021.csv").read_text("utf-8")
    return {r["NUTS_ID"]: r["NAME_LATN"] for r in csv.DictReader(text.splitlines(), delimiter=";")}


def compute_counts(conn: Connection) -> list[dict[str, Any]]:
    """Every NUTS 3 region that holds a company, with its name and counts (one GROUP BY)."""
    names = nuts_names()
    return [
        {
            "nuts_id": r["nuts3"],
            "name": names.get(r["nuts3"]),
            "country": r["country"],
            "companies": int(r["companies"]),
            "active": int(r["active"] or 0),
        }
        for r in queries.region_counts(conn)
    ]


def as_number(value: Any) -> float | None:
    return float(value) if isinstance(value, Decimal | int | float) else None


def company_entry(r: Mapping[str, Any]) -> dict[str, Any]:
    """A company as the rankings list it, with the path of its page."""
    return {
        "country": r["country"],
        "national_id": r["national_id"],
        "name": r["name"],
        "status": r["status"],
        "city": r["city"],
        "url": f"/firma/{r['country'].lower()}/{r['national_id']}",
    }


def largest(conn: Connection, country: str | None, currency: str, limit: int) -> list[dict[str, Any]]:
    return [
        company_entry(r)
        | {
            "rank": i,
            "year": r["year"],
            "currency": r["currency"],
            "revenue": as_number(r["revenue"]),
            "employees": r["employees"],
        }
        for i, r in enumerate(queries.largest(conn, country, currency, limit), 1)
    ]


def country_largest_snapshot(conn: Connection) -> dict[str, dict[str, Any]]:
    """The ten largest companies of every country with companies, in its filing currency: the statistics
    snapshot `COUNTRY_LARGEST` the directory landings read."""
    out = {}
    for cc in queries.company_countries(conn):
        currency = CURRENCIES.get(cc, "EUR")
        out[cc] = {"currency": currency, "items": largest(conn, cc, currency, 10)}
    return out


def live_shell_addresses(conn: Connection, country: str | None, limit: int) -> list[dict[str, Any]]:
    items = stats_svc.public_shell_addresses(conn, queries.country_conditions(country), 2, limit)
    return [
        {
            "rank": i,
            "address": a["address"],
            "city": a["city"],
            "postal_code": a["postalCode"],
            "country": a["country"],
            "companies": a["companies"],
            "sample": [s.get("name") for s in a["sample"]],
        }
        for i, a in enumerate(items, 1)
    ]


def shell_snapshot(conn: Connection) -> dict[str, list[dict[str, Any]]]:
    """The top `SHELL_TOP` shell addresses of all countries together (`*`) and of each country that has
    companies: the snapshot every ranking request slices."""
    out = {"*": live_shell_addresses(conn, None, SHELL_TOP)}
    for country in queries.company_countries(conn):
        out[country] = live_shell_addresses(conn, country, SHELL_TOP)
    return out


SNAPSHOTS: dict[str, Callable[[Connection], Any]] = {
    REGION_COUNTS: compute_counts,  # /firmy-kraj, /heatmap, /maps (regions.py)
    SHELL_SNAPSHOT: shell_snapshot,  # the shell-address ranking, per country (service.py)
    COUNTRY_LARGEST: country_largest_snapshot,  # the directory landings' ten largest (landing_routes.py)
}
