"""The worker's side of enrichment jobs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import orjson
from sqlalchemy.engine import Connection

from regintel.api.envelope import dumps
from regintel.areas.catalogue.code_lists import parse_country
from regintel.areas.companies import lookup as lookup_svc
from regintel.areas.enrich import queries, sections
from regintel.areas.enrich.service import CHUNK, KIND
from regintel.areas.search import resolve as resolve_svc
from regintel.db import lookup as lookup_db
from regintel.db.engine import begin_write
from regintel.errors import ValidationFailed
from regintel.jobs.registry import JobContext, Permanent, job_handler
from regintel.search import IndexBusy, SearchBackend, get_backend, index_transaction

TIE = 0.01  # a runner-up this close to the best name match makes the answer `ambiguous`


def _is_name(entry: Any) -> bool:
    return isinstance(entry, dict) and "name" in entry


@job_handler(KIND)
def enrich_lookup(ctx: JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Answer every entry of the job, chunk by chunk, from where an earlier attempt stopped."""
    items = payload.get("identifiers")
    if not isinstance(items, list):
        raise Permanent("payload without an identifier list")
    country = payload.get("country")
    try:
        names = sections.parse(payload.get("sections") or [])
    except ValidationFailed as exc:  # a section this version no longer knows: retrying cannot help
        raise Permanent(exc.message) from None
    personal = bool(payload.get("personal"))
    with ctx.engine.connect() as conn:
        done = queries.answered(conn, ctx.job_id)
        started = queries.run_started(conn, ctx.job_id)
    todo = [i for i in range(len(items)) if i not in done]
    backend: list[SearchBackend] = []

    def search() -> SearchBackend:
        """The search index, brought up to date once per run, and only when a name is to be resolved."""
        if not backend:
            backend.append(get_backend(ctx.engine, ctx.settings))
            try:
                with index_transaction(ctx.engine) as conn:
                    backend[0].ensure_current(conn)
            except IndexBusy:  # an import or rebuild holds it: resolve against the index as it is
                pass
        return backend[0]

    for low in range(0, len(todo), CHUNK):
        # Read, then write in a transaction of its own: on SQLite a transaction that has read cannot take
        # the write lock while another connection writes (an API request counting its quota), and
        # resolving names makes the read part long. The positions keep a chunk written once.
        positions = todo[low : low + CHUNK]
        with ctx.engine.connect() as conn:
            answers = answer_chunk(conn, [items[i] for i in positions], country, search)
            if names:
                add_sections(conn, answers, names, personal)
        for answer in answers:
            answer["index"] = positions[answer["index"]]
        with begin_write(ctx.engine) as conn:
            if not queries.own_run(conn, ctx.job_id, started):
                # a person was withheld while this run read (privacy.py): a new run answers the job
                return {"superseded": True}
            # The JSON the REST API would send (dates as ISO strings, amounts as numbers).
            queries.save(conn, ctx.job_id, orjson.loads(dumps(answers)))
    with ctx.engine.connect() as conn:
        return {"total": len(items), "counts": queries.counts(conn, ctx.job_id)}


def answer_chunk(
    conn: Connection, chunk: list[Any], country: str | None, search: Callable[[], SearchBackend]
) -> list[dict[str, Any]]:
    """Identifiers as `POST /companies/bulk` answers them (one query for the chunk), names one by one
    as `/companies/resolve` resolves them; in the chunk's order, `index` counted within the chunk."""
    out: list[dict[str, Any]] = [{} for _ in chunk]
    by_id = [i for i, entry in enumerate(chunk) if not _is_name(entry)]
    for pos, answer in zip(by_id, lookup_svc.bulk(conn, [chunk[i] for i in by_id], country), strict=True):
        out[pos] = dict(answer) | {"index": pos}
    for pos, entry in enumerate(chunk):
        if _is_name(entry):
            out[pos] = by_name(conn, search(), entry, country) | {"index": pos}
    return out


def add_sections(conn: Connection, answers: list[dict[str, Any]], names: list[str], personal: bool) -> None:
    """Each found answer gets `sections` (name -> `{present, reason, data}`), read for the chunk's companies
    together (`sections.build`); the other answers name no company, so they get none."""
    found = [a["company"] for a in answers if a["status"] == "found"]
    wanted = {(c["country"], c["nationalId"]) for c in found}
    rows: list[Mapping[str, Any]] = [
        dict(r)
        for r in lookup_db.companies_by_national_ids(conn, {nid for _, nid in wanted})
        if (r["country"], r["national_id"]) in wanted
    ]
    built = sections.build(conn, rows, names, personal)
    by_key = {(r["country"], r["national_id"]): built[int(r["id"])] for r in rows}
    for a in answers:
        if a["status"] == "found":
            a["sections"] = by_key.get((a["company"]["country"], a["company"]["nationalId"]))


def by_name(
    conn: Connection, backend: SearchBackend, entry: Mapping[str, Any], country: str | None
) -> dict[str, Any]:
    head = {"input": dict(entry)}
    try:
        cc = parse_country(str(entry.get("country") or country)) if entry.get("country") or country else None
    except ValidationFailed as exc:
        return head | {"status": "invalid", "reason": exc.message}
    text = str(entry["name"]) + (f", {entry['city']}" if entry.get("city") else "")
    best, others = resolve_svc.resolve(conn, backend, text, cc)
    threshold = resolve_svc.RESOLVE_THRESHOLD
    if best is None:
        return head | {
            "status": "not_found",
            "reason": f"no company matches this name with a score of at least {threshold}",
            "candidates": [c.as_dict(threshold) for c in others[:3]],
        }
    if others and others[0].score >= threshold and best.score - others[0].score < TIE:
        return head | {
            "status": "ambiguous",
            "reason": "several companies match this name equally well; add the "
            "city or country, or an identifier",
            "candidates": [c.as_dict(threshold) for c in [best, *others[:4]]],
        }
    found = lookup_svc.bulk(conn, [{"country": best.row["country"], "id": best.row["national_id"]}], None)[0]
    return found | head | {"match": {"score": round(best.score, 4), "reasons": resolve_svc.reasons(best)}}
