"""Job handlers of the public-money area: `public_money.relink`, queued by a company import that wrote
companies (`db.jobs.enqueue_relink`), re-resolves the parties stored without a company (`relink.py`).
Payload: `{"country": "SK"}` (only that country's parties) or `{}` (all)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.db.jobs import RELINK_PUBLIC_MONEY
from regintel.jobs.registry import JobContext, Permanent, job_handler
from regintel.search import get_backend

from .relink import relink


def relink_country(payload: Mapping[str, Any]) -> str | None:
    """The payload's `country` (two capital letters) or None; anything else fails the job for good.
    The funds and legal-records relink jobs read their payload with it too."""
    country = payload.get("country")
    if country is not None and not (
        isinstance(country, str) and len(country) == 2 and country.isalpha() and country.isupper()
    ):
        raise Permanent("payload country must be an ISO 3166-1 alpha-2 code or absent")
    if set(payload) - {"country"}:
        raise Permanent(f"unknown payload fields: {', '.join(sorted(set(payload) - {'country'}))}")
    return country


@job_handler(RELINK_PUBLIC_MONEY)
def relink_job(ctx: JobContext, payload: Mapping[str, Any]) -> Mapping[str, Any] | None:
    country = relink_country(payload)
    return relink(ctx.engine, get_backend(ctx.engine, ctx.settings), country)
