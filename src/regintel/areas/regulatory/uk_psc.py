"""The public statistics feed `uk-psc` (spec 4.7): Companies House "persons with significant control"
entries as the `gb_psc` import stored them (roles of UK companies), newest notification first.

Natural persons: this feed is public and takes no key, so it carries no natural person's name or
personal fields (as the public sanctions statistics leave them out); the ownership area shows names
on keyed routes and personal fields only with a declared purpose (docs/ownership.md). Corporate and
legal-person PSCs are named, with their company number when Companies House registers them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.api import stats_feeds
from regintel.ingest.sources.gb_companies_house import ATTRIBUTION, LICENCE

from . import queries as q

COLUMNS = (
    "country",
    "national_id",
    "company_name",
    "psc_kind",
    "psc_name",
    "psc_country",
    "psc_national_id",
    "role",
    "natures_of_control",
    "share_pct_min",
    "voting_pct_min",
    "notified_on",
    "ceased_on",
    "active",
)
TITLE = "UK persons with significant control"
PATH = "/api/v1/public/stats/uk-psc"

FEED = stats_feeds.register(
    stats_feeds.StatsFeed(
        name="uk-psc",
        title=TITLE,
        description="Companies House PSC entries of UK companies, newest notification first: kind, natures "
        "of control, share and voting bands, notified and ceased dates; natural persons unnamed; filter "
        "`activeOnly`.",
        columns=COLUMNS,
        rows=None,
        attribution=ATTRIBUTION,
        licence=LICENCE,
        path=PATH,
    )
)


def feed(conn: Connection, active_only: bool, limit: int) -> dict[str, Any]:
    rows, total = q.psc_rows(conn, active_only, limit)
    return {
        "feed": "uk-psc",
        "title": TITLE,
        "attribution": ATTRIBUTION,
        "licence": LICENCE,
        "columns": list(COLUMNS),
        "active_only": active_only,
        "count": len(rows),
        "total": total,
        "totals": q.psc_totals(conn),
        "rows": [_row(r) for r in rows],
    }


def _row(r: Mapping[str, Any]) -> dict[str, Any]:
    person = r["person_id"] is not None
    return {
        "country": r["country"],
        "national_id": r["national_id"],
        "company_name": r["company_name"],
        "psc_kind": "individual" if person else "entity",
        "psc_name": None if person else r["holder_name"],
        "psc_country": r["holder_country"],
        "psc_national_id": r["holder_national_id"],
        "role": r["role"],
        "natures_of_control": list(r["natures_of_control"] or []),
        "share_pct_min": r["share_pct"],
        "voting_pct_min": r["voting_pct"],
        "notified_on": r["since"],
        "ceased_on": r["until"],
        "active": r["until"] is None,
    }


def csv_rows(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        r
        | {"natures_of_control": "; ".join(r["natures_of_control"]), "active": "yes" if r["active"] else "no"}
        for r in data["rows"]
    ]
