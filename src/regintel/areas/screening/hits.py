"""Company hits, precomputed: every company's name, and the names of its current officers and owners,
screened at the default threshold after each list import (job `screening.company_hits`). The
advanced-search `sanctioned` filter and `/public/stats/sanctions` read the hits; the credit and risk
scores also read `company_screenings`, the time and list versions each company was screened against, so
that "screened, no hit" is told apart from "not screened". Between list imports, the companies an import
adds, renames or gives new officers are screened by the job `screening.changed_companies`, which the loader
queues in the batch transaction that wrote them (`db.jobs.queue_screening`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from regintel.areas.screening import queries
from regintel.areas.screening.index import current_index
from regintel.areas.screening.service import subject_kind
from regintel.db.engine import begin_write
from regintel.db.jobs import SCREENED_FIELDS
from regintel.domain.screening import ALGORITHM, DEFAULT_THRESHOLD, Subject
from regintel.domain.screening_index import ScreeningIndex

BATCH = 1_000
# screen_changed_companies: change ids read before the job's first one, and how long before a change a
# screening may have begun and still have missed it (longer than any batch transaction).
SLACK = 20_000
IN_FLIGHT = timedelta(minutes=5)


def _subjects(
    company: Mapping[str, Any], roles: Sequence[Mapping[str, Any]]
) -> list[tuple[str, bool, Subject]]:
    ids = [v for v in (company["national_id"], company["lei"], company["vat_id"]) if v]
    out = [("company", False, Subject.build(company["name"], "organization", [company["country"]], (), ids))]
    for r in roles:
        natural = r["person_id"] is not None
        kind = subject_kind(r["role"])
        out.append((kind, natural, Subject.build(r["holder_name"], "person" if natural else "organization")))
    return out


def _hit_rows(
    index: ScreeningIndex, company: Mapping[str, Any], roles: Sequence[Mapping[str, Any]], now: datetime
) -> list[dict[str, Any]]:
    rows: dict[tuple[int, str, str], dict[str, Any]] = {}
    for kind, natural, subject in _subjects(company, roles):
        if not subject.tokens:
            continue
        for m in index.screen(subject, DEFAULT_THRESHOLD, limit=5):
            rows.setdefault(
                (m.entry_id, kind, subject.name),
                {
                    "company_id": company["id"],
                    "entry_id": m.entry_id,
                    "subject": kind,
                    "subject_name": subject.name,
                    "natural_person": natural,
                    "score": m.score,
                    "algorithm": ALGORITHM,
                    "computed_at": now,
                    "features": [{"name": f.name, "value": f.value, "weight": f.weight} for f in m.features],
                },
            )
    return list(rows.values())


def _screening_now(engine: Engine) -> tuple[ScreeningIndex, dict[str, Any]]:
    """The index of every list and the record a screening against it leaves (`company_screenings`)."""
    now = datetime.now(UTC)
    with engine.connect() as conn:
        # Read before the index is built: if an import lands in between, the recorded versions are the
        # older ones (the screening looks stale, and that import queued the next run), never newer.
        versions = {str(r["id"]): int(r["version"]) for r in queries.all_lists(conn)}
        index, _ = current_index(conn, fresh=True)
    return index, {
        "screened_at": now,
        "list_versions": versions,
        "algorithm": ALGORITHM,
        "threshold": DEFAULT_THRESHOLD,
    }


def _screen_chunk(
    conn: Connection, index: ScreeningIndex, chunk: Sequence[Mapping[str, Any]], screened: dict[str, Any]
) -> int:
    """Screen and record one chunk of companies in the caller's transaction; returns its hit count."""
    now = screened["screened_at"]
    ids = [int(c["id"]) for c in chunk]
    roles: dict[int, list[Mapping[str, Any]]] = {}
    for r in queries.roles_of_companies(conn, ids, now.date()):
        roles.setdefault(int(r["company_id"]), []).append(r)
    rows = [row for c in chunk for row in _hit_rows(index, c, roles.get(int(c["id"]), []), now)]
    queries.replace_company_hits(conn, ids, rows)
    queries.replace_screenings(conn, ids, screened)
    return len(rows)


def refresh_company_hits(engine: Engine, batch: int = BATCH) -> dict[str, int]:
    """Recompute the hits of every company, one transaction a batch."""
    index, screened = _screening_now(engine)
    after, companies, hits = 0, 0, 0
    while True:
        with begin_write(engine) as conn:
            chunk = queries.company_batch(conn, after, batch)
            if not chunk:
                break
            hits += _screen_chunk(conn, index, chunk, screened)
        after, companies = int(chunk[-1]["id"]), companies + len(chunk)
    return {"companies": companies, "hits": hits}


def _aware(at: datetime) -> datetime:
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def screen_changed_companies(engine: Engine, from_change: int, batch: int = BATCH) -> dict[str, Any]:
    """Screen the companies whose change rows from `from_change` on created them or changed a screened
    field (job `screening.changed_companies`, queued by the import that wrote them), unless a screening
    since that change already covers them. Without any list imported nothing is screened: the companies
    stay "not screened", and the first list import screens every company."""
    with engine.connect() as conn:
        through = queries.last_change_id(conn)
        if not queries.all_lists(conn):
            return {"companies": 0, "hits": 0, "through_change": through, "reason": "no sanctions list"}
        # On PostgreSQL a batch that drew its change ids before another's may commit after it (and then
        # found this job waiting): reading SLACK ids further back covers it; the screened ones are skipped.
        changed = queries.changed_companies(conn, max(0, from_change - 1 - SLACK), through, SCREENED_FIELDS)
        done = queries.screenings_of(conn, list(changed)) if changed else {}
    # A change is stamped when its batch began and seen when it committed, so a screening that began a
    # little after the stamp may still have read the company as it was.
    due = sorted(
        i
        for i, at in changed.items()
        if i not in done or _aware(done[i]["screened_at"]) < _aware(at) + IN_FLIGHT
    )
    if not due:
        return {"companies": 0, "hits": 0, "through_change": through}
    index, screened = _screening_now(engine)
    hits = 0
    for start in range(0, len(due), batch):
        with begin_write(engine) as conn:
            chunk = queries.companies_by_id(conn, due[start : start + batch])
            hits += _screen_chunk(conn, index, chunk, screened)
    return {"companies": len(due), "hits": hits, "through_change": through}
