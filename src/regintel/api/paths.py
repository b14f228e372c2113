"""Path convertors and shared path/query parameter declarations."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated

from pydantic import BeforeValidator
from starlette.convertors import Convertor, register_url_convertor


class CountryConvertor(Convertor[str]):
    """Two letters: lets `/companies/{country}/{national_id}` and `/companies/{ico}/history` coexist,
    since routing (not validation) then tells a country code from a national identifier."""

    regex = "[A-Za-z]{2}"

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("cc", CountryConvertor())


def _iso_only(value: object) -> object:
    # pydantic's lax mode reads `0.5` or `1700000000` as Unix time; the document says ISO 8601, and a
    # number where a date belongs is more likely a mistake than a timestamp.
    if isinstance(value, str) and not _ISO_START.match(value.strip()):
        raise ValueError("expected an ISO 8601 date (2026-01-31) or date-time (2026-01-31T12:00:00Z)")
    return value


_ISO_START = re.compile(r"^\d{4}-\d{2}-\d{2}")
IsoDateTime = Annotated[datetime, BeforeValidator(_iso_only)]
IsoDate = Annotated[date, BeforeValidator(_iso_only)]
