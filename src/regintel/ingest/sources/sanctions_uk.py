"""UK Sanctions List (FCDO, also used by OFSI), XML `Designations` export.

Each `Designation`: `Names/Name` (Name1..Name6 joined; `NameType` Primary Name / Primary Name Variation /
Alias, and `AliasStrength` "Low quality a.k.a" kept apart as weak), `NonLatinNames`, the regime as
programme, `IndividualEntityShip`, DOBs (`dd/mm/yyyy`, `dd/mm/1945` partial, or a year), nationalities,
addresses, passports, national ids, business registration and IMO numbers.
"""

from __future__ import annotations

import re
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
    iso_date,
    register_list,
)

INFO = SourceInfo(
    id="sanctions_uk",
    name="UK Sanctions List",
    publisher="UK Foreign, Commonwealth & Development Office (FCDO)",
    country="GB",
    category="sanctions",
    formats="XML (Designations)",
    licence="Open Government Licence v3.0",
    attribution="Contains public sector information licensed under the Open Government Licence v3.0 "
    "(UK Sanctions List, FCDO)",
    url="https://www.gov.uk/government/publications/the-uk-sanctions-list",
    cadence="daily",
    licence_url="https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/",
)
_SCHEMAS = {"individual": "person", "entity": "organization", "ship": "vessel"}
_DOB = re.compile(r"^(\d{2}|dd)/(\d{2}|mm)/(\d{4})$")


def _texts(el: ET.Element, path: str) -> list[str]:
    return [v for x in el.findall(path) if (v := clean(x.text))]


def _text(el: ET.Element, path: str) -> str | None:
    found = _texts(el, path)
    return found[0] if found else None


def _names(el: ET.Element) -> list[ListedName]:
    out = []
    for name in el.findall("Names/Name"):
        whole = clean(" ".join(_text(name, f"Name{i}") or "" for i in range(1, 7)))
        if not whole:
            continue
        kind = "primary" if _text(name, "NameType") == "Primary Name" else "alias"
        if "low" in (_text(name, "AliasStrength") or "").lower():
            kind = "weak"
        out.append(ListedName(whole, kind))
    out.extend(ListedName(n, "alias") for n in _texts(el, "NonLatinNames/NonLatinName/NameNonLatinScript"))
    return out


def _dob(text: str) -> str | None:
    m = _DOB.match(text)
    if not m:
        return text if text.isdigit() and len(text) == 4 else None
    day, month, year = m.groups()
    if month == "mm":
        return year
    return year + "-" + month if day == "dd" else iso_date(text, "%d/%m/%Y")


def _identifiers(el: ET.Element) -> list[ListedIdentifier]:
    out = []
    for path, kind in (
        ("IndividualDetails/Individual/PassportDetails/Passport/PassportNumber", "passport"),
        (
            "IndividualDetails/Individual/NationalIdentifierDetails/NationalIdentifier/"
            "NationalIdentifierNumber",
            "national_id",
        ),
        ("EntityDetails/Entity/BusinessRegistrationNumbers/BusinessRegistrationNumber", "registration"),
        ("ShipDetails/Ship/IMONumbers/IMONumber", "imo"),
        ("UniqueID", "uk_reference"),
        ("UNReferenceNumber", "un_reference"),
    ):
        for value in dict.fromkeys(_texts(el, path)):
            out.append(ListedIdentifier(kind, re.sub(r"^(UK Company no\.|IMO)\s*", "", value)))
    return out


def _entry(el: ET.Element) -> ListedEntry:
    kind = (_text(el, "IndividualEntityShip") or "").lower()
    countries = [
        (c, "nationality")
        for v in _texts(el, "IndividualDetails/Individual/Nationalities/Nationality")
        if (c := country_code(v))
    ]
    countries += [
        (c, "address") for v in _texts(el, "Addresses/Address/AddressCountry") if (c := country_code(v))
    ]
    dobs = [d for v in _texts(el, "IndividualDetails/Individual/DOBs/DOB") if (d := _dob(v))]
    return ListedEntry(
        key=_text(el, "UniqueID") or "",
        schema=_SCHEMAS.get(kind, "organization"),
        names=_names(el),
        programmes=_texts(el, "RegimeName"),
        birth_dates=dobs,
        countries=countries,
        identifiers=_identifiers(el),
        listed_on=iso_date(_text(el, "DateDesignated"), "%d/%m/%Y"),
        remarks=_text(el, "OtherInformation"),
    )


def parse(path: Path) -> Iterator[ListedEntry]:
    try:
        events = ET.iterparse(path, events=("start", "end"))
        _, root = next(events)
        if root.tag != "Designations":
            raise SourceAbort(f"{path.name}: not a UK Sanctions List export (root element <{root.tag}>)")
        for event, el in events:
            if event == "end" and el.tag == "Designation":
                entry = _entry(el)
                if entry.key and entry.names:
                    yield entry
                el.clear()
    except ET.ParseError as exc:
        raise SourceAbort(f"{path.name}: not a well-formed XML file ({exc})") from exc


SOURCE = register_list(SanctionSource(INFO, parse))
