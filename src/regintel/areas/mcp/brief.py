"""The agent company brief (spec 4.1): one compact answer an LLM can read and cite.

Built from the same pieces as the REST company record (`services.companies`), the change log, the
timeline's insolvency events and the code lists; nothing here is computed twice. Sections that need
data regintel has not imported (credit score, sanctions, NIS2) are listed in `notCovered` rather than
filled with a reassuring default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.mcp import queries
from regintel.domain import agent_brief as domain
from regintel.errors import NotFound
from regintel.services import code_lists
from regintel.services import companies as companies_svc
from regintel.services import timeline as timeline_svc
from regintel.services.people import PERSONAL

YEARS = 5
ROLES = 20
CHANGES = 5
INSOLVENCY_EVENTS = ("bankruptcy", "restructuring", "liquidation")
NOT_COVERED = ["creditScore", "sanctions", "nis2", "ultimateOwners"]


def company_brief(conn: Connection, row: Mapping[str, Any], *, personal: bool) -> dict[str, Any]:
    record = companies_svc.company_record(conn, row)
    history = [_figures(r) for r in queries.financial_history(conn, row["id"], YEARS)]
    found = domain.flags(record, history)
    people, people_total = queries.current_roles(conn, row["id"], ROLES)
    changes, _ = companies_svc.history(conn, row, cursor=None, limit=CHANGES, field=None)
    events, _ = timeline_svc.timeline(conn, row, cursor=None, limit=CHANGES, types=set(INSOLVENCY_EVENTS))
    return {
        "headline": domain.headline(record, history, found),
        "identity": _identity(conn, record),
        "status": {"status": record["status"], "inBankruptcy": record["inBankruptcy"],
                   "inRestructuring": record["inRestructuring"], "inLiquidation": record["inLiquidation"],
                   "foundedOn": record["foundedOn"], "dissolvedOn": record["dissolvedOn"]},
        "keyFigures": {"latest": history[0] if history else None, "revenueChangePct": domain.revenue_change(history),
                       "history": history},
        "flags": found,
        "people": {"total": people_total, "items": [_role(r, personal) for r in people],
                   "personalFields": personal},
        "insolvencyEvents": [{k: e.get(k) for k in ("event_type", "phase", "date", "title", "court", "case_number",
                                                     "link", "source")} for e in events],
        "recentChanges": changes,
        "sources": record["sources"],
        "dataAsOf": companies_svc.data_as_of(record),
        "notCovered": NOT_COVERED,
    }


def _identity(conn: Connection, record: Mapping[str, Any]) -> dict[str, Any]:
    nace = record["nace"]["primary"]
    return {"country": record["country"], "nationalId": record["nationalId"], "name": record["name"],
            "legalForm": record["legalForm"], "address": record["address"]["text"] or _address(record["address"]),
            "nace": {"code": nace, "label": _nace_label(conn, nace)}, "sizeClass": record["sizeClass"],
            "employees": record["employees"], "vatId": record["vatId"], "taxId": record["taxId"],
            "lei": record["lei"], "identifiers": record["identifiers"]}


def _address(address: Mapping[str, Any]) -> str | None:
    parts = [address.get("street"), " ".join(p for p in (address.get("postalCode"), address.get("city")) if p)]
    return ", ".join(p for p in parts if p) or None


def _nace_label(conn: Connection, code: str | None) -> str | None:
    for candidate in domain.nace_code_candidates(code):
        try:
            return code_lists.get_item(conn, "nace", candidate).name_en
        except NotFound:
            continue
    return None


def _figures(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"year": row["year"], "currency": row["currency"], "revenue": row["revenue"], "profit": row["profit"],
            "totalAssets": row["total_assets"], "equity": row["equity"], "liabilities": row["liabilities"],
            "employees": row["employees"], "source": row["source"]}


def _role(row: Mapping[str, Any], personal: bool) -> dict[str, Any]:
    is_person = row["person_id"] is not None
    out: dict[str, Any] = {"role": row["role"], "name": row["holder_name"], "title": row["title"],
                           "holderType": "person" if is_person else "company" if row["holder_country"] else "other",
                           "sharePct": row["share_pct"], "votingPct": row["voting_pct"], "since": row["since"],
                           "source": row["source"]}
    if is_person:
        out["personKey"] = row["person_key"]
        if personal:
            out.update({api: row[col] for api, col in PERSONAL})
    elif row["holder_country"]:
        out["company"] = {"country": row["holder_country"], "nationalId": row["holder_national_id"]}
    return out
