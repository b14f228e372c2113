"""Supplier risk, supply-chain risk, filing obligations and the VAT liability check (spec 4.4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.companies.service import get_company_row
from regintel.areas.compliance import debtors as debtor_lists
from regintel.areas.compliance import service
from regintel.areas.ownership import relations as ownership_relations
from regintel.areas.ownership.entities import Ctx
from regintel.areas.public_money import bank_accounts
from regintel.areas.scores import service as scores
from regintel.domain import compliance as rules
from regintel.errors import RegintelError

Row = Mapping[str, Any]
MAX_LINKS = 50


def _risk(conn: Connection, row: Row) -> dict[str, Any]:
    r = scores.risk(conn, row)
    return {
        "score": r.score,
        "level": r.level,
        "drivers": [d.code for d in r.drivers],
        "missingInputs": list(r.missing_inputs),
        "confidence": r.confidence,
        "modelVersion": r.model_version,
    }


def supplier_risk(conn: Connection, row: Row) -> dict[str, Any]:
    """The risk score, the due-diligence verdict and its red flags: `high` when a check failed with a
    critical flag or the risk level is high, `review` when a check failed or is unknown, else `low`."""
    dd = service.due_diligence(conn, row)
    risk = _risk(conn, row)
    critical = any(f["severity"] == "critical" for f in dd["redFlags"])
    level = (
        "high"
        if critical or risk["level"] in ("high", "severe")
        else "review"
        if dd["overall"] != "passed"
        else "low"
    )
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "supplierRisk": level,
        "risk": risk,
        "dueDiligence": dd["overall"],
        "redFlags": dd["redFlags"],
        "rulesVersion": rules.RULES_VERSION,
    }


def _linked(rel: Any) -> list[tuple[str, Any]]:
    out = [("shareholder", r) for r in rel.shareholders] + [
        ("beneficial_owner", r) for r in rel.beneficialOwners
    ]
    out += [("director", r) for r in rel.directors] + [("holding", r) for r in rel.holdings]
    return [(kind, r) for kind, r in out if r.holder.type == "company" and r.holder.nationalId]


def supply_chain_risk(conn: Connection, row: Row) -> dict[str, Any]:
    """The company and each company linked to it by ownership (shareholders, holdings, corporate
    directors), each with its risk score, insolvency flags and sanctions summary."""
    rel = ownership_relations.relations(Ctx(conn, False), row, False)
    links: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for kind, r in _linked(rel):
        key = (r.holder.country, r.holder.nationalId)
        if key in seen or len(links) >= MAX_LINKS:
            continue
        seen.add(key)
        try:
            other = get_company_row(conn, *key)
        except RegintelError as exc:
            links.append(
                {
                    "relation": kind,
                    "country": key[0],
                    "nationalId": key[1],
                    "name": r.holder.name,
                    "risk": None,
                    "reason": exc.message,
                }
            )
            continue
        links.append(
            {
                "relation": kind,
                "country": key[0],
                "nationalId": key[1],
                "name": other["name"],
                "sharePct": r.sharePct,
                "risk": _risk(conn, other),
                "insolvency": service.insolvency(other)["value"],
                "sanctions": service.sanctions(conn, other)["status"],
                "reason": None,
            }
        )
    scores_ = [lk["risk"]["score"] for lk in links if lk["risk"]]
    own = _risk(conn, row)
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "risk": own,
        "links": links,
        "truncated": len(seen) >= MAX_LINKS,
        "maxLinkedRisk": max(scores_) if scores_ else None,
        "chainRisk": max([own["score"], *scores_]),
    }


def obligations(conn: Connection, row: Row) -> dict[str, Any]:
    """Filing obligations with deadlines from the statement years we hold."""
    ob = service.statement_obligation(conn, row)
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "asOf": service.today().isoformat(),
        "obligations": [ob],
    }


def vat_liability(conn: Connection, row: Row) -> dict[str, Any]:
    """VAT registration from the register's identifiers, the payer status and the published accounts of
    the VAT payer register where one is imported (CZ, PL); `unknown` with the reason elsewhere."""
    registered = row["vat_id"]
    covered = bank_accounts.imported_register(conn, row["country"]) is not None
    accounts = bank_accounts.company_accounts(conn, row) if covered else None
    tax = service.tax_reliability(conn, row)
    if registered:
        registration = service.item("registered", registered, row["source"], row["updated_at"])
    elif accounts and any(p["status"] in ("reliable", "unreliable", "active") for p in accounts["vatPayers"]):
        payer = next(p for p in accounts["vatPayers"] if p["status"] in ("reliable", "unreliable", "active"))
        registration = service.item("registered", payer["vatId"], payer["source"]["id"], payer["answeredOn"])
    else:
        registration = service.item(
            "unknown",
            None,
            None,
            None,
            "no VAT id in the register record and no VAT payer register entry for this company",
        )
    if accounts is None:
        published = service.item(
            "unknown",
            None,
            None,
            None,
            f"no register of VAT payers' bank accounts is imported for {row['country']}",
        )
    else:
        published = service.item(
            "published" if accounts["accounts"] else "none",
            accounts["accounts"],
            bank_accounts.COVERED[row["country"]],
        )
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "vatRegistration": registration,
        "unreliablePayer": tax,
        "bankAccounts": published,
        "hasTaxDebt": tax_debt(conn, row),
    }


def tax_debt(conn: Connection, row: Row) -> dict[str, Any]:
    """`listed` / `not_listed` on the tax administration's debtor list, `unknown` where none is imported."""
    s = debtor_lists.standing(conn, [row])[int(row["id"])]
    lists = s.imported(("tax",))
    if not lists:
        return service.item(
            "unknown",
            None,
            None,
            None,
            f"no tax-debtor list of {row['country']} is imported (Slovak: sk_fs_tax_debtors)",
        )
    entries = [e for e in s.current if e["kind"] == "tax"]
    value = {
        "entries": [
            {
                "amount": float(e["amount"]) if e["amount"] is not None else None,
                "currency": e["currency"],
                "listedSince": e["listed_on"].isoformat(),
                "match": e["match"],
            }
            for e in entries
        ]
    }
    return service.item(
        "listed" if entries else "not_listed", value, ",".join(sorted(lists)), max(lists.values())
    )
