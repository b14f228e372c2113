"""Use cases of the compliance area: the KYC/KYB summary and what is built from it.

Every other area is reached through its public service functions only (scores, screening, NIS2,
ownership, public money). Each summary item is `{status, value, source, date, reason}`: `status` is
`unknown` with a `reason` whenever no source can answer, never a reassuring default.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from threading import Lock
from typing import Any

import orjson
from cachetools import LRUCache
from sqlalchemy.engine import Connection

from regintel.areas.companies.schemas import LeiFields
from regintel.areas.compliance import debtors as debtor_lists
from regintel.areas.compliance import queries
from regintel.areas.nis2 import service as nis2
from regintel.areas.ownership import ultimate as ownership_ultimate
from regintel.areas.ownership.entities import Ctx
from regintel.areas.public_money import bank_accounts
from regintel.areas.scores import service as scores
from regintel.areas.screening import service as screening
from regintel.db.prepared import read_ahead
from regintel.domain import compliance as rules
from regintel.domain.scores.figures import period_end

Row = Mapping[str, Any]
UBO_DEPTH, UBO_PATHS = 10, 500


def today() -> date:
    return datetime.now(UTC).date()


def _day(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        moment = value.astimezone(UTC) if value.tzinfo else value
        return moment.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)[:10]


def item(
    status: str, value: Any = None, source: str | None = None, on: Any = None, reason: str | None = None
) -> dict[str, Any]:
    return {"status": status, "value": value, "source": source, "date": _day(on), "reason": reason}


def identity(row: Row) -> dict[str, Any]:
    return item(
        "known",
        {
            "country": row["country"],
            "nationalId": row["national_id"],
            "name": row["name"],
            "legalForm": row["legal_form_name"] or row["legal_form"],
            "vatId": row["vat_id"],
            "taxId": row["tax_id"],
            "lei": row["lei"],
            "foundedOn": _day(row["founded_on"]),
        },
        row["source"],
        row["updated_at"],
    )


def status(row: Row) -> dict[str, Any]:
    return item(
        row["status"] or "unknown",
        row["status"],
        row["source"],
        row["updated_at"],
        None if row["status"] else "the register gives no status",
    )


def insolvency(row: Row) -> dict[str, Any]:
    flags = {
        "bankruptcy": bool(row["in_bankruptcy"]),
        "restructuring": bool(row["in_restructuring"]),
        "liquidation": bool(row["in_liquidation"]),
    }
    return item("proceedings" if any(flags.values()) else "none", flags, row["source"], row["updated_at"])


def sanctions(conn: Connection, row: Row, lists: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    lists = screening.list_versions(conn) if lists is None else lists
    if not lists:
        return item(
            "unknown", reason="no sanctions or debarment list is imported (`regintel screening import`)"
        )
    hits = screening.company_hit_summary(conn, int(row["id"]))
    value = {
        "hits": hits["hits"],
        "confirmed": hits["confirmed"],
        "nameOnly": hits["hits"] - hits["confirmed"],
        "sanctioned": hits["sanctioned"],
        "debarred": hits["debarred"],
        "lists": [lst["id"] for lst in lists],
    }
    word = "confirmed_hit" if hits["confirmed"] else "name_match" if value["nameOnly"] else "clear"
    newest = max((lst["imported_at"] for lst in lists if lst["imported_at"]), default=None)
    return item(word, value, ",".join(lst["id"] for lst in lists), newest)


def beneficial_ownership(conn: Connection, row: Row, result: Any = None) -> dict[str, Any]:
    if result is None:
        result = ownership_ultimate.ultimate_owner(Ctx(conn, False), row, UBO_DEPTH, UBO_PATHS)
    value = {
        "beneficialOwners25": result.beneficialOwners25,
        "undetermined": result.undetermined,
        "truncated": result.truncated,
    }
    if result.ownerKnown:
        return item("known", value, "ownership", today())
    reasons = (
        "; ".join(r.message for r in result.unknownReasons)
        or "no natural person is known to hold more than 25%"
    )
    return item(
        "unknown",
        value | {"reasonCodes": [r.code for r in result.unknownReasons]},
        "ownership",
        today(),
        reasons,
    )


def tax_reliability(conn: Connection, row: Row) -> dict[str, Any]:
    """The VAT payer status of the financial administration's register (Czech ADIS answers)."""
    covered = row["country"] in bank_accounts.STATUS_COVERED
    if not covered:
        return item(
            "unknown",
            reason=f"no tax-reliability register is imported for {row['country']} "
            f"(covered: {', '.join(sorted(bank_accounts.STATUS_COVERED))})",
        )
    payers = bank_accounts.company_accounts(conn, row)["vatPayers"]
    if not payers:
        return item(
            "unknown", reason="the company has not been asked about in the imported VAT payer register"
        )
    p = payers[-1]
    word = p["status"] if p["status"] in ("reliable", "unreliable") else "unknown"
    reason = (
        None
        if word != "unknown"
        else (
            "not a VAT payer in the register"
            if p["status"] in ("not_found", "not_registered")
            else f"register status {p['status']}"
        )
    )
    return item(
        word,
        {"vatId": p["vatId"], "registerStatus": p["status"], "unreliableSince": p["unreliableSince"]},
        p["source"]["id"],
        p["answeredOn"],
        reason,
    )


