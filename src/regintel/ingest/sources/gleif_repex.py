"""GLEIF reporting exceptions: why an LEI reports no direct or ultimate accounting parent.

Golden copy or delta, XML or JSON. One `ReportingExceptionRecord` per exception, keyed by LEI and
category, so a later file's reason replaces the earlier one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO

from regintel.domain.types import Record, ReportingExceptionRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.gleif_common import (
    ATTRIBUTION,
    GOLDEN_COPY_URL,
    LICENCE,
    LICENCE_URL,
    PUBLISHER,
    Node,
    children,
    code,
    lei,
    text,
)
from regintel.ingest.sources.gleif_stream import LAYOUTS, GleifFile

INFO = SourceInfo(
    id="gleif_repex",
    name="GLEIF reporting exceptions (Level 2)",
    publisher=PUBLISHER,
    country=None,
    category="lei",
    formats="Reporting Exceptions 2.1 XML or golden-copy JSON; full and delta files; .zip/.gz",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url=GOLDEN_COPY_URL,
    cadence="daily",
)


def map_exception(node: Node) -> ReportingExceptionRecord:
    code_ = lei(text(node, "LEI"))
    category = code(node, "ExceptionCategory", width=48)
    reasons = [code(r, width=48) for r in children(node, "ExceptionReason")]
    if not category or not reasons or not reasons[0]:
        raise RecordError(f"no ExceptionCategory or ExceptionReason: {code_}")
    references = [text(r) for r in children(node, "ExceptionReference")]
    return ReportingExceptionRecord(
        lei=code_,
        category=category,
        reason=reasons[0],
        reference="; ".join(r for r in references if r) or None,
    )


class GleifReportingExceptionSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError]:
        for node in GleifFile(stream, name, LAYOUTS[2]).records():
            if isinstance(node, RecordError):
                yield node
                continue
            try:
                yield map_exception(node)
            except RecordError as exc:
                yield RecordError(exc.reason, node)


register(GleifReportingExceptionSource())
