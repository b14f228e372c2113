"""`/ted/search` and `/ted/notice/{pub}` (spec 4.5): imported TED eForms notices."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from regintel.domain.identifiers import parse_country
from regintel.domain.names import normalise_name
from regintel.errors import NotFound, ValidationFailed
from regintel.ingest.sources.ted_eforms import INFO as TED

from . import cpv
from .queries import notices as queries
from .tables import ted_buyers, ted_winners

TED_NOTICE_URL = "https://ted.europa.eu/en/notice/-/detail/{pub}"
_PUB = re.compile(r"[0-9A-Za-z-]{1,64}")


def _num(value: Decimal | None) -> float | None:
    return float(value) if value is not None else None


def _day(value: date | None) -> str | None:
    return value.isoformat() if value else None


def link(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The `match` of a linked party (None when not linked)."""
    if row["company_id"] is None or row.get("company_national_id") is None:
        return None
    return {
        "method": row["match_method"],
        "score": row["match_score"],
        "company": {
            "country": row["company_country"],
            "nationalId": row["company_national_id"],
            "name": row["company_name"],
        },
    }


def _summary(row: Mapping[str, Any], buyers: list[str], winners: list[str]) -> dict[str, Any]:
    pub = row["publication_number"]
    return {
        "pub": pub or row["notice_id"],
        "noticeId": row["notice_id"],
        "publicationNumber": pub,
        "form": row["form"],
        "noticeType": row["notice_type"],
        "issueDate": row["issue_date"].isoformat(),
        "title": row["title"],
        "country": row["country"],
        "cpv": cpv.item(row["cpv_main"]),
        "value": _num(row["value"]),
        "currency": row["currency"],
        "buyers": buyers,
        "winners": winners,
        "link": TED_NOTICE_URL.format(pub=pub) if pub else None,
    }


def filters(
    conn: Connection,
    *,
    country: str | None,
    cpv_code: str | None,
    date_from: date | None,
    date_to: date | None,
    value_min: Decimal | None,
    value_max: Decimal | None,
    currency: str | None,
    buyer: str | None,
    winner: str | None,
) -> queries.TedFilters:
    """Validate the query: 422 naming the field for a bad country, CPV code, range or empty name."""
    if date_from and date_to and date_from > date_to:
        raise ValidationFailed(
            "`date_from` is after `date_to`",
            details=[{"field": "date_from", "in": "query", "message": "after date_to"}],
        )
    if value_min is not None and value_max is not None and value_min > value_max:
        raise ValidationFailed(
            "`value_min` is above `value_max`",
            details=[{"field": "value_min", "in": "query", "message": "above value_max"}],
        )
    return queries.TedFilters(
        country=parse_country(country) if country else None,
        cpv_prefix=cpv.prefix(cpv_code) if cpv_code else None,
        date_from=date_from,
        date_to=date_to,
        value_min=value_min,
        value_max=value_max,
        currency=currency.upper() if currency else None,
        buyer_name=_name(buyer, "buyer"),
        winner_name=_name(winner, "winner"),
    )


def _name(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    norm = normalise_name(value)
    if not norm:
        raise ValidationFailed(
            f"`{field}` has no letters or digits",
            details=[{"field": field, "in": "query", "message": "empty after normalising"}],
        )
    return norm


def search(
    conn: Connection, f: queries.TedFilters, page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    total, rows = queries.search_notices(conn, f, (page - 1) * per_page, per_page)
    pks = [int(r["id"]) for r in rows]
    names: dict[tuple[str, int], list[str]] = {}
    for kind, table in (("b", ted_buyers), ("w", ted_winners)):
        for p in queries.parties(conn, table, pks):
            bucket = names.setdefault((kind, int(p["notice_pk"])), [])
            if p["name"] not in bucket:
                bucket.append(p["name"])
    return total, [
        _summary(r, names.get(("b", int(r["id"])), []), names.get(("w", int(r["id"])), [])) for r in rows
    ]


def notice(conn: Connection, pub: str) -> dict[str, Any]:
    if not _PUB.fullmatch(pub):
        raise ValidationFailed(
            f"{pub!r} is not a TED publication number or notice id",
            details=[{"field": "pub", "in": "path", "message": "letters, digits and '-' only"}],
        )
    row = queries.find_notice(conn, pub)
    if row is None:
        raise NotFound(f"No TED notice {pub}")
    pk = int(row["id"])
    buyers = [_party(p) for p in queries.parties(conn, ted_buyers, [pk])]
    winners = [
        _party(p)
        | {
            "lot": p["lot_id"],
            "contractRef": p["contract_ref"],
            "contractTitle": p["contract_title"],
            "signedOn": _day(p["signed_on"]),
            "value": _num(p["value"]),
            "currency": p["currency"],
            "groupLead": p["group_lead"],
        }
        for p in queries.parties(conn, ted_winners, [pk])
    ]
    return _summary(row, [b["name"] for b in buyers], list(dict.fromkeys(w["name"] for w in winners))) | {
        "version": row["version"],
        "subtype": row["subtype"],
        "language": row["language"],
        "description": row["description"],
        "procedure": row["procedure"],
        "nature": row["nature"],
        "cpvCodes": [cpv.item(c) for c in queries.cpv_codes(conn, pk)],
        "estimatedValue": _num(row["estimated_value"]),
        "estimatedCurrency": row["estimated_currency"],
        "totalValue": _num(row["total_value"]),
        "totalCurrency": row["total_currency"],
        "buyerLegalType": row["buyer_legal_type"],
        "buyerParties": buyers,
        "lots": [
            {
                "id": lot["lot_id"],
                "title": lot["title"],
                "cpv": cpv.item(lot["cpv"]),
                "estimatedValue": _num(lot["estimated_value"]),
                "currency": lot["currency"],
            }
            for lot in queries.lots(conn, pk)
        ],
        "winnerParties": winners,
        "source": TED.id,
        "licence": TED.licence,
    }


def _party(p: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "ref": p["org_ref"],
        "name": p["name"],
        "nationalId": p["national_id"],
        "country": p["country"],
        "city": p["city"],
        "link": link(p),
    }
