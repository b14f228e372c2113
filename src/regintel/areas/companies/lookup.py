"""Exact lookups (spec 4.4): by any identifier, by LEI (the record of spec 2.4) and in bulk.

Each answers from one or two indexed queries whatever the number of identifiers asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection, RowMapping

from regintel.areas.companies.schemas import BulkAnswer, LeiFields, LeiRecord, MatchedCompany
from regintel.areas.companies.service import national_id_candidates, national_id_forms
from regintel.areas.companies.views import candidate, summary
from regintel.db import lookup as db
from regintel.domain.identifiers import parse_country, parse_identifier, parse_lei, parse_national_id
from regintel.domain.rows import Row
from regintel.errors import InvalidIdentifier, NotFound

GLEIF_RECORD = "https://search.gleif.org/#/record/{lei}"
# Stored identifier types each query type is looked up under: the loader files a Slovak VAT id as
# `ic_dph` and every other VAT id as `vat`, so either name finds both.
SEARCHED_TYPES = {"vat": ("vat", "ic_dph"), "ic_dph": ("ic_dph", "vat")}
MAX_MATCHES = 100


def by_identifier(conn: Connection, kind: str, value: str, country: str | None) -> list[MatchedCompany]:
    """Every company holding the identifier (validated first: 422 for a malformed one), with what matched."""
    cc = parse_country(country) if country else None
    if kind == "ico":
        return _by_national_id(conn, value, cc)
    canonical = parse_identifier(kind, value.upper() if kind == "lei" else value, cc)
    values = [canonical, "CZ" + canonical] if kind == "dic" else [canonical]
    rows = db.companies_by_identifier(conn, SEARCHED_TYPES.get(kind, (kind,)), values, cc, MAX_MATCHES)
    return [
        _matched(r, {"type": r["matched_type"], "value": r["matched_value"], "source": r["matched_source"]})
        for r in rows
    ]


def _matched(row: Row, matched_by: Mapping[str, Any]) -> MatchedCompany:
    return {
        **summary(row),
        "matchedBy": {
            "type": matched_by["type"],
            "value": matched_by["value"],
            "source": matched_by["source"],
        },
    }


def _by_national_id(conn: Connection, value: str, country: str | None) -> list[MatchedCompany]:
    """`ico` is the national identifier of any country (spec 4.4): all companies whose register number
    it is, in `country` or in every country where it is well-formed, from one query."""
    forms = {country: parse_national_id(country, value)} if country else national_id_candidates(value)
    rows = [
        r
        for r in db.companies_by_national_ids(conn, forms.values())
        if forms.get(r["country"]) == r["national_id"]
    ]
    if not rows and not country:
        national_id_forms(value)  # 422 when the value is well-formed nowhere
    return [
        _matched(r, {"type": "ico", "value": r["national_id"], "source": r["source"]})
        for r in rows[:MAX_MATCHES]
    ]


def by_lei(conn: Connection, lei: str) -> LeiRecord:
    """The LEI record of spec 2.4 from GLEIF's record and the local company it is linked to."""
    code = parse_lei((lei or "").strip().upper())  # ISO 17442 letters are upper case; accept any
    row = db.lei_with_company(conn, code)
    if row is None:
        row = db.company_by_lei(conn, code)
        if row is None:
            raise NotFound(f"No entity with LEI {code}")
    return lei_record(code, row, conn)


def lei_record(code: str, row: Mapping[str, Any], conn: Connection | None = None) -> LeiRecord:
    has_company = row.get("id") is not None
    company = summary(row) if has_company else None
    # The compliance fields come from the compliance area (docs/compliance.md, "LEI record"); without a
    # local company (or a connection) nothing can be computed and they say "unknown" (null).
    fields: LeiFields = {
        "taxReliability": "unknown",
        "creditGrade": None,
        "nis2InScope": None,
        "flags": {"isSanctioned": None, "hasTaxDebt": None},
    }
    if has_company and conn is not None:
        from regintel.areas.compliance.service import lei_fields

        fields = lei_fields(conn, row)
    return {
        "lei": code,
        "ico": row["national_id"],
        "country": row["country"] or row.get("lr_country"),
        "name": row["name"] if row["name"] is not None else row["lr_legal_name"],
        "legalName": row.get("lr_legal_name"),
        "legalForm": row["legal_form_name"] or row.get("lr_legal_form_name") or row.get("lr_legal_form"),
        "taxReliability": fields["taxReliability"],
        "creditGrade": fields["creditGrade"],
        "nis2InScope": fields["nis2InScope"],
        "flags": fields["flags"],
        "gleifUrl": GLEIF_RECORD.format(lei=code),
        "registrationStatus": row.get("lr_registration_status"),
        "entityStatus": row.get("lr_entity_status"),
        "nextRenewal": row.get("lr_next_renewal"),
        "gleifLastUpdate": row.get("lr_last_update"),
        "status": row["status"],
        "inBankruptcy": company["inBankruptcy"] if company else None,
        "inRestructuring": company["inRestructuring"] if company else None,
        "inLiquidation": company["inLiquidation"] if company else None,
        "company": company,
    }


