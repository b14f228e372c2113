"""The e-Business Register's JSON files (`ettevotja_rekvisiidid__*.json`): a JSON array of entities,
{ariregistri_kood, nimi, <section>: ...}, each read into one record by its file's own reader. The
general data, the card persons and the two owner files share this reading; a file whose first entity
lacks the registry code or the file's section is refused whole."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from typing import IO, Any

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.fields import date_in_name, text
from regintel.ingest.jsonstream import json_objects


def entity_records(
    stream: IO[bytes], name: str, section: str, to_record: Callable[[Any, date | None], CompanyRecord]
) -> Iterator[CompanyRecord | RecordError]:
    """`to_record` of each entity, dated by the file name; a `RecordError` (with the entity) for an
    entity it refuses."""
    published = date_in_name(name)
    first = True
    for obj in json_objects(stream):
        if isinstance(obj, RecordError):
            yield obj
            continue
        if first and not (isinstance(obj, dict) and "ariregistri_kood" in obj and section in obj):
            raise SourceAbort(f"not an e-Business Register {section} file (no ariregistri_kood / {section})")
        first = False
        try:
            yield to_record(obj, published)
        except RecordError as exc:
            exc.raw = obj
            yield exc


def entity_code(obj: Any) -> str:
    """The registry code of an entity entry; `RecordError` when the entry is no entity."""
    if not isinstance(obj, dict):
        raise RecordError("an entity entry is not an object")
    code = text(obj.get("ariregistri_kood"), "ariregistri_kood")
    if code is None:
        raise RecordError("an entity entry without ariregistri_kood")
    return code
