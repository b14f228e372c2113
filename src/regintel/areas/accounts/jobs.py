"""The worker's side of withholding natural persons: the search index forgets a withheld sole trader's
company row or a register person's row, and learns them again after a lift (docs/accounts.md).

The index follows written rows by its watermark (`updated_at`, the newest person id); a deleted row leaves
nothing to follow, and a row put back under its old id is behind the watermark. So the withholding's
transaction queues this job naming the ids, and the worker makes their documents what the database holds."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.db import jobs as jobs_db
from regintel.jobs.registry import JobContext, Permanent, job_handler
from regintel.search import get_backend, index_transaction

SEARCH_SYNC = "accounts.search_sync"


def queue_search_sync(
    conn: Connection, now: datetime, company_ids: Iterable[int] = (), people_ids: Iterable[int] = ()
) -> int | None:
    """Queue the index's sync of these ids in the caller's transaction (None when there are none)."""
    payload = {"company_ids": sorted(set(company_ids)), "people_ids": sorted(set(people_ids))}
    if not payload["company_ids"] and not payload["people_ids"]:
        return None
    # many attempts: an import or a rebuild may hold the index's writer for minutes (IndexBusy)
    return jobs_db.enqueue(conn, SEARCH_SYNC, payload, now=now, priority=50, max_attempts=12)


def _ids(payload: Mapping[str, Any], name: str) -> list[int]:
    ids = payload.get(name, [])
    if not isinstance(ids, list) or not all(isinstance(i, int) for i in ids):
        raise Permanent(f"payload's {name} is not a list of ids")
    return ids


@job_handler(SEARCH_SYNC)
def search_sync(ctx: JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    companies, people = _ids(payload, "company_ids"), _ids(payload, "people_ids")
    backend = get_backend(ctx.engine, ctx.settings)
    with index_transaction(ctx.engine) as conn:
        written = backend.sync(conn, companies, people)  # IndexBusy: tried again with back-off
    return {"backend": backend.name, "companies": len(companies), "people": len(people), "written": written}
