"""GLEIF LEI-CDF 3.1 (Level 1 "who is who"): golden copy and delta files, XML or JSON.

Each LEI record becomes a `LeiRecord`; when its registration authority is a national register whose
entity id is our company key (`gleif_registers`), also a `CompanyRecord` with the GLEIF legal name,
legal address, ELF legal form, status and LEI. GLEIF is a secondary source (`fill_only`): it creates
companies the registers have not brought yet and fills gaps, but never overrides a register's value;
the companies only GLEIF describes follow its changes (`keeps_own_current`).
A delta file carries whole changed records, so it is imported exactly like a golden copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import Record
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.gleif_common import ATTRIBUTION, GOLDEN_COPY_URL, LICENCE, LICENCE_URL, PUBLISHER
from regintel.ingest.sources.gleif_lei import map_lei_record
from regintel.ingest.sources.gleif_stream import LAYOUTS, GleifFile

INFO = SourceInfo(
    id="gleif",
    name="GLEIF LEI data (LEI-CDF 3.1, Level 1)",
    publisher=PUBLISHER,
    country=None,
    category="lei",
    formats="LEI-CDF 3.1 XML or golden-copy JSON; full and delta files; .zip/.gz",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url=GOLDEN_COPY_URL,
    cadence="daily",
    fill_only=True,
    keeps_own_current=True,
)


class GleifLeiSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError]:
        document = GleifFile(stream, name, LAYOUTS[0])
        published: list[date | None] = []  # known once the header has been read
        for node in document.records():
            if isinstance(node, RecordError):
                yield node
                continue
            published = published or [document.published_on]
            try:
                yield from map_lei_record(node, published[0])
            except RecordError as exc:
                yield RecordError(exc.reason, node)


register(GleifLeiSource())
