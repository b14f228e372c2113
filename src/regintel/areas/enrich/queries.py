"""The enrich area's SQL: the job rows of one key, the answers table, and the withdrawal of answers naming a
withheld person (`privacy.py`)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Text, delete, func, or_, select, update
from sqlalchemy import cast as sql_cast
from sqlalchemy.engine import Connection
from sqlalchemy.sql.elements import ColumnElement

from regintel.areas.enrich.tables import enrich_results
from regintel.db import jobs as jobs_db
from regintel.db.engine import insert_for
from regintel.db.schema import jobs

# A RowMapping is read by column name, but SQLAlchemy types it Mapping[str | Column, Any] and a Mapping's key
# type is invariant, so rows are cast (no run-time change) to the Mapping[str, Any] the callers read.

r = enrich_results.c


def job_of_key(conn: Connection, job_id: int, key_id: int, kind: str) -> Mapping[str, Any] | None:
    """The job, when this key made it (another key's job reads as missing)."""
    row = conn.execute(
        select(jobs).where(jobs.c.id == job_id, jobs.c.owner_key_id == key_id, jobs.c.kind == kind)
    ).first()
    item = None if row is None else row._mapping
    return cast("Mapping[str, Any] | None", item)


def counts(conn: Connection, job_id: int) -> dict[str, int]:
    rows = conn.execute(select(r.status, func.count()).where(r.job_id == job_id).group_by(r.status))
    return {status: int(n) for status, n in rows}


def answered(conn: Connection, job_id: int) -> set[int]:
    """The positions with an answer: a resumed run answers the others (after the last chunk a dead run
    wrote, or the positions withdrawn when a person was withheld, `privacy.py`)."""
    return {int(i) for i in conn.execute(select(r.idx).where(r.job_id == job_id)).scalars()}


def run_started(conn: Connection, job_id: int) -> datetime | None:
    started = conn.execute(select(jobs.c.started_at).where(jobs.c.id == job_id)).scalar()
    return cast("datetime | None", started)


def own_run(conn: Connection, job_id: int, started: datetime | None) -> bool:
    """Whether the run that began at `started` still owns the job; first in a write transaction, as a
    write that takes the job row's lock (on SQLite the write lock), so a withholding that hands the job to a
    new run (`privacy.withdraw` clears `started_at`) is either seen here or waits for this transaction."""
    mine = conn.execute(
        update(jobs)
        .where(jobs.c.id == job_id, jobs.c.started_at.is_not_distinct_from(started))
        .values(started_at=jobs.c.started_at)
    )
    return bool(mine.rowcount)


def save(conn: Connection, job_id: int, answers: Sequence[Mapping[str, Any]]) -> None:
    rows = [{"job_id": job_id, "idx": a["index"], "status": a["status"], "body": dict(a)} for a in answers]
    if rows:
        conn.execute(
            insert_for(conn, enrich_results).on_conflict_do_nothing(index_elements=["job_id", "idx"]), rows
        )


def page(conn: Connection, job_id: int, after: int, limit: int) -> list[Mapping[str, Any]]:
    query = select(r.idx, r.body).where(r.job_id == job_id, r.idx > after).order_by(r.idx).limit(limit)
    rows = list(conn.execute(query).mappings())
    return cast("list[Mapping[str, Any]]", rows)


# -- withdrawing the answers that name a withheld person (privacy.py) ----------------------------------------


def requeue_running(conn: Connection, kind: str, again: Mapping[str, Any], now: datetime) -> None:
    """Hand every running job of `kind` to a new run (`again`: the job row's values of a new run), with a
    full set of tries."""
    conn.execute(
        update(jobs)
        .where(jobs.c.kind == kind, jobs.c.status == jobs_db.RUNNING)
        .values({**again, "run_after": now, "max_attempts": jobs.c.attempts + 5})
    )


def answers_holding(conn: Connection, texts: Sequence[str]) -> dict[int, set[int]]:
    """`job id -> positions` of the stored answers whose JSON text holds one of `texts`."""
    found: dict[int, set[int]] = defaultdict(set)
    if texts:
        body = sql_cast(r.body, Text)
        query = select(r.job_id, r.idx).where(or_(*[body.contains(t, autoescape=True) for t in texts]))
        for job_id, idx in conn.execute(query):
            found[int(job_id)].add(int(idx))
    return found


def jobs_to_withdraw(
    conn: Connection, kind: str, job_ids: Sequence[int], key: str | None
) -> list[Mapping[str, Any]]:
    """Id, status and payload of the jobs of `kind` among `job_ids` and, given `key`, of those whose payload
    holds `key` as a JSON string."""
    mine: ColumnElement[bool] = jobs.c.id.in_(list(job_ids))
    if key is not None:
        mine = or_(mine, sql_cast(jobs.c.payload, Text).contains(json.dumps(key), autoescape=True))
    query = select(jobs.c.id, jobs.c.status, jobs.c.payload).where(jobs.c.kind == kind, mine)
    return cast("list[Mapping[str, Any]]", list(conn.execute(query).mappings()))


def delete_answers(conn: Connection, job_id: int, positions: Sequence[int]) -> int:
    """Delete a job's answers at `positions`; returns how many."""
    return int(conn.execute(delete(enrich_results).where(r.job_id == job_id, r.idx.in_(positions))).rowcount)


def set_job(conn: Connection, job_id: int, values: Mapping[str, Any], more_tries: bool = False) -> None:
    """Write `values` to the job row; `more_tries`: a full set of tries on top of those made."""
    extra = {"max_attempts": jobs.c.attempts + 5} if more_tries else {}
    conn.execute(update(jobs).where(jobs.c.id == job_id).values({**values, **extra}))
