"""Use cases of the legal-records area: Slovak court decisions (spec 4.5 `/justice/*`) and a company's
antitrust cases, integrated permits, Czech collection-of-laws entries and located points (spec 4.4).
Other areas may call `company_sections` (counts of each section for one company)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.domain.identifiers import parse_national_id
from regintel.domain.names import fold, normalise_address, tokens
from regintel.errors import NotFound, ValidationFailed

from . import queries
from .queries import DecisionFilters, Row

SECTION_LIMIT = 1_000  # the most records one company section answers


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _num(value: Any) -> float | None:
    return float(value) if value is not None else None


def _match(
    row: Row, company: Mapping[str, Any] | None = None, national_id: str | None = None
) -> dict[str, Any] | None:
    """The party's link; `company` when the caller knows the row is the company's (a company section):
    linked to it, or naming its national id (`national_id`, the row's) before the company was imported."""
    if company is not None:
        ref = {"country": company["country"], "nationalId": company["national_id"], "name": company["name"]}
        if row["company_id"] == company["id"] and row["match_method"] is not None:
            return {"method": row["match_method"], "score": float(row["match_score"]), "company": ref}
        return (
            {"method": "identifier", "score": 1.0, "company": ref}
            if national_id == company["national_id"]
            else None
        )
    if row["company_id"] is None or row["match_method"] is None:
        return None
    ref = {
        "country": row["company_country"],
        "nationalId": row["company_national_id"],
        "name": row["company_name"],
    }
    return {"method": row["match_method"], "score": float(row["match_score"]), "company": ref}


def _party(row: Row) -> dict[str, Any]:
    return {"name": row["name"], "nationalId": row["national_id"], "role": row["role"], "match": _match(row)}


def _sources(row: Row, catalogue: Mapping[str, Row]) -> list[dict[str, Any]]:
    entry = catalogue.get(row["source"])
    return [
        {
            "source": row["source"],
            "licence": entry["licence"] if entry else None,
            "attribution": entry["attribution"] if entry else None,
            "importedAt": _utc(row["imported_at"]),
        }
    ]


def _utc(value: datetime) -> str:
    """SQLite gives the stored UTC time back without its zone; PostgreSQL with it."""
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value.isoformat().replace("+00:00", "Z")


# -- court decisions ---------------------------------------------------------------------------------


def decision_filters(
    conn: Connection,
    ico: str | None,
    court: str | None,
    date_from: date | None,
    date_to: date | None,
    q: str | None,
) -> DecisionFilters:
    """Parsed filters: `ico` must be a well-formed Slovak IČO (422 otherwise); it matches the parties that
    publish it and the parties linked to the company holding it. `q` is matched as folded words (the same
    tokens `search_text` was written with), so punctuation and diacritics do not matter."""
    national_id = company_id = None
    if ico is not None:
        national_id = parse_national_id("SK", ico)
        company_id = queries.company_id(conn, "SK", national_id)
    text = " ".join(tokens(q)) if q is not None else None
    if q is not None and not text:
        raise ValidationFailed(
            "q has no letters or digits to search for",
            details=[{"field": "q", "in": "query", "message": "needs a word"}],
        )
    court = " ".join((court or "").split())
    return DecisionFilters(
        national_id=national_id,
        company_id=company_id,
        court_id=court or None,
        court_text=fold(court) or None,
        date_from=date_from,
        date_to=date_to,
        text=text or None,
    )


def _decision(row: Row, parties: Sequence[Row]) -> dict[str, Any]:
    return {
        "guid": row["guid"],
        "court": {"id": row["court_id"], "name": row["court_name"]},
        "fileRef": row["file_ref"],
        "ecli": row["ecli"],
        "decidedOn": _iso(row["decided_on"]),
        "form": row["form"],
        "nature": row["nature"],
        "area": row["area"],
        "subarea": row["subarea"],
        "documentUrl": row["document_url"],
        "parties": [_party(p) for p in parties],
    }


def search_decisions(
    conn: Connection, f: DecisionFilters, page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    """(total, one page newest first)."""
    total, rows = queries.decisions(conn, f, (page - 1) * per_page, per_page)
    parties = queries.decision_parties(conn, [int(r["id"]) for r in rows])
    return total, [_decision(r, parties[int(r["id"])]) for r in rows]


def decision_detail(conn: Connection, guid: str) -> dict[str, Any]:
    row = queries.decision(conn, guid)
    if row is None:
        raise NotFound(f"No court decision with guid {guid!r}")
    parties = queries.decision_parties(conn, [int(row["id"])])[int(row["id"])]
    return _decision(row, parties) | {
        "judge": row["judge"],
        "identifier": row["identifier"],
        "regulations": list(row["regulations"] or []),
        "sources": _sources(row, queries.catalogue(conn, [row["source"]])),
    }


# -- company sections --------------------------------------------------------------------------------


def amo_cases(conn: Connection, company: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = queries.company_cases(conn, company, SECTION_LIMIT)
    parties = queries.case_parties(conn, [int(r["id"]) for r in rows])
    catalogue = queries.catalogue(conn, [r["source"] for r in rows])
    return [
        {
            "caseRef": r["case_ref"],
            "kind": r["kind"],
            "title": r["title"],
            "decidedOn": _iso(r["decided_on"]),
            "finalOn": _iso(r["final_on"]),
            "verdict": r["verdict"],
            "fine": _num(r["fine"]),
            "currency": r["currency"],
            "link": r["link"],
            "rulings": [
                {
                    "instance": x["instance"],
                    "decidedOn": x.get("decided_on"),
                    "outcome": x["outcome"],
                    "reference": x.get("reference"),
                }
                for x in r["rulings"] or []
            ],
            "parties": [_party(p) for p in parties[int(r["id"])]],
            "sources": _sources(r, catalogue),
        }
        for r in rows
    ]


def _permit(value: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "number": value["number"],
        "kind": value.get("kind"),
        "issuedOn": value.get("issued_on"),
        "finalOn": value.get("final_on"),
        "link": value.get("link"),
    }


def environmental(conn: Connection, company: Mapping[str, Any]) -> dict[str, Any]:
    rows = queries.company_installations(conn, company, SECTION_LIMIT)
    catalogue = queries.catalogue(conn, [r["source"] for r in rows])
    items = [
        {
            "installationId": r["installation_id"],
            "name": r["name"],
            "operator": {
                "name": r["operator_name"],
                "nationalId": r["operator_national_id"],
                "role": "operator",
                "match": _match(r, company, r["operator_national_id"]),
            },
            "address": r["address"],
            "municipality": r["municipality"],
            "activityCode": r["activity_code"],
            "activity": r["activity"],
            "latitude": r["latitude"],
            "longitude": r["longitude"],
            "inspections": r["inspections"],
            "inspectionsWithFindings": r["inspections_with_findings"],
            "lastInspectionOn": _iso(r["last_inspection_on"]),
            "permits": [_permit(p) for p in r["permits"] or []],
            "link": r["link"],
            "sources": _sources(r, catalogue),
        }
        for r in rows
    ]
    totals = {
        "installations": len(items),
        "permits": sum(len(i["permits"]) for i in items),
        "inspections": sum(i["inspections"] for i in items),
        "inspectionsWithFindings": sum(i["inspectionsWithFindings"] for i in items),
    }
    return {"installations": items, "totals": totals}


def cz_sbirka(conn: Connection, company: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = queries.company_acts(conn, company, SECTION_LIMIT)
    catalogue = queries.catalogue(conn, [r["source"] for r in rows])
    return [
        {
            "iri": r["iri"],
            "number": r["number"],
            "year": r["year"],
            "citation": f"{r['number']}/{r['year']} Sb.",
            "type": r["act_type"],
            "title": r["title"],
            "promulgatedOn": _iso(r["promulgated_on"]),
            "effectiveOn": _iso(r["effective_on"]),
            "link": r["link"],
            "nameAsWritten": r["mention_name"],
            "excerpt": r["excerpt"],
            "match": _match(r, company, r["mention_national_id"]),
            "sources": _sources(r, catalogue),
        }
        for r in rows
    ]


def _registered(company: Mapping[str, Any]) -> dict[str, Any] | None:
    parts = [company.get("street"), " ".join(filter(None, [company.get("postal_code"), company.get("city")]))]
    address = company.get("address_text") or ", ".join(p for p in parts if p) or None
    if address is None:
        return None
    return {
        "kind": "registered_address",
        "label": company["name"],
        "address": address,
        "latitude": None,
        "longitude": None,
        "source": "register",
        "reference": company["national_id"],
        "match": "identifier",
        "matchScore": 1.0,
    }


def _point_match(row: Row, company: Mapping[str, Any], national_id: str | None) -> dict[str, Any]:
    found = _match(row, company, national_id) or {"method": "identifier", "score": 1.0}
    return {"match": found["method"], "matchScore": found["score"]}


def locations(conn: Connection, company: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The registered address, then the IPKZ installations (with the register's coordinates), then the
    addresses antitrust decisions give. Coordinates only where the source has them."""
    registered = _registered(company)
    out = [registered] if registered else []
    installations = queries.company_installations(conn, company, SECTION_LIMIT)
    out += [
        {
            "kind": "ipkz_installation",
            "label": r["name"],
            "address": ", ".join(filter(None, [r["address"], r["municipality"]])) or None,
            "latitude": r["latitude"],
            "longitude": r["longitude"],
            "source": r["source"],
            "reference": r["installation_id"],
            **_point_match(r, company, r["operator_national_id"]),
        }
        for r in installations
    ]
    # An address already listed (the seat as an antitrust decision writes it) is not a point of its own.
    seen = {
        normalise_address(a)
        for a in [registered and registered["address"], *(r["address"] for r in installations)]
        if a
    }
    for r in queries.company_party_addresses(conn, company, SECTION_LIMIT):
        if normalise_address(r["address"]) in seen:
            continue
        seen.add(normalise_address(r["address"]))
        out.append(
            {
                "kind": "antitrust_party_address",
                "label": r["name"],
                "address": r["address"],
                "latitude": None,
                "longitude": None,
                "source": r["source"],
                "reference": r["case_ref"],
                **_point_match(r, company, r["national_id"]),
            }
        )
    return out


# -- public statistics feeds -------------------------------------------------------------------------

AMO_COLUMNS = (
    "case_ref",
    "kind",
    "title",
    "decided_on",
    "final_on",
    "fine",
    "currency",
    "country",
    "national_id",
    "name",
    "parties",
    "link",
)
IPKZ_COLUMNS = (
    "country",
    "national_id",
    "name",
    "installations",
    "inspections",
    "inspections_with_findings",
    "last_inspection_on",
)


def amo_feed(conn: Connection, limit: int) -> list[dict[str, Any]]:
    return [
        {
            k: (_iso(r[k]) if k in ("decided_on", "final_on") else _num(r[k]) if k == "fine" else r[k])
            for k in AMO_COLUMNS
        }
        for r in queries.recent_cases(conn, limit)
    ]


def ipkz_feed(conn: Connection, limit: int) -> list[dict[str, Any]]:
    return [
        {
            k: (
                _iso(r[k])
                if k == "last_inspection_on"
                else int(r[k])
                if k in ("installations", "inspections", "inspections_with_findings")
                else r[k]
            )
            for k in IPKZ_COLUMNS
        }
        for r in queries.ipkz_companies(conn, limit)
    ]
