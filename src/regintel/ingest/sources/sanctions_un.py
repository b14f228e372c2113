"""UN Security Council Consolidated List (XML, `https://www.un.org/sc/resources/sc-sanctions.xsd`).

INDIVIDUAL and ENTITY records: names from FIRST_NAME..FOURTH_NAME, aliases with QUALITY `Good`/`a.k.a.`
(kept as aliases) or `Low` (kept apart as weak aliases), dates of birth (exact, year, or a year range),
nationalities, addresses, documents; the UN list type (`DRC`, `DPRK`, `Al-Qaida`) is the programme.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from regintel.ingest.base import SourceAbort, SourceInfo
from regintel.ingest.sources.sanctions_common import (
    ListedEntry,
    ListedIdentifier,
    ListedName,
    SanctionSource,
    clean,
    country_code,
    plausible_year,
    register_list,
)

INFO = SourceInfo(
    id="sanctions_un",
    name="UN Security Council Consolidated List",
    publisher="United Nations Security Council",
    country=None,
    category="sanctions",
    formats="XML (sc-sanctions.xsd)",
    licence="UN public information, free re-use with attribution",
    attribution="Source: United Nations Security Council Consolidated List",
    url="https://scsanctions.un.org/resources/xml/en/consolidated.xml",
    cadence="daily",
    licence_url="https://www.un.org/en/about-us/terms-of-use",
)

_WEAK = {"low"}


def _text(el: ET.Element, tag: str) -> str | None:
    child = el.find(tag)
    return clean(child.text) if child is not None else None


def _dates(el: ET.Element) -> list[str]:
    out: list[str] = []
    for dob in el.findall("INDIVIDUAL_DATE_OF_BIRTH"):
        day, year = _text(dob, "DATE"), _text(dob, "YEAR")
        low, high = _text(dob, "FROM_YEAR"), _text(dob, "TO_YEAR")
        if day:
            out.append(day[:10])
        elif year and year.isdigit():
            out.append(year)
        elif low and high and low.isdigit() and high.isdigit() and int(high) - int(low) <= 10:
            out.extend(str(y) for y in range(int(low), int(high) + 1) if plausible_year(y))
    return out


def _names(el: ET.Element, alias_tag: str) -> list[ListedName]:
    parts = [_text(el, t) for t in ("FIRST_NAME", "SECOND_NAME", "THIRD_NAME", "FOURTH_NAME")]
    names = [ListedName(" ".join(p for p in parts if p), "primary")]
    for alias in el.findall(alias_tag):
        value = _text(alias, "ALIAS_NAME")
        if value:
            quality = (_text(alias, "QUALITY") or "").lower()
            names.append(ListedName(value, "weak" if quality in _WEAK else "alias"))
    return [n for n in names if n.name]


def _entry(el: ET.Element, schema: str) -> ListedEntry:
    countries = [(c, "nationality") for v in el.findall("NATIONALITY/VALUE") if (c := country_code(v.text))]
    for addr in el.findall("INDIVIDUAL_ADDRESS") + el.findall("ENTITY_ADDRESS"):
        if code := country_code(_text(addr, "COUNTRY")):
            countries.append((code, "address"))
    for pob in el.findall("INDIVIDUAL_PLACE_OF_BIRTH"):
        if code := country_code(_text(pob, "COUNTRY")):
            countries.append((code, "birth"))
    idents = []
    for doc in el.findall("INDIVIDUAL_DOCUMENT"):
        number = _text(doc, "NUMBER")
        if number:
            idents.append(
                ListedIdentifier(
                    _text(doc, "TYPE_OF_DOCUMENT") or "document",
                    number,
                    country_code(_text(doc, "ISSUING_COUNTRY")),
                )
            )
    ref = _text(el, "REFERENCE_NUMBER")
    if ref:
        idents.append(ListedIdentifier("un_reference", ref))
    return ListedEntry(
        key=_text(el, "DATAID") or ref or "",
        schema=schema,
        names=_names(el, "INDIVIDUAL_ALIAS" if schema == "person" else "ENTITY_ALIAS"),
        programmes=[p for p in [_text(el, "UN_LIST_TYPE")] if p],
        birth_dates=_dates(el),
        countries=countries,
        identifiers=idents,
        listed_on=(_text(el, "LISTED_ON") or "")[:10] or None,
        remarks=_text(el, "COMMENTS1"),
    )


def parse(path: Path) -> Iterator[ListedEntry]:
    try:
        events = ET.iterparse(path, events=("start", "end"))
        _, root = next(events)
        if root.tag != "CONSOLIDATED_LIST":
            raise SourceAbort(f"{path.name}: not a UN consolidated list (root element <{root.tag}>)")
        for event, el in events:
            if event == "end" and el.tag in ("INDIVIDUAL", "ENTITY"):
                entry = _entry(el, "person" if el.tag == "INDIVIDUAL" else "organization")
                if entry.key and entry.names:
                    yield entry
                el.clear()
    except ET.ParseError as exc:
        raise SourceAbort(f"{path.name}: not a well-formed XML file ({exc})") from exc


SOURCE = register_list(SanctionSource(INFO, parse))
