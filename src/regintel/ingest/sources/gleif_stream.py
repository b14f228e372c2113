"""Streaming GLEIF files, XML or JSON, into records of one shape (see `gleif_common`).

The golden copies are multi-GB single documents: XML is read with `iterparse`, each finished record
converted and removed from the tree; JSON is read with `ijson`, one array item at a time. The flavour
is decided by the content (a `.json` name on an XML file does not matter), gzip is recognised by its
magic bytes. A file that is not the expected GLEIF format at all raises `SourceAbort`; a file that
breaks off half way yields a `RecordError` after the records read so far.
"""

from __future__ import annotations

import gzip
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from typing import IO, Any, cast

import ijson

from regintel.ingest.base import RecordError, SourceAbort
from regintel.ingest.sources.gleif_common import Node, day

XML_NS = "http://www.w3.org/XML/1998/namespace"
PREFIXES = {XML_NS: "xml:", "http://www.gleif.org/data/schema/golden-copy/extensions/1.0": "gleif:"}
HEAD_BYTES = 1 << 16


@dataclass(frozen=True)
class Layout:
    """Where one GLEIF file type keeps its header and records, in XML and in JSON."""

    label: str
    source: str
    namespace: str
    root: str
    header: str
    record: str
    signature: str  # a key every record of this type has, to recognise the JSON flavour
    unused: frozenset[str] = frozenset()  # elements no importer reads: not converted (speed)


LAYOUTS = (
    Layout(
        "LEI-CDF",
        "gleif",
        "http://www.gleif.org/data/schema/leidata/2016",
        "LEIData",
        "LEIHeader",
        "LEIRecord",
        "Entity",
        frozenset(
            {
                "HeadquartersAddress",
                "OtherAddresses",
                "TransliteratedOtherAddresses",
                "OtherEntityNames",
                "TransliteratedOtherEntityNames",
                "ValidationAuthority",
                "OtherValidationAuthorities",
                "AffectedFields",
                "gleif:Geocoding",
            }
        ),
    ),
    Layout(
        "RR-CDF",
        "gleif_rr",
        "http://www.gleif.org/data/schema/rr/2016",
        "RelationshipData",
        "Header",
        "RelationshipRecord",
        "Relationship",
    ),
    Layout(
        "reporting exceptions",
        "gleif_repex",
        "http://www.gleif.org/data/schema/repex/2016",
        "ReportingExceptionData",
        "Header",
        "Exception",
        "ExceptionCategory",
    ),
)


class _Replay(io.RawIOBase):
    """The bytes already peeked at, then the rest of the stream."""

    def __init__(self, head: bytes, rest: IO[bytes]):
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        data = self._rest.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def buffered(stream: IO[bytes]) -> io.BufferedReader:
    """A real `io` reader over any object with `read` (what `TextIOWrapper` needs)."""
    return io.BufferedReader(_Replay(b"", stream), HEAD_BYTES)


def _peek(stream: IO[bytes]) -> tuple[bytes, IO[bytes]]:
    head = stream.read(HEAD_BYTES)
    replay = io.BufferedReader(_Replay(head, stream), HEAD_BYTES)
    if head[:2] == b"\x1f\x8b":
        return _peek(cast(IO[bytes], gzip.GzipFile(fileobj=replay)))
    return head, replay


