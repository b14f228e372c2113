"""The area's public statistics feeds (spec 4.7 `/public/stats/{feed}`): `eu-funds` and `cordis-projects`,
registered with the shared feed router (`regintel.api.stats_feeds`) when the router module is imported."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from regintel.api.stats_feeds import StatsFeed, register

from . import queries

ATTRIBUTION = (
    "regintel, from Kohesio, the Financial Transparency System and CORDIS (European Commission, "
    "CC BY 4.0); see /api/v1/public/data-sources"
)


def _money(value: Any) -> float | None:
    return round(float(value), 2) if value is not None else None


def eu_funds_rows(conn: Connection, limit: int) -> Sequence[Mapping[str, Any]]:
    return [
        {
            "rank": i,
            "country": r["country"],
            "national_id": r["national_id"],
            "name": r["name"],
            "projects": int(r["projects"]),
            "eu_contribution_eur": _money(r["eu_amount"]),
        }
        for i, r in enumerate(queries.top_eu_beneficiaries(conn, limit), start=1)
    ]


def cordis_rows(conn: Connection, limit: int) -> Sequence[Mapping[str, Any]]:
    return [
        {
            "rank": i,
            "country": r["country"],
            "national_id": r["national_id"],
            "name": r["name"],
            "projects": int(r["projects"]),
            "coordinated": int(r["coordinated"]),
            "ec_contribution_eur": _money(r["ec_contribution"]),
        }
        for i, r in enumerate(queries.top_cordis_participants(conn, limit), start=1)
    ]


EU_FUNDS = register(
    StatsFeed(
        name="eu-funds",
        title="Largest EU funds beneficiaries",
        description="Companies by the EU funding they received: the EU share of cohesion policy projects "
        "(Kohesio), amounts contracted under direct management (Financial Transparency System) and EC "
        "contributions to Horizon 2020 and Horizon Europe projects (CORDIS), in euro. Only recipients linked "
        "to a company count.",
        columns=("rank", "country", "national_id", "name", "projects", "eu_contribution_eur"),
        rows=eu_funds_rows,
        attribution=ATTRIBUTION,
    )
)

CORDIS = register(
    StatsFeed(
        name="cordis-projects",
        title="Companies in EU research projects",
        description="Companies by their EC contribution in Horizon 2020 and Horizon Europe projects "
        "(CORDIS), with the number of projects and how many they coordinate. Only participants linked to a "
        "company count.",
        columns=("rank", "country", "national_id", "name", "projects", "coordinated", "ec_contribution_eur"),
        rows=cordis_rows,
        attribution="regintel, from CORDIS (European Union, CC BY 4.0)",
    )
)
