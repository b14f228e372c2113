"""Use cases of the regulated area. Other areas may call:

- `regulated_activities(conn, company_id)` (and `regulated_activities_of(conn, ids)` for a batch):
  the company's current licences and authorisations as `RegulatedActivity` values (sector, category,
  NIS2 Annex I sector, DORA), for NIS2 scoping ("sector ... from regulated-activity registers", issue 19);
- `licensed_type_groups(conn, cond)`: companies grouped by the role of the professionals linked to them
  (the `licensed_type` breakdown of `/companies/stats/breakdown`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.db.company_filters import Conditions

from . import queries, rules

DORA_ORDER = ("yes", "possible", "unknown", "no")


@dataclass(frozen=True)
class RegulatedActivity:
    register: str  # source id
    country: str
    sector: str  # financial | energy | trust (trusted lists: no Annex sector, NIS2 reads a designation)
    category: str  # rules.FINANCIAL_CATEGORIES or rules.ENERGY_ACTIVITIES key
    licence_type: str  # as published
    nis2: rules.Nis2Sector | None
    dora: rules.Dora | None  # financial only


def _activity(r: Mapping[str, Any]) -> RegulatedActivity:
    return RegulatedActivity(
        r["source"],
        r["country"],
        r["sector"],
        r["category"],
        r["licence_type"],
        rules.nis2_sector(r["sector"], r["category"]),
        rules.dora(r["category"]) if r["sector"] == "financial" else None,
    )


def regulated_activities(conn: Connection, company_id: int) -> list[RegulatedActivity]:
    """The company's current (active) licences and authorisations from the supervisory registers."""
    return [_activity(r) for r in queries.active_authorisations(conn, company_id)]


def regulated_activities_of(
    conn: Connection, company_ids: Sequence[int]
) -> dict[int, list[RegulatedActivity]]:
    """`regulated_activities` for many companies at once (the NIS2 sweep); those without any are absent."""
    out: dict[int, list[RegulatedActivity]] = {}
    for r in queries.active_authorisations_of(conn, company_ids):
        out.setdefault(r["company_id"], []).append(_activity(r))
    return out


