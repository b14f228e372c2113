"""RÚZ filed statements (`/cruz-public/api/uctovna-zavierka?id=`) as filed documents, for
`/companies/{ico}/annual-reports` (docs/compliance.md, "Filed documents").

`sk_registeruz` reads the same headers to place the figures of their reports; this source keeps every
filed statement as a document (ordinary, extraordinary, interim, consolidated), with the ids of the
reports and annual reports filed inside it. The compliance area imports it
(`areas/compliance/filing_import.py`) into `filed_statements`.

Input: one statement object, a JSON array of them, or JSON lines of them (one answer of the detail
endpoint a line), read as a stream; units, reports and annual reports mixed in (the bulk form
`sk_registeruz` reads) are skipped. The list endpoint (`/api/uctovne-zavierky?zmenene-od=`) answers only ids
(`{"id": [...], "pocetZostavajucichId": n}`): such a file is refused whole, naming the detail endpoint
to fetch each id from.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import IO, Any, cast

from regintel.domain.identifiers import parse_national_id
from regintel.domain.names import fold
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, Skipped, Source, SourceAbort, SourceInfo
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.sk_registeruz import kind_of
from regintel.ingest.sources.sk_registeruz_units import STATEMENT_KINDS, Json, day, month, text


@dataclass(frozen=True)
class FiledStatement:
    """One statement filed in RÚZ."""

    statement_id: str
    national_id: str | None
    unit_id: str | None
    name: str | None
    period_from: str | None
    period_to: str
    compiled_on: date | None
    kind: str
    consolidated: bool | None
    data_source: str | None
    updated_on: date | None
    report_ids: list[int]
    annual_report_ids: list[int]


def _ids(node: Json, key: str) -> list[int]:
    value = node.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise RecordError(f"{key} is not a list of ids: {str(value)[:60]!r}")
    return sorted(set(value))


def to_filed(node: Any) -> FiledStatement:
    """The filed statement of a detail answer; `RecordError` saying why it cannot be one."""
    if not isinstance(node, dict):
        raise RecordError(f"not a statement object: {str(node)[:60]!r}")
    sid, period_to = text(node, "id"), month(node, "obdobieDo")
    if not sid or not sid.isdigit() or not period_to:
        raise RecordError("statement without a numeric id or obdobieDo")
    ico, unit = text(node, "ico"), text(node, "idUJ")
    if ico:
        try:
            ico = parse_national_id("SK", ico)
        except InvalidIdentifier as exc:
            raise RecordError(f"invalid IČO {ico!r}: {exc.message}") from None
    elif not unit:
        raise RecordError(f"statement {sid} names no accounting unit (ico, idUJ)")
    typ = text(node, "typ")
    kind = STATEMENT_KINDS.get(fold(typ or ""))
    if kind is None:
        raise RecordError(f"statement {sid}: unknown typ {typ!r}")
    consolidated = node.get("konsolidovana")
    if consolidated is not None and not isinstance(consolidated, bool):
        raise RecordError(f"statement {sid}: konsolidovana is not true/false")
    return FiledStatement(
        statement_id=sid,
        national_id=ico,
        unit_id=unit,
        name=text(node, "nazovUJ"),
        period_from=month(node, "obdobieOd"),
        period_to=period_to,
        compiled_on=day(node, "datumZostaveniaK"),
        kind=kind,
        consolidated=consolidated,
        data_source=text(node, "zdrojDat"),
        updated_on=day(node, "datumPoslednejUpravy"),
        report_ids=_ids(node, "idUctovnychVykazov"),
        annual_report_ids=_ids(node, "idVyrocnychSprav"),
    )


class FiledStatements:
    suffixes = (".json", ".jsonl", ".ndjson")

    def __init__(self, info: SourceInfo):
        self.info = info

    def parse(self, stream: IO[bytes], name: str) -> Iterator[FiledStatement | RecordError | Skipped]:
        first = True
        for n, value in enumerate(json_objects(stream), 1):
            if isinstance(value, RecordError):
                yield value
                continue
            kind = kind_of(value)
            if first and kind == "id_list":
                raise SourceAbort(
                    f"{name}: a list answer (ids only); fetch each id from "
                    "/cruz-public/api/uctovna-zavierka?id="
                )
            if first and kind not in ("unit", "statement", "report", "annual_report"):
                raise SourceAbort(f"{name} is not RÚZ statements ({kind or 'unknown records'})")
            first = False
            if kind in ("unit", "report", "annual_report"):
                # the bulk JSON lines mix them in; `sk_registeruz` imports units and reports
                yield Skipped(f"RÚZ {kind.replace('_', ' ')}")
                continue
            try:
                yield to_filed(value)
            except RecordError as exc:
                yield RecordError(exc.reason, {"object": n, "record": value})

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.compliance.filing_import import run_filing_import

        return run_filing_import(engine, self, location, data_dir)


INFO = SourceInfo(
    id="sk_registeruz_filings",
    name="Register účtovných závierok (RÚZ): filed statements",
    publisher="Ministerstvo financií Slovenskej republiky (MF SR)",
    country="SK",
    category="filings",
    formats="RÚZ API JSON: statement objects (/api/uctovna-zavierka?id=), an array or JSON lines of them",
    licence="Slovak public-administration open data (free re-use with attribution)",
    attribution="Zdroj: Register účtovných závierok, MF SR",
    url="https://www.registeruz.sk/cruz-public/api",
    cadence="daily",
)
SOURCE = register(cast(Source, FiledStatements(INFO)))
