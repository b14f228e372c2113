"""Stored answers of enrichment jobs when a natural person is withheld or lifted (docs/enrich.md, "Withheld
persons"; the accounts area calls `withdraw`, in the withholding's or the lift's transaction).

An answer is recomputed, not redacted: each position of a job is answered from the job's own payload and
the data as it is when the worker runs (`jobs.py` answers every position without an answer), so the
answers that name the person are deleted and the job is queued again. Until the worker has answered them,
the job is not `done` and its result answers 409, so the old lines are never served; the other answers stay
as they were. The positions are kept in the job's payload under the person's key, so that the lift has
them answered again with the person.

Which answers: those whose stored JSON holds one of the person's names (any section, candidate list or
company record) or, as a JSON string, one of the national ids given (the companies the person held a role
in, a sole trader's own entry). Matching more than needed costs a recomputation, never a wrong answer.
A job that is running is queued again whatever it holds: the chunk it is answering may have been read
before the withholding, and its run writes nothing more (`jobs.py`, `queries.own_run`)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection

from regintel.areas.enrich import queries
from regintel.areas.enrich.service import KIND
from regintel.db import jobs as jobs_db

PAYLOAD_KEY = "withheld"  # the payload's record: person key -> positions answered again for it
BATCH = 1_000
# A job handed to a new run: whoever ran it cannot write to it any more (`queries.own_run`).
AGAIN: dict[str, Any] = {"status": jobs_db.QUEUED, "worker_id": None, "lease_until": None, "started_at": None}


def needles(names: Iterable[str], national_ids: Iterable[str]) -> list[str]:
    """The texts to look for in the stored JSON: names as a JSON string's inside, written with non-ASCII
    escaped (the default JSON serializer's way) or not; national ids as whole JSON strings."""
    out = {json.dumps(n, ensure_ascii=a)[1:-1] for n in names if n.strip() for a in (True, False)}
    return sorted(out) + sorted({json.dumps(i) for i in national_ids if i})


def withdraw(
    conn: Connection,
    key: str,
    names: Iterable[str],
    national_ids: Iterable[str],
    now: datetime,
    lift: bool = False,
) -> int:
    """Delete the stored answers that name the person (`names`) or the companies (`national_ids`), and
    queue their jobs again, in the caller's transaction; `lift`: also the positions answered again when
    `key` was withheld. Returns how many answers were withdrawn."""
    # Running jobs first: on PostgreSQL this waits for a chunk being written to commit, so the search
    # below sees it; a later write of that run finds its run ended (`queries.own_run`).
    queries.requeue_running(conn, KIND, AGAIN, now)
    found = queries.answers_holding(conn, needles(names, national_ids))
    # on a lift, also the jobs that recorded positions under the key (the JSON text holds it as a string)
    withdrawn = 0
    for job in queries.jobs_to_withdraw(conn, KIND, list(found), key if lift else None):
        payload: dict[str, Any] = dict(job["payload"] or {})
        record: dict[str, list[int]] = dict(payload.get(PAYLOAD_KEY) or {})
        positions = found.get(int(job["id"]), set())
        if lift:
            positions = positions | set(record.pop(key, []))
        else:
            record[key] = sorted(set(record.get(key, [])) | positions)
        if not positions:
            continue
        ordered = sorted(positions)
        for low in range(0, len(ordered), BATCH):  # bounded: SQLite limits the parameters of a statement
            part = ordered[low : low + BATCH]
            withdrawn += queries.delete_answers(conn, int(job["id"]), part)
        values: dict[str, Any] = {"payload": payload | {PAYLOAD_KEY: {k: v for k, v in record.items() if v}}}
        done = job["status"] == jobs_db.DONE
        if done:
            # a failed job stays failed (its result is never served); a queued one answers them when it runs
            values |= AGAIN | {"run_after": now, "finished_at": None, "result": None, "last_error": None}
        # a done job gets a full set of tries for the new answers
        queries.set_job(conn, int(job["id"]), values, more_tries=done)
    return withdrawn
