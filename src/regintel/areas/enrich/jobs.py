"""The worker's side of enrichment jobs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from regintel.api.envelope import dumps
from regintel.areas.enrich import queries
from regintel.areas.enrich.service import CHUNK, KIND
from regintel.jobs.registry import JobContext, Permanent, job_handler
from regintel.services import lookup as lookup_svc


@job_handler(KIND)
def enrich_lookup(ctx: JobContext, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Answer every identifier of the job, chunk by chunk, from where an earlier attempt stopped."""
    items = payload.get("identifiers")
    if not isinstance(items, list):
        raise Permanent("payload without an identifier list")
    country = payload.get("country")
    with ctx.engine.connect() as conn:
        start = queries.next_position(conn, ctx.job_id)
    for low in range(start, len(items), CHUNK):
        with ctx.engine.begin() as conn:
            answers = lookup_svc.bulk(conn, items[low:low + CHUNK], country)
            for answer in answers:
                answer["index"] += low
            # The JSON the REST API would send (dates as ISO strings, amounts as numbers).
            queries.save(conn, ctx.job_id, orjson.loads(dumps(answers)))
    with ctx.engine.connect() as conn:
        return {"total": len(items), "counts": queries.counts(conn, ctx.job_id)}