def nis2_scope(conn: Connection, row: Row, scope: Mapping[str, Any] | None = None) -> dict[str, Any]:
    s = scope if scope is not None else nis2.scope(conn, row)
    value = {
        "inScope": s["in_scope"],
        "category": s["category"],
        "certainty": s["certainty"],
        "rulesetVersion": s["ruleset_version"],
    }
    if s["in_scope"] is None:
        return item(
            "unknown",
            value,
            "nis2",
            today(),
            "; ".join(f"{m['input']}: {m['why']}" for m in s["missing"])
            or "scope undecided between " + ", ".join(s["possible_categories"]),
        )
    return item("in_scope" if s["in_scope"] else "out_of_scope", value, "nis2", today())


def debtors(row: Row, standing: debtor_lists.Standing) -> dict[str, Any]:
    """Whether a published debtor list (social insurance, health insurers, tax) names the company now."""
    imported = {s: d for s, d in standing.lists.items() if d is not None}
    if not imported:
        return item("unknown", reason=debtor_lists.missing_reason(row["country"]))
    value = {
        "paymentDefaults": standing.payment_defaults,
        "taxDebt": standing.tax_debt,
        "creditors": sorted({e["creditor"] for e in standing.current}),
        "lists": sorted(imported),
    }
    return item(
        "listed" if standing.current else "not_listed",
        value,
        ",".join(sorted(imported)),
        max(imported.values()),
    )


def credit_grade(
    conn: Connection, row: Row, standing: debtor_lists.Standing | None = None, score: Any = None
) -> dict[str, Any]:
    c = score if score is not None else scores.credit(conn, row, standing=standing)
    statement = c.statement
    if c.grade is None:
        return item("unknown", None, "scores", c.as_of, c.withheld_reason or "grade withheld")
    return item(
        "graded",
        c.grade,
        statement.source if statement else "scores",
        statement.period_end if statement else c.as_of,
    )


@dataclass
class Batch:
    """What `summaries` read for all companies at once; `summary` reads what is missing per company."""

    scope: Mapping[str, Any] | None = None
    standing: debtor_lists.Standing | None = None
    lists: list[dict[str, Any]] | None = None
    owners: Any = None
    credit: Any = None


def summary(conn: Connection, row: Row, batch: Batch | None = None) -> dict[str, Any]:
    """The unified KYC/KYB summary of one company (`batch`: what a bulk call read for it already)."""
    b = batch or Batch()
    standing = b.standing or debtor_lists.standing(conn, [row])[int(row["id"])]
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "asOf": today().isoformat(),
        "identity": identity(row),
        "status": status(row),
        "insolvency": insolvency(row),
        "sanctions": sanctions(conn, row, b.lists),
        "beneficialOwnership": beneficial_ownership(conn, row, b.owners),
        "taxReliability": tax_reliability(conn, row),
        "nis2": nis2_scope(conn, row, b.scope),
        "creditGrade": credit_grade(conn, row, standing, b.credit),
        "debtors": debtors(row, standing),
    }


def summaries(conn: Connection, rows: list[Row]) -> list[dict[str, Any]]:
    """The summaries of several companies (bulk-compliance), each input read in one batch for all of them:
    NIS2 facts, debtor lists, the sanctions lists' versions, the owner graphs (one query per level and
    table) and the statements and notices of the credit scores."""
    by_id = {int(r["id"]): r for r in rows}
    unique = list(by_id.values())
    scopes = {cid: nis2.scope_view(by_id[cid], f, a) for cid, f, a in nis2.assess_batch(conn, list(by_id))}
    standings = debtor_lists.standing(conn, unique)
    lists = screening.list_versions(conn)
    owners = dict(
        zip(
            by_id,
            ownership_ultimate.ultimate_owners(Ctx(conn, False), unique, UBO_DEPTH, UBO_PATHS),
            strict=True,
        )
    )
    credits = scores.credits(conn, unique, standings)
    return [
        summary(conn, r, Batch(scopes.get(cid), standings[cid], lists, owners[cid], credits[cid]))
        for r in rows
        for cid in [int(r["id"])]
    ]


def statement_obligation(conn: Connection, row: Row) -> dict[str, Any]:
    latest = queries.latest_statement(conn, int(row["id"]))
    end = period_end(latest["period_to"], latest["year"]) if latest else None
    out = rules.statement_obligation(
        row["country"], end, row["founded_on"], row["status"] == "dissolved", today()
    )
    return {
        "obligation": "annual_financial_statement",
        "latestYear": latest["year"] if latest else None,
        "latestPeriodEnd": _day(end),
        "latestSource": latest["source"] if latest else None,
        **out,
    }


