"""Job handler of the security area: `security.check` (one host's passive check, queued by the
`/security` and `/brand-signals/{domain}` routes)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.areas.security import service
from regintel.areas.security.names import NotAHost, normalise_host
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