# -- bulk ------------------------------------------------------------------------------------------


@dataclass
class BulkItem:
    index: int
    input: Any
    forms: dict[str, str] = field(default_factory=dict)
    error: str | None = None
    checked: bool = True  # False: `forms` are unchecked candidates of `value` (see `national_id_candidates`)
    value: str = ""


def parse_bulk_item(index: int, item: Any, default_country: str | None) -> BulkItem:
    """One entry of the list: a national id (string or number) or `{"country", "id"}`; a bad entry
    is reported on its own, never by failing the call."""
    out = BulkItem(index, item)
    country, value = default_country, item
    if isinstance(item, dict):
        unknown = sorted(set(item) - {"country", "id"})
        if unknown or not isinstance(item.get("id"), (str, int)) or isinstance(item.get("id"), bool):
            out.error = (
                ("unknown field(s) " + ", ".join(unknown)) if unknown else "`id` (a string) is required"
            )
            return out
        country, value = item.get("country") or default_country, item["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        out.error = 'an identifier is a string or an object {"country", "id"}'
        return out
    try:
        if country is not None:
            if not isinstance(country, str):
                raise InvalidIdentifier("`country` must be an ISO 3166-1 alpha-2 code")
            cc = parse_country(country)
            out.forms = {cc: parse_national_id(cc, str(value))}
        else:
            out.forms, out.checked, out.value = national_id_candidates(str(value)), False, str(value)
    except InvalidIdentifier as exc:
        out.error = exc.message
    return out


def _check_unmatched(item: BulkItem, by_key: Mapping[tuple[str, str], Any]) -> BulkItem:
    """A bare identifier that matched no candidate form: validate it now, so that the answer says
    `invalid` (with the reason) or `not_found` in the countries where it is well-formed."""
    if item.checked or item.error is not None or any(k in by_key for k in item.forms.items()):
        return item
    try:
        item.forms = national_id_forms(item.value)
    except InvalidIdentifier as exc:
        item.error = exc.message
    item.checked = True
    return item


def bulk(conn: Connection, items: list[Any], default_country: str | None) -> list[BulkAnswer]:
    """Answer every entry in input order, from one query for all of them."""
    cc = parse_country(default_country) if default_country else None
    parsed = [parse_bulk_item(i, item, cc) for i, item in enumerate(items)]
    rows = db.companies_by_national_ids(conn, {v for p in parsed for v in p.forms.values()})
    by_key = {(r["country"], r["national_id"]): r for r in rows}
    return [_bulk_answer(_check_unmatched(p, by_key), by_key) for p in parsed]


def _bulk_answer(item: BulkItem, by_key: Mapping[tuple[str, str], RowMapping]) -> BulkAnswer:
    at, given = item.index, item.input
    if item.error is not None:
        return {"index": at, "input": given, "status": "invalid", "reason": item.error}
    found = [by_key[k] for k in item.forms.items() if k in by_key]
    if not found:
        where = ", ".join(item.forms)
        reason = f"no company with this identifier in {where}"
        return {"index": at, "input": given, "status": "not_found", "reason": reason}
    if len(found) > 1:
        return {
            "index": at,
            "input": given,
            "status": "ambiguous",
            "reason": f"found in {len(found)} countries; give `country`",
            "candidates": [candidate(r) for r in found],
        }
    return {"index": at, "input": given, "status": "found", "company": summary(found[0])}
