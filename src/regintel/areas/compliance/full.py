"""`/companies/{ico}/full`: the main sections of a company in one call.

Each section is built by its own area's service function, on the request's one connection (a request
holds at most one database connection, DESIGN.md §1, so the sections run one after another rather than
concurrently). Each is independently `present` or absent with a `reason`: a section that fails is
reported as absent (its error class named) inside a savepoint, so it can neither fail the call nor spoil
the transaction the next sections read in.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.companies import service as companies_svc
from regintel.areas.companies import timeline as timeline_svc
from regintel.areas.compliance import risk as risk_svc
from regintel.areas.compliance import service
from regintel.areas.nis2 import service as nis2
from regintel.areas.ownership import relations as ownership_relations
from regintel.areas.ownership import ultimate as ownership_ultimate
from regintel.areas.ownership.entities import Ctx
from regintel.areas.public_money import bank_accounts, contracts
from regintel.areas.scores import views as scores_views
from regintel.areas.screening import service as screening
from regintel.errors import RegintelError

log = logging.getLogger(__name__)
Row = Mapping[str, Any]
TIMELINE_HEAD = 10
CONTRACTS_HEAD = 10


def _sanctions(conn: Connection, row: Row) -> Any:
    s = service.sanctions(conn, row)
    if s["status"] == "unknown":
        raise Absent(s["reason"])
    return s


def _relations(conn: Connection, row: Row) -> Any:
    return ownership_relations.relations(Ctx(conn, False), row, False).model_dump(mode="json")


def _ultimate(conn: Connection, row: Row) -> Any:
    return ownership_ultimate.ultimate_owner(
        Ctx(conn, False), row, service.UBO_DEPTH, service.UBO_PATHS
    ).model_dump(mode="json")


def _timeline(conn: Connection, row: Row) -> Any:
    events, cursor = timeline_svc.timeline(conn, row, cursor=None, limit=TIMELINE_HEAD, types=None)
    return {"events": events, "more": cursor is not None}


def _bank_accounts(conn: Connection, row: Row) -> Any:
    if bank_accounts.imported_register(conn, row["country"]) is None:
        raise Absent(f"no register of VAT payers' bank accounts is imported for {row['country']}")
    return bank_accounts.company_accounts(conn, row)


def _contracts(conn: Connection, row: Row) -> Any:
    total, items = contracts.company_contracts(conn, row, 1, CONTRACTS_HEAD)
    return {"total": total, "items": items}


def _financial_history(conn: Connection, row: Row) -> Any:
    out = scores_views.financial_history(conn, row)
    if not out["years"]:
        raise Absent("no financial statement on record")
    return out


class Absent(Exception):
    """A section with nothing to show, and why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


SECTIONS: dict[str, Callable[[Connection, Row], Any]] = {
    "company": companies_svc.company_record,
    "financialHistory": _financial_history,
    "creditScore": scores_views.credit_score,
    "risk": scores_views.risk,
    "relations": _relations,
    "ultimateOwner": _ultimate,
    "sanctions": _sanctions,
    "nis2": nis2.scope,
    "timeline": _timeline,
    "bankAccounts": _bank_accounts,
    "contracts": _contracts,
    "compliance": service.summary,
    "obligations": risk_svc.obligations,
    "screeningHits": lambda conn, row: screening.company_hit_summary(conn, int(row["id"])),
}


def full(conn: Connection, row: Row, only: set[str] | None = None) -> dict[str, Any]:
    sections: dict[str, Any] = {}
    started = time.perf_counter()
    for name, build in SECTIONS.items():
        if only is not None and name not in only:
            continue
        t0 = time.perf_counter()
        try:
            with conn.begin_nested():
                data, present, reason = build(conn, row), True, None
        except Absent as exc:
            data, present, reason = None, False, exc.reason
        except RegintelError as exc:
            data, present, reason = None, False, exc.message
        except Exception as exc:  # one failing section must not fail the call
            log.exception("section %s of %s %s failed", name, row["country"], row["national_id"])
            data, present, reason = (
                None,
                False,
                f"the section failed ({type(exc).__name__}); the error is logged",
            )
        sections[name] = {
            "present": present,
            "reason": reason,
            "durationMs": round((time.perf_counter() - t0) * 1000, 2),
            "data": data,
        }
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "sections": sections,
        "durationMs": round((time.perf_counter() - started) * 1000, 2),
    }