@dataclass
class GleifFile:
    """One GLEIF file being read: its flavour, header and records."""

    stream: IO[bytes]
    name: str
    layout: Layout
    header: Node = field(default_factory=dict)

    @property
    def published_on(self) -> date | None:
        """The file's content date: the header's, or the date in a golden-copy file name."""
        try:
            content = day(self.header, "ContentDate")
        except RecordError:
            content = None
        if content is None and (m := re.match(r"(\d{4})(\d{2})(\d{2})-\d{4}-gleif-goldencopy", self.name)):
            content = date(int(m[1]), int(m[2]), int(m[3]))
        return content

    def records(self) -> Iterator[Node | RecordError]:
        head, stream = _peek(self.stream)
        start = head.removeprefix(b"\xef\xbb\xbf").lstrip()[:1]
        if start == b"<":
            yield from self._xml(stream)
        elif start in (b"{", b"["):
            yield from self._json(head, stream)
        else:
            raise SourceAbort(
                f"{self.name} is neither GLEIF XML nor GLEIF JSON ({self.layout.label} expected)"
            )

    # -- XML -------------------------------------------------------------------------------------

    def _xml(self, stream: IO[bytes]) -> Iterator[Node | RecordError]:
        ns = "{" + self.layout.namespace + "}"
        stack: list[ET.Element] = []
        try:
            for event, elem in ET.iterparse(stream, events=("start", "end")):
                if event == "start":
                    if not stack:
                        self._check_root(elem.tag)
                    stack.append(elem)
                    continue
                stack.pop()
                if elem.tag == ns + self.layout.record:
                    yield xml_node(elem, self.layout.unused)
                    stack[-1].remove(elem)  # keeps memory flat: the tree never holds finished records
                elif elem.tag == ns + self.layout.header and len(stack) == 1:
                    self.header = xml_node(elem)
        except ET.ParseError as exc:
            if not stack:
                raise SourceAbort(f"{self.name} is not well-formed XML: {exc}") from None
            yield RecordError(f"malformed or truncated XML, the rest of the file was not read: {exc}")

    def _check_root(self, tag: str) -> None:
        for layout in LAYOUTS:
            if tag == "{" + layout.namespace + "}" + layout.root:
                if layout is not self.layout:
                    raise SourceAbort(
                        f"{self.name} is a GLEIF {layout.label} file: import it with "
                        f"`{layout.source}`, not `{self.layout.source}`"
                    )
                return
        raise SourceAbort(f"{self.name} is not a GLEIF {self.layout.label} file (root element {tag})")

    # -- JSON ------------------------------------------------------------------------------------

    def _json(self, head: bytes, stream: IO[bytes]) -> Iterator[Node | RecordError]:
        prefix = _array_prefix(head, self.name)
        count = 0
        try:
            for item in ijson.items(stream, prefix, use_float=False):
                if not count:
                    self._check_item(item)
                count += 1
                yield item if isinstance(item, dict) else RecordError("record is not a JSON object", item)
        except ijson.JSONError as exc:
            if not count:
                raise SourceAbort(f"{self.name} is not well-formed JSON: {exc}") from None
            yield RecordError(f"malformed or truncated JSON, the rest of the file was not read: {exc}")

    def _check_item(self, item: Any) -> None:
        if isinstance(item, dict) and self.layout.signature in item:
            return
        for layout in LAYOUTS:
            if isinstance(item, dict) and layout.signature in item:
                raise SourceAbort(
                    f"{self.name} holds GLEIF {layout.label} records: import it with "
                    f"`{layout.source}`, not `{self.layout.source}`"
                )
        raise SourceAbort(f"{self.name} does not hold GLEIF {self.layout.label} records")


def _array_prefix(head: bytes, name: str) -> str:
    """The ijson prefix of the record array: a top-level array, or the first array under a top-level key."""
    try:
        for prefix, event, _ in ijson.parse(io.BytesIO(head)):
            if event == "start_array" and "." not in prefix:
                return f"{prefix}.item" if prefix else "item"
    except ijson.JSONError as exc:
        raise SourceAbort(f"{name} is not GLEIF JSON: no array of records at its start ({exc})") from None
    raise SourceAbort(f"{name} is not GLEIF JSON: no array of records at its start")


def xml_node(elem: ET.Element, unused: frozenset[str] = frozenset()) -> Node:
    """An element in GLEIF's JSON shape: attributes as `@name`, text as `$`, repeats as lists."""
    node: Node = {"@" + _name(k): v for k, v in elem.attrib.items()} if elem.attrib else {}
    for sub in elem:
        key = _name(sub.tag)
        if key in unused:
            continue
        value = xml_node(sub, unused)
        if key not in node:
            node[key] = value
        elif isinstance(node[key], list):
            node[key].append(value)
        else:
            node[key] = [node[key], value]
    if elem.text and elem.text.strip() and not len(elem):
        node["$"] = elem.text
    return node


@cache
def _name(tag: str) -> str:
    if not tag.startswith("{"):
        return tag
    ns, local = tag[1:].split("}", 1)
    return PREFIXES.get(ns, "") + local
