"""EU Financial Sanctions Files (FSF), XML 1.1 (`http://eu.europa.ec/fpi/fsd/export`).

One `sanctionEntity` per designation: `nameAlias` (`strong="false"` aliases kept apart as weak),
`birthdate`, `citizenship`, `address`, `identification`, and the `regulation` programme (`RUS`, `TERR`).
The EU reference number (`EU.3579.2`) and the UN id are kept as identifiers.
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
    register_list,
)

NS = "{http://eu.europa.ec/fpi/fsd/export}"
INFO = SourceInfo(
    id="sanctions_eu_fsf",
    name="EU Financial Sanctions Files (consolidated list)",
    publisher="European Commission (FPI)",
    country=None,
    category="sanctions",
    formats="XML 1.1",
    licence="EU re-use (Commission Decision 2011/833/EU), free re-use with acknowledgement",
    attribution="Source: European Commission, consolidated list of persons, groups and entities subject "
    "to EU financial sanctions",
    url="https://webgate.ec.europa.eu/fsd/fsf",
    cadence="daily",
    licence_url="https://eur-lex.europa.eu/eli/dec/2011/833/oj",
)
_SCHEMAS = {"person": "person", "enterprise": "organization"}


def _names(el: ET.Element) -> list[ListedName]:
    out: list[ListedName] = []
    for alias in el.iter(f"{NS}nameAlias"):
        whole = clean(alias.get("wholeName")) or clean(
            " ".join(alias.get(k) or "" for k in ("firstName", "middleName", "lastName"))
        )
        if whole:
            weak = alias.get("strong") == "false"
            out.append(ListedName(whole, "weak" if weak else "alias", clean(alias.get("nameLanguage"))))
    strong = [i for i, n in enumerate(out) if n.kind == "alias"]
    if strong:  # the FSF has no "primary" flag: the first strong English name, else the first strong one
        first = next((i for i in strong if out[i].lang == "EN"), strong[0])
        out[first] = ListedName(out[first].name, "primary", out[first].lang)
    return out


def _birth_dates(el: ET.Element) -> list[str]:
    out = []
    for b in el.iter(f"{NS}birthdate"):
        day, year = b.get("birthdate"), b.get("year")
        if day:
            out.append(day[:10])
        elif year and year.isdigit():
            out.append(year)
    return out


def _countries(el: ET.Element) -> list[tuple[str, str]]:
    out = []
    for tag, role in (("citizenship", "citizenship"), ("address", "address"), ("birthdate", "birth")):
        for item in el.iter(f"{NS}{tag}"):
            code = country_code(item.get("countryIso2Code"))
            if code:
                out.append((code, role))
    return out


def _identifiers(el: ET.Element) -> list[ListedIdentifier]:
    out = [
        ListedIdentifier(
            i.get("identificationTypeCode") or "id", number, country_code(i.get("countryIso2Code"))
        )
        for i in el.iter(f"{NS}identification")
        if (number := clean(i.get("number")))
    ]
    for attr, kind in (("euReferenceNumber", "eu_reference"), ("unitedNationId", "un_reference")):
        if value := clean(el.get(attr)):
            out.append(ListedIdentifier(kind, value))
    return out


def _entry(el: ET.Element) -> ListedEntry:
    subject = el.find(f"{NS}subjectType")
    schema = _SCHEMAS.get(subject.get("code", "") if subject is not None else "", "organization")
    programmes = sorted({p for r in el.iter(f"{NS}regulation") if (p := clean(r.get("programme")))})
    remark = el.find(f"{NS}remark")
    return ListedEntry(
        key=el.get("logicalId") or el.get("euReferenceNumber") or "",
        schema=schema,
        names=_names(el),
        programmes=programmes,
        birth_dates=_birth_dates(el),
        countries=_countries(el),
        identifiers=_identifiers(el),
        listed_on=(el.get("designationDate") or "")[:10] or None,
        remarks=clean(remark.text) if remark is not None else None,
    )


def parse(path: Path) -> Iterator[ListedEntry]:
    try:
        events = ET.iterparse(path, events=("start", "end"))
        _, root = next(events)
        if root.tag != f"{NS}export":
            raise SourceAbort(f"{path.name}: not an EU Financial Sanctions File (root element <{root.tag}>)")
        for event, el in events:
            if event == "end" and el.tag == f"{NS}sanctionEntity":
                entry = _entry(el)
                if entry.key and entry.names:
                    yield entry
                el.clear()
    except ET.ParseError as exc:
        raise SourceAbort(f"{path.name}: not a well-formed XML file ({exc})") from exc


SOURCE = register_list(SanctionSource(INFO, parse))
