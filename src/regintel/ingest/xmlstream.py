"""Reading large XML exports as a stream of record elements, with flat memory.

`xml_records` parses with lxml's `iterparse` on the records' end events only (asking for every element's
start, to look at the root first, doubled the parse time), checks the document's root on the first record
(or at the end of a file without records), and clears each record and its predecessors once the caller has
read it. Entities and DTDs are never loaded and nothing is fetched (`resolve_entities`, `load_dtd`,
`no_network`). A file that is not well-formed raises `SourceAbort`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

from lxml import etree

from regintel.ingest.base import SourceAbort


def xml_records(
    stream: IO[bytes], name: str, tag: str, check_root: Callable[[Any, str], None]
) -> Iterator[Any]:
    """Each `tag` element of the document in turn; `check_root(root, name)` raises `SourceAbort` for a
    document of another kind."""
    events = etree.iterparse(
        stream,
        events=("end",),
        tag=tag,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=True,
    )
    checked = False
    try:
        for _, element in events:
            if not checked:
                check_root(element.getparent(), name)
                checked = True
            yield element
            element.clear(keep_tail=False)
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                del parent[0]
        if not checked:
            check_root(events.root, name)
    except etree.XMLSyntaxError as exc:
        raise SourceAbort(f"{name}: not well-formed XML: {exc}") from None
