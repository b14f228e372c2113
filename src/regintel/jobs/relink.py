"""The payload of the relink jobs (`db.jobs.RELINK_KINDS`, queued by `db.jobs.enqueue_relink`), read alike
by the public-money, funds and legal-records handlers: `{"country": "SK"}` (only that country's records)
or `{}` (all)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regintel.jobs.registry import Permanent


def relink_country(payload: Mapping[str, Any]) -> str | None:
    """The payload's `country` (two capital letters) or None; anything else fails the job for good."""
    country = payload.get("country")
    if country is not None and not (
        isinstance(country, str) and len(country) == 2 and country.isalpha() and country.isupper()
    ):
        raise Permanent("payload country must be an ISO 3166-1 alpha-2 code or absent")
    if set(payload) - {"country"}:
        raise Permanent(f"unknown payload fields: {', '.join(sorted(set(payload) - {'country'}))}")
    return country
