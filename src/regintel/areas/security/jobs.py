"""Job handlers of the security area: `security.check` (one host's passive check, queued by the
`/security` and `/brand-signals/{domain}` routes and by the re-check) and `security.recheck` (queues the
checks older than the configured age; periodic with `every_hours`: `python -m regintel.areas.security`)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from regintel.areas.security import service
from regintel.areas.security.names import NotAHost, normalise_host
from regintel.db.engine import begin_write
from regintel.jobs.registry import JobContext, Permanent, job_handler


@job_handler(service.JOB_KIND)
def check(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    try:
        host = normalise_host(str(payload.get("host") or "")).host
    except NotAHost as exc:
        raise Permanent(str(exc)) from None
    result = service.run_check(ctx.engine, ctx.settings, host)
    if result["status"] == "failed":  # stored, and tried again with back-off while attempts remain
        raise RuntimeError(f"security check of {host} got no DNS answer")
    return result


@job_handler(service.RECHECK_JOB)
def recheck(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("max_age_hours", "every_hours"):
        value = payload.get(key)
        if value is not None and (
            not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 8760
        ):
            raise Permanent(f"{key} must be a whole number of hours from 1 to 8760, not {value!r}")
    with begin_write(ctx.engine) as conn:
        return service.recheck_stale(conn, ctx.settings, datetime.now(UTC), payload)