def _day(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _timestamp(value: datetime | None) -> str | None:
    """UTC with `Z` (SQLite hands timestamps back without their zone; they were written in UTC)."""
    if value is None:
        return None
    return (
        value.astimezone(UTC).isoformat().replace("+00:00", "Z") if value.tzinfo else value.isoformat() + "Z"
    )


def _source(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": row["source"],
        "licence": row["licence"],
        "attribution": row["attribution"],
        "retrievedAt": _timestamp(row["last_import_at"]),
    }


def _match(row: Mapping[str, Any]) -> dict[str, Any] | None:
    if row["match_method"] is None:
        return None
    return {"method": row["match_method"], "score": float(row["match_score"] or 0.0)}


def _nis2(sector: rules.Nis2Sector | None, dora: rules.Dora | None) -> dict[str, Any] | None:
    if sector is None:
        return None
    special = (
        "DORA applies instead of NIS2 Art. 20, 21, 23 and Chapter VII (NIS2 Art. 4(1), recital 28)"
        if dora is not None and dora.applies == "yes"
        else None
    )
    return {
        "annex": sector.annex,
        "sector": sector.sector,
        "subsector": sector.subsector,
        "lexSpecialis": special,
    }


def _sectors(items: list[dict[str, Any]]) -> list[str]:
    named = (
        " ".join(filter(None, (i["nis2"]["sector"], i["nis2"]["subsector"])))
        for i in items
        if i["status"] == "active" and i["nis2"]
    )
    return sorted(set(named))


def _authorisation(row: Mapping[str, Any]) -> dict[str, Any]:
    dora = rules.dora(row["category"])
    return {
        "country": row["country"],
        "name": row["name"],
        "nationalId": row["national_id"],
        "licenceType": row["licence_type"],
        "licenceNumber": row["licence_number"],
        "category": row["category"],
        "status": row["status"],
        "statusText": row["status_text"],
        "grantedOn": _day(row["granted_on"]),
        "endedOn": _day(row["ended_on"]),
        "dora": {"applies": dora.applies, "article": dora.article, "note": dora.note},
        "nis2": _nis2(rules.nis2_sector("financial", row["category"]), dora),
        "match": _match(row),
        "source": _source(row),
    }


def financial_supervision(conn: Connection, company: Mapping[str, Any]) -> dict[str, Any]:
    items = [_authorisation(r) for r in queries.authorisations(conn, int(company["id"]), "financial")]
    current = [i["dora"]["applies"] for i in items if i["status"] == "active"]
    dora = min(current, key=DORA_ORDER.index) if current else None
    return {
        "supervised": bool(current),
        "dora": dora,
        "nis2Sectors": _sectors(items),
        "authorisations": items,
    }


def _licence(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "country": row["country"],
        "name": row["name"],
        "nationalId": row["national_id"],
        "licenceNumber": row["licence_number"],
        "licenceType": row["licence_type"],
        "activity": row["category"],
        "status": row["status"],
        "statusText": row["status_text"],
        "grantedOn": _day(row["granted_on"]),
        "validUntil": _day(row["valid_until"]),
        "endedOn": _day(row["ended_on"]),
        "nis2": _nis2(rules.nis2_sector("energy", row["category"]), None),
        "match": _match(row),
        "source": _source(row),
    }


def energy_regulation(conn: Connection, company: Mapping[str, Any]) -> dict[str, Any]:
    items = [_licence(r) for r in queries.authorisations(conn, int(company["id"]), "energy")]
    activities = sorted({i["activity"] for i in items if i["status"] == "active"})
    return {
        "licensed": bool(activities),
        "activities": activities,
        "nis2Sectors": _sectors(items),
        "licences": items,
    }


def _role(row: Mapping[str, Any], personal: bool) -> dict[str, Any]:
    contact = (
        {"address": row["address"], "phone": row["phone"], "email": row["email"], "website": row["website"]}
        if personal
        else None
    )
    return {
        "role": row["role"],
        "name": row["name"],
        "title": row["title"],
        "registrationNumber": row["record_key"],
        "specialisation": row["specialisation"],
        "status": row["status"],
        "since": _day(row["since"]),
        "firm": {"name": row["firm_name"], "nationalId": row["firm_national_id"]},
        "contact": contact,
        "match": _match(row),
        "source": _source(row),
    }


def licensed_roles(
    conn: Connection, company: Mapping[str, Any], personal: bool, page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    """(total, one page by role and name) of the professionals practising through the company."""
    total, rows = queries.professionals(conn, int(company["id"]), (page - 1) * per_page, per_page)
    return total, [_role(r, personal) for r in rows]


def supervised_companies(conn: Connection, limit: int) -> list[dict[str, Any]]:
    """The `financial-supervision-companies` feed: companies with a current financial authorisation."""
    out: dict[int, dict[str, Any]] = {}
    for r in queries.supervised_companies(conn, limit):
        item = out.setdefault(
            int(r["id"]),
            {
                "country": r["country"],
                "national_id": r["national_id"],
                "name": r["name"],
                "categories": [],
                "registers": [],
                "dora": "no",
            },
        )
        for key, value in (("categories", r["category"]), ("registers", r["source"])):
            if value not in item[key]:
                item[key].append(value)
        item["dora"] = min(item["dora"], rules.dora(r["category"]).applies, key=DORA_ORDER.index)
    return [
        i | {"categories": ";".join(i["categories"]), "registers": ";".join(i["registers"])}
        for i in out.values()
    ]


def licensed_type_groups(conn: Connection, cond: Conditions) -> list[dict[str, Any]]:
    """Matching companies grouped by the role (lawyer, notary, ...) of the professionals linked to them; a
    company with professionals of two roles counts under both."""
    return queries.licensed_role_groups(conn, cond)
