"""Reading a register CSV as a stream of rows: the header first, then each row or the reason it
cannot be read. Memory stays flat (csv.reader over a text wrapper of the byte stream)."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, TypeVar

from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.streams import buffered

T = TypeVar("T")


@dataclass
class CsvFile:
    header: list[str]
    rows: Iterator[tuple[int, list[str]] | RecordError]

    def index(self, required: tuple[str, ...], what: str) -> dict[str, int]:
        """Column positions by name; a header without `required` columns is the wrong file."""
        positions = {name: i for i, name in enumerate(self.header)}
        missing = [c for c in required if c not in positions]
        if missing:
            raise SourceAbort(f"not a {what} file: the header lacks {', '.join(missing)}")
        return positions

    def records(
        self, columns: dict[str, int], convert: Callable[[dict[str, str]], T]
    ) -> Iterator[T | RecordError]:
        """Each row as `{column: value}` for `columns`, passed through `convert`; a row that cannot be read
        or that `convert` refuses comes out as its `RecordError` (with the row) in its place."""
        for item in self.rows:
            if isinstance(item, RecordError):
                yield item
                continue
            row = {name: item[1][i] for name, i in columns.items()}
            try:
                yield convert(row)
            except RecordError as exc:
                exc.raw = row
                yield exc


def open_csv(stream: IO[bytes], *, delimiter: str = ",", encoding: str = "utf-8-sig") -> CsvFile:
    """The header (names trimmed: some registers write " CompanyNumber") and a row iterator.

    Undecodable bytes are replaced rather than fatal: one bad byte must not stop a 5 GB import.
    """
    text = io.TextIOWrapper(buffered(stream), encoding=encoding, errors="replace", newline="")
    reader = csv.reader(text, delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise SourceAbort("the file is empty") from None
    except csv.Error as exc:
        raise SourceAbort(f"not a CSV file: {exc}") from None
    header = [h.strip().lstrip("\ufeff") for h in header]
    return CsvFile(header, _rows(reader, len(header)))


def _rows(reader: Any, width: int) -> Iterator[tuple[int, list[str]] | RecordError]:
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            yield RecordError(f"unreadable CSV row near line {reader.line_num}: {exc}")
            continue
        if not row:
            continue
        if len(row) != width:
            yield RecordError(
                f"row on line {reader.line_num} has {len(row)} fields, the header {width}", row[:60]
            )
            continue
        yield reader.line_num, row
