"""Slovak Commercial Gazette (Obchodný vestník): insolvency and liquidation notices.

Input: the Ministry of Justice's export web service `PodanieExport` (WSDL in
tests/fixtures/sk_obchodny_vestnik/schemas), the answer of `StiahnutPodaniaOVPodlaTypu` as a SOAP
1.1/1.2 envelope, the bare response element or an `ArrayOfObchodnyVestnikPodanie`. Each
`ObchodnyVestnikPodanie` carries the gazette's id of the notice, its issue and publication day, and
the notice form as an XML string (`FormularUdaje`) of one of the publisher's form schemas; the forms
are mapped in `sk_obchodny_vestnik_forms`. The envelope is streamed with `iterparse` and each
finished notice is dropped from the tree, so a file of any number of notices reads in flat memory.
A form alone is refused: without its envelope it has neither the gazette's notice id nor the
publication day. See docs/sources/sk_obchodny_vestnik.md.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import IO

from regintel.domain.types import Record
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.sources import register
from regintel.ingest.sources.sk_obchodny_vestnik_forms import (
    MAPPERS,
    Podanie,
    child,
    day,
    local,
    map_form,
    text,
)

INFO = SourceInfo(
    id="sk_obchodny_vestnik",
    name="Obchodný vestník (insolvency and liquidation notices)",
    publisher="Ministerstvo spravodlivosti Slovenskej republiky",
    country="SK",
    category="insolvency",
    formats="PodanieExport SOAP/XML (StiahnutPodaniaOVPodlaTypu) with KonkurzARestrukt, KonkurzyAVyrovnania, "
    "OznameniaSpravcov, OznamenieVyzvaLikvidatorov and ORPodanie forms",
    licence="Official notices under zákon č. 200/2011 Z. z. o Obchodnom vestníku; official texts are not "
    "subject to copyright (zákon č. 185/2015 Z. z., § 5)",
    attribution="Zdroj: Obchodný vestník, Ministerstvo spravodlivosti SR",
    url="https://www.justice.gov.sk/PortalApp/Ws/PodanieExport.asmx",
    cadence="weekly",
    snapshots=False,
)

ENVELOPE_ROOTS = frozenset(
    {"Envelope", "StiahnutPodaniaOVPodlaTypuResponse", "ArrayOfObchodnyVestnikPodanie"}
)
NOTICE = "ObchodnyVestnikPodanie"
_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>")


class SkObchodnyVestnik:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[Record | RecordError | Skipped]:
        stack: list[ET.Element] = []
        try:
            for event, elem in ET.iterparse(stream, events=("start", "end")):
                if event == "start":
                    if not stack:
                        _check_root(elem.tag, name)
                    stack.append(elem)
                    continue
                stack.pop()
                tag = local(elem.tag)
                if tag == NOTICE:
                    yield from _notice(elem)
                    if stack:
                        stack[-1].remove(elem)  # the tree never holds finished notices
                elif tag == "Fault":
                    raise SourceAbort(
                        f"{name} is a SOAP fault: {text(elem, 'faultstring') or text(elem, 'Reason')}"
                    )
        except ET.ParseError as exc:
            if not stack:
                raise SourceAbort(f"{name} is not well-formed XML: {exc}") from None
            yield RecordError(f"malformed or truncated XML, the rest of the file was not read: {exc}")


def _check_root(tag: str, name: str) -> None:
    root = local(tag)
    if root in ENVELOPE_ROOTS:
        return
    if root in MAPPERS:
        raise SourceAbort(
            f"{name} is a single {root} form: import the PodanieExport answer that wraps it "
            "(the form alone has no notice id and no publication day)"
        )
    raise SourceAbort(f"{name} is not an Obchodný vestník PodanieExport answer (root element {root})")


def _notice(elem: ET.Element) -> Iterator[Record | RecordError | Skipped]:
    notice_id = text(elem, "Id")
    if not notice_id or not notice_id.isdigit():
        yield RecordError(f"notice without a numeric Id: {notice_id!r}", {"Znacka": text(elem, "Znacka")})
        return
    form_node = child(elem, "FormularUdaje")
    form_text = (form_node.text or "").strip() if form_node is not None else ""
    if not form_text:
        yield RecordError(f"notice {notice_id} has no FormularUdaje", {"Id": notice_id})
        return
    issue = child(elem, "ObchodnyVestnik")
    try:
        published = day(text(issue, "DenVydania"), "DenVydania")
        form = ET.fromstring(_DECLARATION.sub("", form_text))
    except RecordError as exc:
        yield RecordError(f"notice {notice_id}: {exc.reason}", {"Id": notice_id})
        return
    except ET.ParseError as exc:
        yield RecordError(
            f"notice {notice_id}: FormularUdaje is not well-formed XML: {exc}",
            {"Id": notice_id, "FormularUdaje": form_text[:2_000]},
        )
        return
    number, year = text(issue, "Cislo"), text(issue, "Rocnik")
    podanie = Podanie(
        id=notice_id,
        mark=text(elem, "Znacka"),
        published_on=published,
        issue=f"{number}/{year}" if number and year else None,
    )
    yield from map_form(podanie, form)


SOURCE = register(SkObchodnyVestnik())
