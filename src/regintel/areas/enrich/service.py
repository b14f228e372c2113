"""Enrichment jobs: queue a list of identifiers, report progress, stream the answers.

A job is a row of the jobs table (kind `enrich.lookup`, `owner_key_id` = the key that asked), run by
`regintel worker` (`jobs.py`). Each identifier is answered as `POST /companies/bulk` answers it (one
shared service: `areas.companies.lookup.bulk`), in chunks of `CHUNK`, each chunk written with its positions in
one transaction; a job taken over after its worker died answers the positions without an answer."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.catalogue.code_lists import parse_country
from regintel.areas.enrich import queries
from regintel.config import Plan
from regintel.db import jobs as jobs_db
from regintel.errors import Conflict, Forbidden, NotFound

KIND = "enrich.lookup"
MAX_IDENTIFIERS = 100_000
CHUNK = 500
PAGE = 1_000
STATUSES = ("found", "not_found", "invalid", "ambiguous")
CSV_COLUMNS = [
    "index",
    "input",
    "status",
    "reason",
    "country",
    "nationalId",
    "name",
    "companyStatus",
    "legalForm",
    "city",
    "postalCode",
    "vatId",
    "lei",
    "inBankruptcy",
    "inRestructuring",
    "inLiquidation",
    "matchScore",
]


@dataclass
class Options:
    """What a job adds to each found company: `sections` (checked by `sections.parse`), and whether persons'
    personal fields may be shown (`personal`, decided by the purpose gate when the job is made: the declared
    `purpose`, or the key's natural-persons addendum)."""

    sections: list[str] = field(default_factory=list)
    purpose: str | None = None
    personal: bool = False


def plan_limit(plan: Plan) -> int:
    """The most identifiers a job of a key on `plan` may hold: the plan's `enrich_max_identifiers`, never
    more than the service's own cap."""
    return min(plan.enrich_max_identifiers or MAX_IDENTIFIERS, MAX_IDENTIFIERS)


def check_plan(count: int, plan_name: str, plan: Plan) -> None:
    """403 FORBIDDEN when a job of `count` identifiers is larger than the key's plan allows."""
    limit = plan_limit(plan)
    if count > limit:
        raise Forbidden(
            f"The {plan.title} plan allows at most {limit:,} identifiers per enrichment job; this "
            f"one has {count:,}: split the list or use a larger plan",
            details={"plan": plan_name, "limit": limit, "identifiers": count},
        )


def create(
    conn: Connection,
    key_id: int,
    identifiers: list[Any],
    country: str | None,
    source: Mapping[str, Any] | None = None,
    options: Options | None = None,
) -> dict[str, Any]:
    """Queue a job over `identifiers` (national ids, `{"country", "id"}`, or `{"name", "city"?, "country"?}`
    from a CSV upload); `source` says what the input was, `options` the sections to add and the purpose.
    The plan's limit is checked before (`check_plan`)."""
    cc = parse_country(country) if country else None
    opts = options or Options()
    payload = {
        "identifiers": identifiers,
        "country": cc,
        "input": dict(source or {"kind": "json"}),
        "sections": opts.sections,
        "purpose": opts.purpose,
        "personal": opts.personal,
    }
    job_id = jobs_db.enqueue(conn, KIND, payload, now=datetime.now(UTC), owner_key_id=key_id)
    assert job_id is not None  # no dedupe key: always queued
    return status(conn, key_id, job_id)


def _job(conn: Connection, key_id: int, job_id: int) -> Mapping[str, Any]:
    row = queries.job_of_key(conn, job_id, key_id, KIND)
    if row is None:
        raise NotFound(f"No enrichment job {job_id} of this key")
    return row


def status(conn: Connection, key_id: int, job_id: int) -> dict[str, Any]:
    row = _job(conn, key_id, job_id)
    total = len(row["payload"]["identifiers"])
    counts = queries.counts(conn, job_id)
    done = sum(counts.values())
    return {
        "id": row["id"],
        "status": row["status"],
        "total": total,
        "processed": done,
        "progress": round(done / total, 4) if total else 1.0,
        "counts": {s: counts.get(s, 0) for s in STATUSES},
        "country": row["payload"].get("country"),
        "attempts": row["attempts"],
        "error": row["last_error"],
        "createdAt": row["created_at"],
        "startedAt": row["started_at"],
        "finishedAt": row["finished_at"],
        "resultUrl": f"/api/v1/enrich/jobs/{row['id']}/result" if row["status"] == jobs_db.DONE else None,
        "input": row["payload"].get("input") or {"kind": "json"},
        "sections": row["payload"].get("sections") or [],
        "purpose": row["payload"].get("purpose"),
    }


def ready(conn: Connection, key_id: int, job_id: int) -> list[str]:
    """The job's sections once it is done (its answers are then complete); 409 until then."""
    row = _job(conn, key_id, job_id)
    if row["status"] != jobs_db.DONE:
        raise Conflict(
            f"Enrichment job {job_id} is {row['status']}: its result is ready once it is done",
            details={"status": row["status"]},
        )
    return list(row["payload"].get("sections") or [])


def iter_answers(engine: Engine, job_id: int) -> Iterator[dict[str, Any]]:
    """The answers in input order, a page per short connection (the stream may be read slowly)."""
    after = -1
    while True:
        with engine.connect() as conn:
            rows = queries.page(conn, job_id, after, PAGE)
        for row in rows:
            yield dict(row["body"])
        if len(rows) < PAGE:
            return
        after = rows[-1]["idx"]


def _input_text(given: Any) -> str:
    if isinstance(given, str):
        return given
    given = given if isinstance(given, Mapping) else {}
    if "name" in given:
        return "; ".join(str(given[k]) for k in ("name", "city", "country") if given.get(k))
    return f"{given.get('country') or ''}:{given.get('id') or ''}"


def csv_row(answer: Mapping[str, Any]) -> dict[str, Any]:
    company = answer.get("company") or {}
    return {
        "index": answer["index"],
        "input": _input_text(answer["input"]),
        "matchScore": (answer.get("match") or {}).get("score"),
        "status": answer["status"],
        "reason": answer.get("reason"),
        "country": company.get("country"),
        "nationalId": company.get("nationalId"),
        "name": company.get("name"),
        "companyStatus": company.get("status"),
        "legalForm": (company.get("legalForm") or {}).get("code"),
        "city": (company.get("address") or {}).get("city"),
        "postalCode": (company.get("address") or {}).get("postalCode"),
        "vatId": company.get("vatId"),
        "lei": company.get("lei"),
        "inBankruptcy": company.get("inBankruptcy"),
        "inRestructuring": company.get("inRestructuring"),
        "inLiquidation": company.get("inLiquidation"),
    }
