"""A company's public contracts, supplier side (spec 4.4 `/companies/{ico}/contracts`), and the same
contracts as `contract` events of its timeline (spec 2.3).

Other areas may call `company_contracts`, `timeline_events` and `supplier_totals` (the pages area's
public-contracts ranking aggregates it server-side)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import Select
from sqlalchemy.engine import Connection

from regintel.domain.timeline import event

from .loading import TED_SOURCES
from .queries import contracts as queries

# On one day a contract sorts after the timeline's own kinds (domain.timeline._RANK runs 0-3), so its key
# never equals another event's and keyset pages stay exact.
CONTRACT_RANK = 4
MAX_TIMELINE_CONTRACTS = 5_000


def _num(value: Any) -> float | None:
    return float(value) if value is not None else None


def contract(row: Mapping[str, Any], company: Mapping[str, Any]) -> dict[str, Any]:
    match = None
    if row["company_id"] is not None or row["match_method"] is not None:
        match = {
            "method": row["match_method"] or "identifier",
            "score": row["match_score"] or 1.0,
            "company": {
                "country": company["country"],
                "nationalId": company["national_id"],
                "name": company["name"],
            },
        }
    elif row["party_national_id"] == company["national_id"]:
        match = {
            "method": "identifier",
            "score": 1.0,
            "company": {
                "country": company["country"],
                "nationalId": company["national_id"],
                "name": company["name"],
            },
        }
    return {
        "id": int(row["id"]),
        "source": row["source"],
        "role": row["role"],
        "title": row["title"],
        "buyer": {
            "name": row["buyer_name"],
            "nationalId": row["buyer_national_id"],
            "country": row["buyer_country"],
        },
        "value": _num(row["value"]),
        "currency": row["currency"],
        "valueBasis": row["value_basis"],
        "signedOn": row["signed_on"].isoformat() if row["signed_on"] else None,
        "publishedOn": row["published_on"].isoformat() if row["published_on"] else None,
        "link": row["link"],
        "notice": row["record_key"] if row["source"] in TED_SOURCES else None,
        "match": match,
    }


def company_contracts(
    conn: Connection, company: Mapping[str, Any], page: int, per_page: int
) -> tuple[int, list[dict[str, Any]]]:
    """(total, one page newest first) of the contracts where the company supplies or is the counterparty."""
    total, rows = queries.company_contracts(conn, company, (page - 1) * per_page, per_page)
    return total, [contract(r, company) for r in rows]


def timeline_events(conn: Connection, company: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The company's contracts as timeline events (dated by signature, else publication)."""
    out = []
    for row in queries.all_company_contracts(conn, company, MAX_TIMELINE_CONTRACTS):
        day = row["signed_on"] or row["published_on"]
        if day is None:
            continue
        value = f", {_num(row['value']):,.2f} {row['currency']}" if row["value"] is not None else ""
        out.append(
            event(
                (day.isoformat(), CONTRACT_RANK, int(row["id"])),
                id=f"contract:{row['id']}",
                event_type="contract",
                date=day,
                date_kind="effective",
                source=row["source"],
                title=f"Contract: {row['title'] or 'untitled'}",
                summary=f"{row['role'].capitalize()} to {row['buyer_name'] or 'an unnamed buyer'}{value}",
                link=row["link"],
                published_on=row["published_on"],
            )
        )
    return out


def supplier_totals(now: datetime) -> Select[tuple[Any, ...]]:
    """The statement of every supplier company's contract totals per currency (`queries.supplier_totals`),
    for a caller that stores them in one INSERT ... SELECT."""
    return queries.supplier_totals(now)
