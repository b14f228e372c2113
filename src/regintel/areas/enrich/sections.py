"""The sections an enrichment job adds to each company it found (issue 22), each built by its own
area's public service function, never a copy of it:

- `credit`: `scores.service.credits` (one read of the chunk's statements and notices); equals the score
  fields of `/credit-score`.
- `risk`: `scores.views.risk`, per company; equals `/risk`.
- `sanctions`: `compliance.service.sanctions` (the lists' versions read once per chunk); equals the
  `sanctions` item of `/compliance`.
- `nis2`: `nis2.service.assess_batch` and `scope_view` (one batch of facts); equals `/nis2`.
- `ownership`: `ownership.ultimate.ultimate_owners` (one query per level and table); equals
  `/ultimate-owner` with the job's purpose.
- `compliance`: `compliance.service.summaries` (every input read once for the chunk); equals `/compliance`.
- `financials`: `scores.views.financial_history`, per company, its newest year; equals `years[0]` of
  `/financial-history`.

Each company's section is `{"present", "reason", "data"}` as in `/companies/{ico}/full`: a section with
nothing to show, or one that fails, is absent with the reason for that company alone. A chunk's batch
read runs in a savepoint; when it fails, the section is built company by company (each in its own
savepoint), so one company's bad data costs neither the chunk nor the job."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.compliance import service as compliance
from regintel.areas.nis2 import service as nis2
from regintel.areas.ownership import ultimate as ownership_ultimate
from regintel.areas.ownership.entities import Ctx
from regintel.areas.scores import service as scores
from regintel.areas.scores import views as scores_views
from regintel.areas.screening import service as screening
from regintel.errors import RegintelError, ValidationFailed

log = logging.getLogger(__name__)
Row = Mapping[str, Any]
Built = dict[int, Any]  # company id -> the section's data, or an `Absent`
DESCRIPTIONS = {
    "credit": "credit score 0-100, grade A+…F, confidence, missing inputs and the statement it used",
    "risk": "risk score 0-100, level and drivers (as `/companies/{ico}/risk`)",
    "sanctions": "sanctions and debarment screening hit summary (as `sanctions` of `/compliance`)",
    "nis2": "NIS2 scope: category, certainty, reasons (as `/companies/{ico}/nis2`)",
    "ownership": "ultimate owners and the 25 % / 50 % tests (as `/ultimate-owner`; persons' personal fields "
    "only with a declared `purpose`)",
    "compliance": "the KYC/KYB summary (as `/companies/{ico}/compliance`)",
    "financials": "the newest statement year with its ratios (as `years[0]` of `/financial-history`)",
}
NAMES = tuple(DESCRIPTIONS)
CREDIT_FIELDS = (
    "score",
    "grade",
    "confidence",
    "missing_inputs",
    "caps",
    "withheld_reason",
    "model_version",
    "as_of",
)


class Absent:
    """A section with nothing to show for one company, and why."""

    def __init__(self, reason: str) -> None:
        self.reason = reason


def parse(given: Sequence[str] | None) -> list[str]:
    """The sections asked for, in the documented order, each once; 422 naming any unknown one."""
    wanted = [s.strip().lower() for s in given or () if s.strip()]
    unknown = sorted({s for s in wanted if s not in DESCRIPTIONS})
    if unknown:
        message = f"Unknown section(s): {', '.join(unknown)} (choose from {', '.join(NAMES)})"
        raise ValidationFailed(
            message,
            details=[
                {
                    "field": "sections",
                    "in": "body",
                    "message": message,
                    "unknown": unknown,
                    "allowed": list(NAMES),
                }
            ],
        )
    return [s for s in NAMES if s in wanted]


def _credit(conn: Connection, rows: list[Row], personal: bool) -> Built:
    out: Built = {}
    for cid, c in scores.credits(conn, rows).items():
        s = c.statement
        out[cid] = {k: getattr(c, k) for k in CREDIT_FIELDS} | {
            "missing_inputs": list(c.missing_inputs),
            "caps": list(c.caps),
            "statement": None
            if s is None
            else {"year": s.year, "period_end": s.period_end, "currency": s.currency, "source": s.source},
        }
    return out


def _risk(conn: Connection, rows: list[Row], personal: bool) -> Built:
    return {int(r["id"]): scores_views.risk(conn, r) for r in rows}


def _sanctions(conn: Connection, rows: list[Row], personal: bool) -> Built:
    lists = screening.list_versions(conn)
    out: Built = {}
    for r in rows:
        item = compliance.sanctions(conn, r, lists)
        out[int(r["id"])] = Absent(item["reason"]) if item["status"] == "unknown" else item
    return out


def _nis2(conn: Connection, rows: list[Row], personal: bool) -> Built:
    by_id = {int(r["id"]): r for r in rows}
    return {cid: nis2.scope_view(by_id[cid], f, a) for cid, f, a in nis2.assess_batch(conn, list(by_id))}


def _ownership(conn: Connection, rows: list[Row], personal: bool) -> Built:
    results = ownership_ultimate.ultimate_owners(
        Ctx(conn, personal), rows, compliance.UBO_DEPTH, compliance.UBO_PATHS
    )
    return {int(r["id"]): res.model_dump(mode="json") for r, res in zip(rows, results, strict=True)}


def _compliance(conn: Connection, rows: list[Row], personal: bool) -> Built:
    return {int(r["id"]): s for r, s in zip(rows, compliance.summaries(conn, rows), strict=True)}


def _financials(conn: Connection, rows: list[Row], personal: bool) -> Built:
    out: Built = {}
    for r in rows:
        years = scores_views.financial_history(conn, r)["years"]
        out[int(r["id"])] = years[0] if years else Absent("no financial statement on record")
    return out


BUILDERS: dict[str, Callable[[Connection, list[Row], bool], Built]] = {
    "credit": _credit,
    "risk": _risk,
    "sanctions": _sanctions,
    "nis2": _nis2,
    "ownership": _ownership,
    "compliance": _compliance,
    "financials": _financials,
}
assert tuple(BUILDERS) == NAMES


def _failure(exc: Exception, name: str, row: Row) -> Absent:
    if isinstance(exc, RegintelError):
        return Absent(exc.message)
    log.exception("section %s of %s %s failed", name, row["country"], row["national_id"])
    return Absent(f"the section failed ({type(exc).__name__}); the error is logged")


def _one(conn: Connection, name: str, rows: list[Row], personal: bool) -> Built:
    with conn.begin_nested():
        return BUILDERS[name](conn, rows, personal)


def _section(conn: Connection, name: str, rows: list[Row], personal: bool) -> Built:
    """The chunk's batch in a savepoint; when it fails, company by company, each in a savepoint of its own,
    so that only the company whose data the builder cannot take is absent."""
    if len(rows) > 1:
        try:
            return _one(conn, name, rows, personal)
        except Exception:  # retried per company below; the failing one is logged there
            pass
    built: Built = {}
    for r in rows:
        try:
            built |= _one(conn, name, [r], personal)
        except Exception as exc:  # one company's failing section fails neither the chunk nor the job
            built[int(r["id"])] = _failure(exc, name, r)
    return built


def build(
    conn: Connection, rows: Sequence[Row], names: Sequence[str], personal: bool
) -> dict[int, dict[str, Any]]:
    """Each company's sections (company id -> name -> `{present, reason, data}`), the chunk's reads batched
    per section; `personal`: the job's declared purpose lets persons' personal fields through."""
    unique = list({int(r["id"]): r for r in rows}.values())
    out: dict[int, dict[str, Any]] = {int(r["id"]): {} for r in unique}
    for name in names:
        built = _section(conn, name, unique, personal)
        for cid in out:
            value = built.get(cid, Absent("the section gave no answer for this company"))
            absent = isinstance(value, Absent)
            out[cid][name] = {
                "present": not absent,
                "reason": value.reason if absent else None,
                "data": None if absent else value,
            }
    return out
