"""Job handlers of the public-money area: `public_money.relink`, queued by a company import that wrote
companies (`db.jobs.enqueue_relink`), re-resolves the parties stored without a company (`relink.py`).
Payload: `{"country": "SK"}` (only that country's parties) or `{}` (all)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.db.jobs import RELINK_PUBLIC_MONEY
from regintel.jobs.registry import JobContext, job_handler
from regintel.jobs.relink import relink_country
from regintel.search import get_backend

from .relink import relink


@job_handler(RELINK_PUBLIC_MONEY)
def relink_job(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    country = relink_country(payload)
    return relink(ctx.engine, get_backend(ctx.engine, ctx.settings), country)
