"""The agent company brief (spec 4.1): one compact answer an LLM can read and cite.

Built from the same pieces as the REST company record (`areas.companies.service`), the change log, the
timeline's insolvency events and the code lists, and from the areas' own service functions for the credit
grade, sanctions and NIS2 items of the compliance summary and the ultimate owner (`areas.compliance`,
`areas.ownership`); nothing here is computed twice. A section whose answer is unknown (no sanctions list
imported, no statement to grade, …) says so with its `reason` and is named in `notCovered`, never filled
with a reassuring default."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.catalogue import code_lists
from regintel.areas.companies import service as companies_svc
from regintel.areas.companies import timeline as timeline_svc
from regintel.areas.compliance import service as compliance_svc
from regintel.areas.mcp import queries
from regintel.areas.ownership import ultimate as ultimate_svc
from regintel.areas.ownership.entities import Ctx
from regintel.areas.people.service import PERSONAL
from regintel.domain import agent_brief as domain
from regintel.errors import NotFound

YEARS = 5
ROLES = 20
CHANGES = 5
INSOLVENCY_EVENTS = ("bankruptcy", "restructuring", "liquidation")
UBO_DEPTH, UBO_PATHS = 10, 500


def company_brief(conn: Connection, row: Mapping[str, Any], *, personal: bool) -> dict[str, Any]:
    record = companies_svc.company_record(conn, row)
    history = [_figures(r) for r in queries.financial_history(conn, row["id"], YEARS)]
    found = domain.flags(record, history)
    people, people_total = queries.current_roles(conn, row["id"], ROLES)
    changes, _ = companies_svc.history(conn, row, cursor=None, limit=CHANGES, field=None)
    events, _ = timeline_svc.timeline(conn, row, cursor=None, limit=CHANGES, types=set(INSOLVENCY_EVENTS))
    assessed = {
        "creditScore": compliance_svc.credit_grade(conn, row),
        "sanctions": compliance_svc.sanctions(conn, row),
        "nis2": compliance_svc.nis2_scope(conn, row),
        "ultimateOwners": _owners(conn, row, personal),
    }
    return {
        "headline": domain.headline(record, history, found),
        "identity": _identity(conn, record),
        "status": {
            "status": record["status"],
            "inBankruptcy": record["inBankruptcy"],
            "inRestructuring": record["inRestructuring"],
            "inLiquidation": record["inLiquidation"],
            "foundedOn": record["foundedOn"],
            "dissolvedOn": record["dissolvedOn"],
        },
        "keyFigures": {
            "latest": history[0] if history else None,
            "revenueChangePct": domain.revenue_change(history),
            "history": history,
        },
        "flags": found,
        "people": {
            "total": people_total,
            "items": [_role(r, personal) for r in people],
            "personalFields": personal,
        },
        "insolvencyEvents": [
            {
                k: e.get(k)
                for k in ("event_type", "phase", "date", "title", "court", "case_number", "link", "source")
            }
            for e in events
        ],
        "recentChanges": changes,
        "sources": record["sources"],
        "dataAsOf": companies_svc.data_as_of(record),
        **assessed,
        "notCovered": [name for name, item in assessed.items() if item["status"] == "unknown"],
    }


def _owners(conn: Connection, row: Mapping[str, Any], personal: bool) -> dict[str, Any]:
    """The ultimate owner in the compliance summary's item shape, with the owners' names."""
    r = ultimate_svc.ultimate_owner(Ctx(conn, personal), row, UBO_DEPTH, UBO_PATHS)

    def named(ids: list[str]) -> list[dict[str, Any]]:
        return [r.entities[i].model_dump(mode="json", exclude_none=True) for i in ids if i in r.entities]

    value = {
        "beneficialOwners25": named(r.beneficialOwners25),
        "control50": named(r.beneficialOwners50),
        "undetermined": named(r.undetermined),
        "truncated": r.truncated,
    }
    reason = (
        None
        if r.ownerKnown
        else (
            "; ".join(u.message for u in r.unknownReasons)
            or "no natural person is known to hold more than 25%"
        )
    )
    return {
        "status": "known" if r.ownerKnown else "unknown",
        "value": value,
        "source": "ownership",
        "reason": reason,
    }


def _identity(conn: Connection, record: Mapping[str, Any]) -> dict[str, Any]:
    nace = record["nace"]["primary"]
    return {
        "country": record["country"],
        "nationalId": record["nationalId"],
        "name": record["name"],
        "legalForm": record["legalForm"],
        "address": record["address"]["text"] or _address(record["address"]),
        "nace": {"code": nace, "label": _nace_label(conn, nace)},
        "sizeClass": record["sizeClass"],
        "employees": record["employees"],
        "vatId": record["vatId"],
        "taxId": record["taxId"],
        "lei": record["lei"],
        "identifiers": record["identifiers"],
    }


def _address(address: Mapping[str, Any]) -> str | None:
    parts = [
        address.get("street"),
        " ".join(p for p in (address.get("postalCode"), address.get("city")) if p),
    ]
    return ", ".join(p for p in parts if p) or None


def _nace_label(conn: Connection, code: str | None) -> str | None:
    for candidate in domain.nace_code_candidates(code):
        try:
            return code_lists.get_item(conn, "nace", candidate).name_en
        except NotFound:
            continue
    return None


def _figures(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "year": row["year"],
        "currency": row["currency"],
        "revenue": row["revenue"],
        "profit": row["profit"],
        "totalAssets": row["total_assets"],
        "equity": row["equity"],
        "liabilities": row["liabilities"],
        "employees": row["employees"],
        "source": row["source"],
    }


def _role(row: Mapping[str, Any], personal: bool) -> dict[str, Any]:
    is_person = row["person_id"] is not None
    out: dict[str, Any] = {
        "role": row["role"],
        "name": row["holder_name"],
        "title": row["title"],
        "holderType": "person" if is_person else "company" if row["holder_country"] else "other",
        "sharePct": row["share_pct"],
        "votingPct": row["voting_pct"],
        "since": row["since"],
        "source": row["source"],
    }
    if is_person:
        out["personKey"] = row["person_key"]
        if personal:
            out.update({api: row[col] for api, col in PERSONAL})
    elif row["holder_country"]:
        out["company"] = {"country": row["holder_country"], "nationalId": row["holder_national_id"]}
    return out
