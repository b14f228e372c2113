"""Reading JSON register files of any size as a stream of objects.

Registers publish the same records in three shapes: one object (an API answer), one big document
holding a list (a search page, a bulk array of millions of entries) and JSON lines. `json_objects`
tells them apart from the first bytes and yields one object at a time: JSON lines are parsed line by
line, documents with `ijson`, so memory stays flat. A list wrapped in an envelope
(`{"pocetCelkem": 3, "ekonomickeSubjekty": [...]}`) is streamed item by item when its path is named
in `list_paths` (ijson prefixes: `"ekonomickeSubjekty.item"`, `"_embedded.enheter.item"`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

import ijson
import orjson

from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.streams import peek

TOP_ARRAY = "item"
_VALUE_EVENTS = frozenset({"end_map", "end_array", "string", "number", "boolean", "null"})


def json_objects(stream: IO[bytes], list_paths: Iterable[str] = ()) -> Iterator[Any | RecordError]:
    """Every record object of a JSON, JSON-array or JSON-lines file (see the module docstring).

    A file that is not JSON raises `SourceAbort`; a broken line, or a document that breaks off after
    some records were read, yields a `RecordError`.
    """
    head, stream = peek(stream)
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not text:
        raise SourceAbort("the file is empty")
    if text[:1] not in (b"{", b"["):
        raise SourceAbort("not a JSON file (it does not start with { or [)")
    if text[:1] == b"[":
        yield from _array(stream)
    elif _first_line_is_json(text):
        yield from _lines(stream, tuple(list_paths))
    else:
        yield from _document(stream, (TOP_ARRAY, *list_paths))


def _first_line_is_json(text: bytes) -> bool:
    line, newline, _ = text.partition(b"\n")
    if not newline:
        return False
    try:
        return isinstance(orjson.loads(line), dict)
    except orjson.JSONDecodeError:
        return False


def _lines(stream: IO[bytes], list_paths: tuple[str, ...]) -> Iterator[Any | RecordError]:
    for number, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            value = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            yield RecordError(
                f"malformed JSON on line {number}: {exc}", line[:2000].decode("utf-8", "replace")
            )
            continue
        yield from unwrap(value, list_paths)


def unwrap(value: Any, list_paths: Iterable[str]) -> Iterator[Any]:
    """The items of an envelope object at one of `list_paths`, or the object itself."""
    for path in list_paths:
        node = value
        for key in path.split(".")[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, list):
            yield from node
            return
    yield value


def _array(stream: IO[bytes]) -> Iterator[Any | RecordError]:
    """The items of a top-level array (a bulk file), built by ijson's C backend."""
    found = 0
    try:
        for item in ijson.items(stream, TOP_ARRAY, use_float=True):
            found += 1
            yield item
    except ijson.JSONError as exc:
        yield from _broken(exc, found)


def _broken(exc: Exception, found: int) -> Iterator[RecordError]:
    message = " ".join(str(exc).split())[:200]
    if not found:
        raise SourceAbort(f"not a readable JSON document: {message}") from None
    yield RecordError(f"the JSON document breaks off after {found} records: {message}")


def _document(stream: IO[bytes], item_paths: tuple[str, ...]) -> Iterator[Any | RecordError]:
    """Stream the items found at `item_paths`; with none, the document is one record itself."""
    rest = ijson.ObjectBuilder()
    found = 0
    item: ijson.ObjectBuilder | None = None
    path = ""
    try:
        for prefix, event, value in ijson.parse(stream, use_float=True):
            if item is None and prefix in item_paths and event not in ("map_key", "end_array"):
                item, path = ijson.ObjectBuilder(), prefix
            if item is not None and (prefix == path or prefix.startswith(path + ".")):
                item.event(event, value)
                if prefix == path and event in _VALUE_EVENTS:
                    found += 1
                    yield item.value
                    item = None
                continue
            rest.event(event, value)
    except ijson.JSONError as exc:
        yield from _broken(exc, found)
        return
    if not found and isinstance(rest.value, dict) and not _is_envelope(rest.value, item_paths):
        yield rest.value


def _is_envelope(value: dict[str, Any], item_paths: tuple[str, ...]) -> bool:
    """An envelope whose list is empty (`{"pocetCelkem": 0, "ekonomickeSubjekty": []}`) holds no record."""
    return any("." in p and isinstance(value.get(p.split(".")[0]), (list, dict)) for p in item_paths)
