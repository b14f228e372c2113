"""Slovak Register of Legal Entities (Register právnických osôb, RPO) of the Statistical Office.

Input: the RPO API's JSON (api.statistics.sk/rpo/v1) in any of three shapes: a search response
(`{"results": [...], "license": "..."}`), one full entity (`/rpo/v1/entity/{id}`), or JSON lines of
entities (one entity a line, as a bulk dump holds them). Big documents are streamed with ijson,
JSON lines line by line. See docs/sources/sk_rpo.md for the field mapping.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.types import Record
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.sk_rpo_entity import to_company

INFO = SourceInfo(
    id="sk_rpo",
    name="Register právnických osôb (RPO)",
    publisher="Štatistický úrad Slovenskej republiky (ŠÚ SR)",
    country="SK",
    category="register",
    formats="RPO API JSON: search response, entity object, JSON lines of entities",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Zdroj: Register právnických osôb, Štatistický úrad SR (CC BY 4.0)",
    url="https://api.statistics.sk/rpo/v1",
    cadence="daily",
)

# Keys that every RPO entity carries, in the search form and the full form alike.
_ENTITY_KEYS = ("identifiers", "fullNames")


def is_entity(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _ENTITY_KEYS)


class SkRpo:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        first = True
        for value in json_objects(stream, ["results.item"]):
            if isinstance(value, RecordError):
                yield value
                continue
            if first and not is_entity(value):
                raise SourceAbort(
                    f"{name} is not RPO data: its first object has none of "
                    f"{', '.join(_ENTITY_KEYS)} (an RPO search response or entity)"
                )
            first = False
            yield self._record(value)

    @staticmethod
    def _record(value: Any) -> Record | RecordError:
        if not is_entity(value):
            return RecordError("not an RPO entity (no identifiers or fullNames)", value)
        try:
            return to_company(value)
        except RecordError as exc:
            return RecordError(exc.reason, value)


register(SkRpo())
