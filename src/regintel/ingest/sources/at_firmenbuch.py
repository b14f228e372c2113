"""Austrian company register (Firmenbuch) as the Ministry of Justice serves it as a high-value dataset
(the free HVD web service of the Firmenbuch, SOAP): `SUCHEFIRMA` answers (one `ERGEBNIS` per firm:
FNR, NAME, SITZ, RECHTSFORM) and `AUSZUG_V2` extracts in the free "Kurzinformation" scope (FIRMA with
FI_DKZ02 name, FI_DKZ03 address, and FUN functions pointing at PER persons), read from one XML file:
a saved SOAP answer or a harvest of many under any root. Namespaces are ignored (matched by local name).

Identifier: the Firmenbuchnummer (FN) "473888 w", digits and a lower-case check letter; python-stdnum
`at.businessid` checks its form (digits then one letter; the letter's computation is not published,
so it is not verified) and writes it compactly ("473888w"). An entry without one is rejected.

Status: the Firmenbuch keeps deleted firms: an entry with a deletion date (`LOESCHUNG` /
`LOESCHUNGSDATUM`) or status "gelöscht" is dissolved, otherwise active. A company being wound up must
add "in Liquidation" ("in Liqu.") to its name (§ 90 GmbHG, § 205 AktG), which sets in_liquidation.
Insolvency proceedings (Konkurs, Sanierungsverfahren) are published in the Ediktsdatei, not in these
answers, so in_bankruptcy and in_restructuring are left unstated. VAT: the UID (ATU…) is issued by the
tax office and not derived from the FN: none is derived. The Firmenbuch holds no activity codes (ÖNACE
is Statistik Austria's), so no NACE; no postcode → NUTS 3 table for Austria here.

Functions (FUN, FKEN): GF Geschäftsführer and VS/VV Vorstand are directors; PR Prokurist, AR
Aufsichtsrat, LI Liquidator and others are statutory_body roles with their code as title; the
person's PER entry (VORNAME, NACHNAME, GEBURTSDATUM) gives the name and birth date (natural persons,
served under the purpose gate).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from lxml import etree

from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, date_in_name, iso_date, join
from regintel.ingest.sources import register
from regintel.ingest.sources.at_firmenbuch_codes import FUNCTIONS, legal_form

INFO = SourceInfo(
    id="at_firmenbuch",
    name="Firmenbuch – HVD web service (SUCHEFIRMA, AUSZUG_V2 Kurzinformation)",
    publisher="Bundesministerium für Justiz (Republik Österreich)",
    country="AT",
    category="register",
    formats="Firmenbuch HVD SOAP answers as XML: SUCHEFIRMA (ERGEBNIS) and AUSZUG_V2, one or many in a file",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Quelle: Firmenbuch, Bundesministerium für Justiz",
    url="https://www.justiz.gv.at/service/datenbanken/firmenbuch.html",
    cadence="daily",
)
ENTRIES = frozenset({"ERGEBNIS", "AUSZUG_V2_RESPONSE"})
_LIQUIDATION = re.compile(r"\bin\s+liq(u|uidation)?\b\.?")
_PLZ = re.compile(r"\d{4}")


class FirmenbuchSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        published = date_in_name(name)
        found = 0
        try:
            for _, element in etree.iterparse(
                stream,
                events=("end",),
                recover=False,
                resolve_entities=False,
                no_network=True,
                huge_tree=True,
            ):
                if etree.QName(element).localname not in ENTRIES:
                    continue
                found += 1
                entry = _tree(element)
                element.clear()
                parent = element.getparent()
                # a harvest's root keeps no finished entries
                while parent is not None and element.getprevious() is not None:
                    del parent[0]
                try:
                    yield to_record(entry, published)
                except RecordError as exc:
                    exc.raw = entry
                    yield exc
        except etree.XMLSyntaxError as exc:
            if not found:
                raise SourceAbort(f"not a readable Firmenbuch XML file: {exc}") from None
            yield RecordError(f"the XML breaks off after {found} entries: {exc}")
        if not found:
            raise SourceAbort("not a Firmenbuch answer: no ERGEBNIS or AUSZUG_V2_RESPONSE element")


def _tree(element: Any) -> dict[str, Any]:
    """An element as {"@attr": value, "CHILD": [subtree or text, ...], "#": text}, by local names."""
    out: dict[str, Any] = {f"@{etree.QName(k).localname}": v for k, v in element.attrib.items()}
    for child in element:
        if not isinstance(child.tag, str):
            continue  # a comment or processing instruction
        value = _tree(child) if len(child) or child.attrib else (child.text or "").strip()
        out.setdefault(etree.QName(child).localname, []).append(value)
    if element.text and element.text.strip() and not len(element):
        out["#"] = element.text.strip()
    return out


def _first(node: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(node, dict):
            return None
        values = node.get(key) or node.get(f"@{key}")
        if values is None:
            return None
        node = values[0] if isinstance(values, list) else values
    return node


def _text(node: dict[str, Any], *path: str) -> str | None:
    value = _first(node, *path)
    if isinstance(value, dict):
        value = value.get("#") or value.get("@TEXT") or value.get("@CODE")
    return value.strip() or None if isinstance(value, str) else None


def to_record(entry: dict[str, Any], published: date | None = None) -> CompanyRecord:
    fnr = _text(entry, "FNR")
    if fnr is None:
        raise RecordError("Firmenbuch entry without an FNR")
    firma = _first(entry, "FIRMA") or {}
    name = _text(firma, "FI_DKZ02", "BEZEICHNUNG") or _text(entry, "NAME")
    form_text = (
        _text(firma, "RECHTSFORM", "TEXT")
        or _text(entry, "RECHTSFORM", "TEXT")
        or _text(firma, "RECHTSFORM")
        or _text(entry, "RECHTSFORM")
    )
    form_code = _text(firma, "RECHTSFORM", "CODE") or _text(entry, "RECHTSFORM", "CODE")
    code, form_name, elf = legal_form(form_code, form_text)
    deleted = _deletion(entry, firma)
    gone = deleted is not None or (fold(_text(entry, "STATUS") or "") in ("geloscht", "geloescht"))
    record = CompanyRecord(
        country="AT",
        national_id=fnr,
        name=name,
        source_record_id=fnr,
        published_on=iso_date(_text(entry, "STICHTAG"), "STICHTAG") or published,
        legal_form=code,
        legal_form_name=form_name,
        status="dissolved" if gone else "active",
        dissolved_on=deleted,
        in_liquidation=bool(name and not gone and _LIQUIDATION.search(fold(name))),
        identifiers=(("elf", elf),) if elf else (),
        **_address(_first(firma, "FI_DKZ03"), _text(entry, "SITZ")),
        roles=_roles(entry) if "FUN" in entry or "PER" in entry else None,
    )
    return record


def _deletion(entry: dict[str, Any], firma: dict[str, Any]) -> date | None:
    for node in (entry, firma):
        for key in ("LOESCHUNG", "LOESCHUNGSDATUM"):
            value = _text(node, key)
            if value:
                return iso_date(value, key)
    return None


def _address(address: Any, seat: str | None) -> Address:
    if not isinstance(address, dict):
        return {"city": seat}
    street = _text(address, "STELLE")
    postal = _text(address, "PLZ")
    if postal and not _PLZ.fullmatch(postal):
        raise RecordError(f"FI_DKZ03.PLZ is not a 4-digit Austrian postcode: {postal!r}")
    city = _text(address, "ORT") or seat
    country = _text(address, "STAAT")
    address_text = join(
        [street, join([postal, city], " "), None if country in (None, "AUT", "AT", "Österreich") else country]
    )
    return {"street": street, "postal_code": postal, "city": city, "address_text": address_text}


def _roles(entry: dict[str, Any]) -> tuple[RoleRecord, ...]:
    people = {_text(p, "PNR"): p for p in entry.get("PER", []) if isinstance(p, dict)}
    out = []
    for function in entry.get("FUN", []):
        if not isinstance(function, dict):
            continue
        kind = _text(function, "FKEN") or ""
        person = people.get(_text(function, "PNR"))
        if person is None:
            raise RecordError(f"FUN {kind} points at no PER entry (PNR {_text(function, 'PNR')!r})")
        details = _first(person, "PE_DKZ02") or person
        name = join([_text(details, "VORNAME"), _text(details, "NACHNAME")], " ") or _text(
            details, "BEZEICHNUNG"
        )
        if not name:
            continue
        born = iso_date(_text(details, "GEBURTSDATUM"), "GEBURTSDATUM")
        role, title = FUNCTIONS.get(kind, ("statutory_body", kind or None))
        out.append(
            RoleRecord(
                role,
                name,
                person=PersonRecord(name, birth_date=born.isoformat() if born else None),
                title=title,
                since=iso_date(_text(function, "DATVON"), "DATVON"),
                until=iso_date(_text(function, "DATBIS"), "DATBIS"),
            )
        )
    return tuple(out)


SOURCE = register(FirmenbuchSource())
