"""`POST /compliance/nis2-sweep`: scope many companies at once, by identifiers or by an advanced-search
filter, into counts per category (and per country and certainty) and the list of in-scope entities.

Up to SYNC_LIMIT identifiers are answered in the request; more, or any filter, run as the job
`nis2.sweep`. A job works through its companies in id order and hands over to a continuation job after
SLICE companies (the worker's lease is 10 minutes), carrying the partial counts; the status URL follows
the chain. Every sweep also stores the assessments it computed for the `nis2_scope` filter."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.nis2 import queries, service
from regintel.areas.search.company_filters import CompanyFilters
from regintel.db import jobs as jobs_db
from regintel.db.company_filters import conditions, reference
from regintel.db.engine import begin_write
from regintel.domain.identifiers import parse_country, parse_national_id
from regintel.domain.nis2.scope import ESSENTIAL, IMPORTANT, OUT, RULESET_VERSION
from regintel.errors import InvalidIdentifier, NotFound, ValidationFailed

SYNC_LIMIT = 1_000
MAX_IDENTIFIERS = 10_000
ENTITY_CAP = 10_000
SLICE = 200_000
SLICE_SECONDS = 240
BATCH = 2_000
KIND = "nis2.sweep"
STATUS_PATH = "/api/v1/compliance/nis2-sweep/{job_id}"


def empty_totals() -> dict[str, Any]:
    return {
        "processed": 0,
        "counts": {ESSENTIAL: 0, IMPORTANT: 0, OUT: 0},
        "certainty": {"certain": 0, "likely": 0, "possible": 0},
        "by_country": {},
        "entities": [],
        "entities_truncated": False,
    }


def add(
    totals: dict[str, Any], results: Sequence[tuple[int, Any, Any]], rows: Mapping[int, Mapping[str, Any]]
) -> None:
    for cid, facts, a in results:
        totals["processed"] += 1
        totals["counts"][a.category] += 1
        totals["certainty"][a.certainty] += 1
        country = totals["by_country"].setdefault(facts.country, {ESSENTIAL: 0, IMPORTANT: 0, OUT: 0})
        country[a.category] += 1
        if a.category == OUT:
            continue
        if len(totals["entities"]) >= ENTITY_CAP:
            totals["entities_truncated"] = True
            continue
        row = rows.get(cid, {})
        totals["entities"].append(
            {
                "country": facts.country,
                "national_id": row.get("national_id"),
                "name": row.get("name"),
                "category": a.category,
                "certainty": a.certainty,
                "sectors": sorted(
                    {
                        b.get("sector") or b.get("designation") or b["kind"]
                        for b in a.bases
                        if b["match"] != "possible"
                    }
                ),
            }
        )


def assess_ids(conn: Connection, ids: Sequence[int]) -> list[tuple[Any, Mapping[int, Mapping[str, Any]]]]:
    """The assessments of `ids` (reads only), batch by batch: (results, rows) per batch."""
    out: list[tuple[Any, Mapping[int, Mapping[str, Any]]]] = []
    for start in range(0, len(ids), BATCH):
        part = list(ids[start : start + BATCH])
        rows = queries.companies_with_financials(conn, part)
        out.append((service.assess_batch(conn, part, rows), rows))
    return out


def save_assessed(conn: Connection, assessed: Sequence[tuple[Any, Any]], totals: dict[str, Any]) -> None:
    for results, rows in assessed:
        add(totals, results, rows)
        service.save_batch(conn, results)


def run_ids(conn: Connection, ids: Sequence[int], totals: dict[str, Any]) -> None:
    save_assessed(conn, assess_ids(conn, ids), totals)


def _writing(engine: Engine) -> Any:
    # A transaction that reads and then writes must take SQLite's write lock first (db/engine.py): a deferred
    # one that another writer committed under fails at its first write with "database is locked", as a
    # second sweep beside the first did at 10M.
    return engine.connect().execution_options(sqlite_immediate=True)


def parse_identifiers(
    items: Sequence[Mapping[str, str]],
) -> tuple[list[tuple[str, str]], list[dict[str, Any]]]:
    valid, invalid = [], []
    for n, item in enumerate(items):
        try:
            country = parse_country(item["country"])
            valid.append((country, parse_national_id(country, item["national_id"])))
        except (InvalidIdentifier, ValidationFailed) as exc:
            invalid.append(
                {
                    "index": n,
                    "country": item["country"],
                    "national_id": item["national_id"],
                    "error": str(exc),
                }
            )
    return valid, invalid


def sweep_identifiers(conn: Connection, items: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    valid, invalid = parse_identifiers(items)
    found = queries.ids_by_identifier(conn, sorted(set(valid)))
    totals = empty_totals()
    run_ids(conn, sorted(set(found.values())), totals)
    seen: set[tuple[str, str]] = set()
    not_found = []
    for pair in valid:
        if pair not in found and pair not in seen:
            seen.add(pair)
            not_found.append({"country": pair[0], "national_id": pair[1]})
    return finish(totals) | {"requested": len(items), "invalid": invalid, "not_found": not_found}


def finish(totals: dict[str, Any]) -> dict[str, Any]:
    return totals | {
        "ruleset_version": RULESET_VERSION,
        "in_scope": totals["counts"][ESSENTIAL] + totals["counts"][IMPORTANT],
    }


def enqueue(conn: Connection, payload: dict[str, Any], owner_key_id: int | None) -> int:
    job_id = jobs_db.enqueue(
        conn, KIND, payload, now=datetime.now(UTC), owner_key_id=owner_key_id, max_attempts=3
    )
    assert job_id is not None  # no dedupe key: always queued
    return job_id


def run_job(engine: Engine, payload: Mapping[str, Any], job_id: int) -> dict[str, Any]:
    """One slice of a sweep job: identifiers all at once, a filter SLICE companies at a time."""
    totals = payload.get("totals") or empty_totals()
    started = time.monotonic()
    if "identifiers" in payload:
        with _writing(engine) as conn, conn.begin():
            return sweep_identifiers(conn, payload["identifiers"]) | {
                "root_job_id": payload.get("root", job_id)
            }
    filters = CompanyFilters.model_validate(payload["filter"])
    after = int(payload.get("after", 0))
    done = 0
    while True:
        # The rules run on a read transaction; only the write takes the lock, so other writers (an import, a
        # second sweep) wait for the insert alone, not for the rules.
        with engine.connect() as conn:
            cond = conditions(filters, reference(conn))
            ids = queries.id_page(conn, cond.where, after, BATCH, cond.needs_financials)
            if not ids:
                return finish(totals) | {
                    "filter": payload["filter"],
                    "root_job_id": payload.get("root", job_id),
                }
            assessed = assess_ids(conn, ids)
        with _writing(engine) as conn, conn.begin():
            save_assessed(conn, assessed, totals)
        after, done = ids[-1], done + len(ids)
        if done >= SLICE or time.monotonic() - started > SLICE_SECONDS:
            with begin_write(engine) as conn:
                nxt = enqueue(
                    conn,
                    {
                        "filter": payload["filter"],
                        "after": after,
                        "totals": totals,
                        "root": payload.get("root", job_id),
                    },
                    payload.get("owner"),
                )
            return {"continued_by": nxt, "processed": totals["processed"]}


def status(conn: Connection, job_id: int, owner_key_id: int) -> dict[str, Any]:
    """The sweep's state, following its continuation jobs; another key's job is not found."""
    job = jobs_db.get(conn, job_id)
    if job is None or job["kind"] != KIND or job["owner_key_id"] != owner_key_id:
        raise NotFound(f"No NIS2 sweep job {job_id}")
    hops = 0
    while job["status"] == jobs_db.DONE and (job["result"] or {}).get("continued_by") and hops < 10_000:
        nxt = jobs_db.get(conn, int(job["result"]["continued_by"]))
        if nxt is None:
            break
        job, hops = nxt, hops + 1
    result = job["result"] if job["status"] == jobs_db.DONE else None
    processed = (
        (result or {}).get("processed")
        if result
        else (job["payload"].get("totals") or {}).get("processed", 0)
    )
    return {
        "job_id": job_id,
        "status": job["status"],
        "current_job_id": job["id"],
        "processed": processed or 0,
        "error": job["last_error"] if job["status"] == jobs_db.FAILED else None,
        "created_at": job["created_at"],
        "finished_at": job["finished_at"] if result else None,
        "result": result,
        "status_url": STATUS_PATH.format(job_id=job_id),
    }


def validate_filter(conn: Connection, filters: CompanyFilters) -> None:
    """Fail now (422/501) on a filter the job could not run."""
    conditions(filters, reference(conn))
