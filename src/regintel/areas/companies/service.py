"""The companies area's use cases, shared by the API, MCP and the other areas: resolve a key (422
malformed, 404 unknown, 409 ambiguous), build the public record (`schemas.Company`), the change log.
Other areas call `resolve_ico`, `get_company_row`, `company_record`, `data_as_of` and the cursors."""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.companies import views
from regintel.areas.companies.schemas import Change, Company, CompanySource, LatestFinancials
from regintel.db import companies as db
from regintel.domain import identifiers
from regintel.domain.identifiers import NATIONAL_IDS, parse_country, parse_national_id
from regintel.errors import AmbiguousIdentifier, InvalidIdentifier, NotFound, ValidationFailed

DEFAULT_COUNTRY = "SK"


def get_company_row(conn: Connection, country: str, national_id: str) -> Mapping[str, Any]:
    """The company row for a country and national id; 422 for a malformed id, 404 when unknown."""
    country = parse_country(country)
    nid = parse_national_id(country, national_id)
    row = db.find_company(conn, country, nid)
    if row is None:
        raise NotFound(f"No company {country} {nid}")
    return row


def resolve_ico(conn: Connection, ico: str, country: str | None) -> Mapping[str, Any]:
    """`/companies/{ico}`: with a country, that country's company. Without one, the identifier is
    looked up in every country where it is well-formed (SK first, the spec's default): one match
    answers, several answer 409 AMBIGUOUS_IDENTIFIER with the candidates."""
    if country:
        return get_company_row(conn, country, ico)
    forms = national_id_candidates(ico)
    rows = [
        r
        for r in db.list_by_national_id(conn, sorted(set(forms.values())))
        if forms.get(r["country"]) == r["national_id"]
    ]
    if not rows:
        national_id_forms(ico)  # 422 when the identifier is well-formed nowhere
        raise NotFound(f"No company with national identifier {ico}")
    if len(rows) > 1:
        raise AmbiguousIdentifier(
            f"{ico} identifies companies in {len(rows)} countries; add ?country=",
            details={
                "candidates": [
                    {"country": r["country"], "nationalId": r["national_id"], "name": r["name"]} for r in rows
                ]
            },
        )
    # A dict, as the country path's prepared statement answers (db.prepared).
    return dict(rows[0])


def national_id_candidates(ico: str) -> dict[str, str]:
    """`domain.identifiers.national_id_candidates`, SK (the default) first as in `national_id_forms`:
    the forms to look up before any check digit is computed (a stored register number was checked
    when it was loaded)."""
    forms = identifiers.national_id_candidates(ico)
    return {cc: forms[cc] for cc in [DEFAULT_COUNTRY, *sorted(set(forms) - {DEFAULT_COUNTRY})] if cc in forms}


def national_id_forms(ico: str) -> dict[str, str]:
    """The canonical form of `ico` in every country where it is well-formed, SK (the default) first;
    `InvalidIdentifier` when it is well-formed nowhere."""
    forms: dict[str, str] = {}
    for cc in [DEFAULT_COUNTRY, *sorted(set(NATIONAL_IDS) - {DEFAULT_COUNTRY})]:
        try:
            forms[cc] = parse_national_id(cc, ico)
        except InvalidIdentifier:
            continue
    if not forms:
        raise InvalidIdentifier(f"{ico!r} is not a valid national identifier in any supported country")
    return forms


def company_record(conn: Connection, row: Mapping[str, Any]) -> Company:
    """The public company record (camelCase, as the spec's `inBankruptcy` fields): the one place a
    `Company` is built, from the summary's core fields (`views.core`) and its sections."""
    fin, sources, ids = db.record_parts(conn, row["id"])
    return {
        **views.core(row),
        "nace": {"primary": row["nace_primary"], "codes": row["nace_codes"] or []},
        "identifiers": [{"type": i["type"], "value": i["value"], "source": i["source"]} for i in ids],
        "latestFinancials": _financials(fin) if fin else None,
        "sources": [_source(s) for s in sources],
        "updatedAt": row["updated_at"],
    }


def data_as_of(record: Company) -> Any:
    seen = [s["retrievedAt"] for s in record["sources"] if s["retrievedAt"] is not None]
    return max(seen) if seen else record["updatedAt"]


def _financials(row: Mapping[str, Any]) -> LatestFinancials:
    return {
        "year": row["year"],
        "currency": row["currency"],
        "periodFrom": row["period_from"],
        "periodTo": row["period_to"],
        "revenue": row["revenue"],
        "profit": row["profit"],
        "totalAssets": row["total_assets"],
        "equity": row["equity"],
        "liabilities": row["liabilities"],
        "employees": row["employees"],
        "source": row["source"],
    }


def _source(row: Mapping[str, Any]) -> CompanySource:
    return {
        "id": row["source"],
        "name": row["name"],
        "publisher": row["publisher"],
        "licence": row["licence"],
        "attribution": row["attribution"],
        "url": row["url"],
        "sourceRecordId": row["source_record_id"],
        "publishedOn": row["published_on"],
        "retrievedAt": row["last_seen"],
        "firstSeen": row["first_seen"],
    }


def encode_cursor(value: int) -> str:
    return base64.urlsafe_b64encode(f"c:{value}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> int | None:
    if not cursor:
        return None
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, value = text.split(":", 1)
        if kind != "c":
            raise ValueError(kind)
        return int(value)
    except (ValueError, UnicodeDecodeError):
        raise ValidationFailed(
            "Malformed cursor",
            details=[{"field": "cursor", "in": "query", "message": "not a cursor from this API"}],
        ) from None


def history(
    conn: Connection, row: Mapping[str, Any], *, cursor: str | None, limit: int, field: str | None
) -> tuple[list[Change], str | None]:
    """Change-log entries of a company, newest first; returns (items, next cursor)."""
    rows = db.list_changes(conn, row["id"], before_id=decode_cursor(cursor), limit=limit + 1, field=field)
    items: list[Change] = [
        {
            "id": r["id"],
            "field": r["field"],
            "from": r["old_value"],
            "to": r["new_value"],
            "source": r["source"],
            "detectedAt": r["detected_at"],
        }
        for r in rows[:limit]
    ]
    return items, encode_cursor(rows[limit - 1]["id"]) if len(rows) > limit else None
