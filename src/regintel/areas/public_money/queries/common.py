"""What the public-money query modules share: results as plain mappings, a linked company's columns."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from regintel.db.schema import companies


def mappings(result: Iterable[Any]) -> list[Mapping[str, Any]]:
    """Row mappings as the plain mappings the services take."""
    return list(cast(Iterable[Mapping[str, Any]], result))


def company_columns() -> list[Any]:
    return [
        companies.c.country.label("company_country"),
        companies.c.national_id.label("company_national_id"),
        companies.c.name.label("company_name"),
    ]