def _check(c: rules.Check) -> dict[str, Any]:
    return {
        "id": c.id,
        "title": c.title,
        "result": c.result,
        "finding": c.finding,
        "redFlags": [asdict(f) for f in c.red_flags],
    }


def due_diligence(conn: Connection, row: Row) -> dict[str, Any]:
    s = summary(conn, row)
    checks = rules.checklist(s, statement_obligation(conn, row))
    flags = [f for c in checks for f in c.red_flags]
    return {
        "country": row["country"],
        "nationalId": row["national_id"],
        "name": row["name"],
        "asOf": s["asOf"],
        "overall": rules.overall(checks),
        "rulesVersion": rules.RULES_VERSION,
        "checks": [_check(c) for c in checks],
        "redFlags": [asdict(f) for f in sorted(flags, key=lambda f: f.severity != "critical")],
    }


def lei_fields(conn: Connection, row: Row) -> LeiFields:
    """The compliance fields of the LEI record (spec 2.4, the high-volume LEI path), from the same
    functions as the summary but only the cheap ones: the credit grade (two indexed reads), the sanctions
    hit summary (one read, none when no list is imported), the VAT payer status (CZ and PL only) and the
    stored NIS2 assessment (one read: scoping live took 7 statements and made the path 8 times dearer;
    null until a sweep or the refresh job assessed the company). `hasTaxDebt` is null unless a
    tax-debtor list of the company's country is imported (the Slovak one)."""
    cid = int(row["id"])
    # The reads below are spread over four areas' functions, but all follow from the company's id: read
    # ahead, they are one round trip on PostgreSQL (nine before), and the sanctions lists and hits that two
    # of the functions ask for are read once.
    ahead = [
        *debtor_lists.standing_reads([row]),
        *screening.company_reads(cid),
        *scores.company_reads(cid),
        nis2.stored_read(cid),
    ]
    with read_ahead(conn, ahead) as block:
        key = _fields_key(row, block.rows)
        with _LEI_FIELDS_LOCK:
            known = _LEI_FIELDS.get(key)
        if known is not None:
            return {**known, "flags": {**known["flags"]}}
        fields = _lei_fields(conn, row, cid)
        if not block.missed:
            with _LEI_FIELDS_LOCK:
                _LEI_FIELDS[key] = fields
        return {**fields, "flags": {**fields["flags"]}}


def _lei_fields(conn: Connection, row: Row, cid: int) -> LeiFields:
    tax = tax_reliability(conn, row)
    standing = debtor_lists.standing(conn, [row])[cid]
    sanctioned: bool | None = None
    if screening.list_versions(conn):
        sanctioned = screening.company_hit_summary(conn, cid)["confirmed"] > 0
    return {
        "taxReliability": tax["status"] if tax["status"] in ("reliable", "unreliable") else "unknown",
        "creditGrade": scores.credit_grade(conn, row, standing),
        "nis2InScope": nis2.stored_in_scope(conn, cid),
        "flags": {"isSanctioned": sanctioned, "hasTaxDebt": standing.tax_debt},
    }


# The LEI record is the high-volume path, and what its fields are derived from stays the same call after
# call: deriving them (the debtor lists' standing, the list versions, the hit summary, the credit grade,
# each typing its rows first) was about a fifth of the request (docs/performance.md, session 18). They are
# kept under a key of everything they were derived from: the company's row and the read-ahead block's rows
# as the driver returned them, and the day (the grade's age and staleness rules move with it). A changed
# row is a new key at once. A block in which anything read past the rows read ahead (the VAT payer register
# of CZ and PL, read by SQLAlchemy; `Block.missed`) is not kept, since its key would not hold all it read.
_LEI_FIELDS: LRUCache[Hashable, LeiFields] = LRUCache(maxsize=8192)
_LEI_FIELDS_LOCK = Lock()


_DECODED = (dict, list)  # what a driver decodes JSON into: unhashable


def _fields_key(row: Row, rows: tuple[tuple[tuple[Any, ...], ...], ...]) -> Hashable:
    # The grade is the one field that moves with the day, so the day is the grade's (`scores.today`).
    company = tuple(_frozen(v) if type(v) in _DECODED else v for v in row.values())
    key = (company, rows, scores.today())
    try:
        hash(key)
    except TypeError:  # a JSON value the driver decoded (psycopg's dicts and lists): its sorted JSON text
        rows = tuple(tuple(tuple(_frozen(v) for v in r) for r in read) for read in rows)
        return (company, rows, scores.today())
    return key


def _frozen(value: Any) -> Any:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS) if type(value) in _DECODED else value
