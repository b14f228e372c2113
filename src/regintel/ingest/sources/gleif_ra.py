"""GLEIF's registration-authorities list (CSV) → the `registration_authorities` reference table.

The list names the register behind each RA code of an LEI record. It has about a thousand rows, so it
is read whole: a few codes are listed once per country they serve and become one entry each
(`gleif_registers.merge_shared`). A copy ships with regintel (`regintel/data/gleif/`); import a newer
list with `regintel import gleif_ra <csv>`. Re-importing the same list changes nothing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import IO

from regintel.domain.types import Record, RegistrationAuthorityRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.gleif_common import ATTRIBUTION, LICENCE, LICENCE_URL, PUBLISHER
from regintel.ingest.sources.gleif_registers import merge_shared, read_ra_list
from regintel.ingest.sources.gleif_stream import buffered

INFO = SourceInfo(
    id="gleif_ra",
    name="GLEIF registration authorities list",
    publisher=PUBLISHER,
    country=None,
    category="reference",
    formats="CSV (RA list v1.x)",
    licence=LICENCE,
    licence_url=LICENCE_URL,
    attribution=ATTRIBUTION,
    url="https://www.gleif.org/en/about-lei/code-lists/gleif-registration-authorities-list",
    cadence="on-demand",
)

MAX_ROWS = 100_000  # the list has ~1,000 rows; far more means this is not the RA list


class GleifRaSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError]:
        rows: list[RegistrationAuthorityRecord] = []
        text = io.TextIOWrapper(buffered(stream), encoding="utf-8-sig", newline="")
        try:
            for row in read_ra_list(text):
                if isinstance(row, RecordError):
                    yield row
                    continue
                rows.append(row)
                if len(rows) > MAX_ROWS:
                    raise SourceAbort(f"{name} has more than {MAX_ROWS:,} rows: not a GLEIF RA list")
        except UnicodeDecodeError as exc:
            raise SourceAbort(f"{name} is not UTF-8 text: {exc}") from None
        except csv.Error as exc:
            raise SourceAbort(f"{name} is not a readable CSV file: {exc}") from None
        yield from merge_shared(rows)


register(GleifRaSource())
