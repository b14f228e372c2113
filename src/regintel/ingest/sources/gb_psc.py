"""UK Companies House "persons with significant control" snapshot: JSON lines, one PSC or statement
per line, `{"company_number": …, "data": {kind, name, natures_of_control, notified_on, ceased_on, …}}`,
ending with a `totals#persons-of-significant-control-snapshot` line.

The loader replaces a company's roles from this source with the roles of its record, so all lines of
one company must arrive in one record. The snapshot lists a company's lines together (it is ordered by
company), and consecutive lines with the same company number are grouped into one record; a company
whose lines were scattered would keep only its last group. PSC lines never create companies: a record
for a company not in the database (it has no name) is rejected by the loader as unknown.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from regintel.domain.types import CompanyRecord, RoleRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import date_in_name
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.gb_companies_house import ATTRIBUTION, LICENCE, LICENCE_URL, PUBLISHER
from regintel.ingest.sources.gb_psc_roles import ROLE_KINDS, role_of

INFO = SourceInfo(
    id="gb_psc",
    name="Companies House – People with significant control (PSC) snapshot",
    publisher=PUBLISHER,
    country="GB",
    category="register",
    formats="PSC snapshot JSON lines (plain, .gz or the published .zip)",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url="https://download.companieshouse.gov.uk/en_pscdata.html",
    cadence="daily",
)
SKIPPED_KINDS = {
    "persons-with-significant-control-statement": "PSC statement (no person named)",
    "super-secure-person-with-significant-control": "super-secure PSC (details withheld by law)",
    "super-secure-beneficial-owner": "super-secure beneficial owner (details withheld by law)",
    "exemptions": "PSC exemption",
}


class _Company:
    """The PSC lines of one company, gathered into its record."""

    def __init__(self, number: str, published: date | None):
        self.number = number
        self.published = published
        self.roles: list[RoleRecord] = []

    def add(self, kind: str, data: dict[str, Any], raw: Any) -> RecordError | Skipped | None:
        if kind in SKIPPED_KINDS:
            return Skipped(SKIPPED_KINDS[kind])
        if kind not in ROLE_KINDS:
            return RecordError(f"unknown PSC kind {kind!r}", raw)
        try:
            self.roles.append(role_of(kind, data))
        except RecordError as exc:
            exc.raw = raw
            return exc
        return None

    def record(self) -> CompanyRecord:
        return CompanyRecord(
            country="GB",
            national_id=self.number,
            source_record_id=self.number,
            published_on=self.published,
            roles=tuple(self.roles),
        )


class PscSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        published = date_in_name(name)
        current: _Company | None = None
        first = True
        for obj in json_objects(stream):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                _check_shape(obj)
                first = False
            data = obj.get("data") if isinstance(obj, dict) else None
            if not isinstance(data, dict):
                yield RecordError("PSC line without a data object", obj)
                continue
            kind = str(data.get("kind") or "")
            if kind.startswith("totals#"):
                yield Skipped("snapshot totals line")
                continue
            number = obj.get("company_number")
            if not isinstance(number, str) or not number.strip():
                yield RecordError("PSC line without a company_number", obj)
                continue
            number = number.strip()
            if current is not None and current.number != number:
                yield current.record()
                current = None
            current = current or _Company(number, published)
            outcome = current.add(kind, data, obj)
            if outcome is not None:
                yield outcome
        if current is not None:
            yield current.record()


def _check_shape(obj: Any) -> None:
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict) or "kind" not in obj["data"]:
        raise SourceAbort("not a Companies House PSC snapshot (JSON lines of {company_number, data: {kind}})")


SOURCE = register(PscSource())
