"""Ukrainian Unified State Register (ЄДР / EDR) of legal entities, the open-data bulk of the Ministry
of Justice (data.gov.ua): the XML files `17.1-EX_XML_EDR_UO_FULL_<date>.xml` (and the older
`15.1-EX_XML_EDR_UO_<date>.xml`, windows-1251, `<DATA><RECORD>` or `<SUBJECT>`), read element by
element with lxml, and the same records as JSON (an array, JSON lines or one object, with the
element names as keys). A zip of the published set gives its largest member, the UO file.

Identifier: the EDRPOU code (код ЄДРПОУ), 8 digits with a weighted mod-11 check digit; python-stdnum's
`ua.edrpou` checks it. The Ukrainian VAT number (ІПН платника ПДВ, 12 digits) is a different number
that the EDR does not publish: no VAT id is derived.

Status (`STAN`): "зареєстровано" registered → active; "в стані припинення" (termination under way:
a liquidation, merger or division has been decided) → active and `in_liquidation`; "припинено"
(terminated, struck off) → dissolved, on the date of `TERMINATED_INFO`; "порушено справу про
банкрутство" (bankruptcy case opened) → `in_bankruptcy`; "порушено справу про банкрутство
(санація)" (bankruptcy case in rehabilitation) → `in_restructuring`. A status the importer does not
know rejects the record.

People: the founders (FOUNDERS: shareholders, with their share of the authorised capital), the
ultimate beneficial owners (BENEFICIARIES, or in the older XML the founder lines marked "КІНЦЕВИЙ
БЕНЕФІЦІАРНИЙ ВЛАСНИК (КОНТРОЛЕР)") and the head (SIGNERS / BOSS, director) are imported as roles;
the EDR publishes them by law, and regintel serves natural persons' details under its purpose gate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import IO, Any

from lxml import etree

from regintel.domain.identifiers import is_valid_national_id, parse_national_id
from regintel.domain.types import CompanyKey, CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.streams import peek

INFO = SourceInfo(
    id="ua_edr",
    name="ЄДР – Unified State Register of legal entities (open data)",
    publisher="Міністерство юстиції України / ДП «НАІС»",
    country="UA",
    category="register",
    formats="EDR UO XML (17.1-EX_XML_EDR_UO_FULL, 15.1-EX_XML_EDR_UO; windows-1251 or UTF-8; .zip accepted) "
    "and the same records as JSON",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Джерело: Єдиний державний реєстр, Міністерство юстиції України (data.gov.ua)",
    url="https://data.gov.ua/dataset/1c7f3815-3259-45e0-bdf1-64dca07ddc10",
    cadence="weekly",
)
RECORD_TAGS = ("RECORD", "SUBJECT")
# STAN -> (status, in_liquidation, in_bankruptcy, in_restructuring)
STATES: dict[str, tuple[str, bool, bool, bool]] = {
    "зареєстровано": ("active", False, False, False),
    "зареєстровано, свідоцтво про державну реєстрацію недійсне": ("active", False, False, False),
    "в стані припинення": ("active", True, False, False),
    "порушено справу про банкрутство": ("active", False, True, False),
    "порушено справу про банкрутство (санація)": ("active", False, False, True),
    "припинено": ("dissolved", False, False, False),
}
BENEFICIAL_OWNER = "КІНЦЕВИЙ БЕНЕФІЦІАРНИЙ ВЛАСНИК (КОНТРОЛЕР)"
_DATE = re.compile(r"(\d{2})\.(\d{2})\.(\d{4})")
_POSTCODE = re.compile(r"^(?:Україна,\s*)?(\d{5}),")
_CITY = re.compile(r"(?:^|,\s*)(?:місто|м\.)\s*([^,]+)", re.IGNORECASE)
_SHARE = re.compile(r"відсоток частки\s*-\s*([\d.,]+)")


class EdrSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        head, stream = peek(stream)
        start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
        objects = _xml_records(stream) if start == b"<" else json_objects(stream)
        first = True
        for obj in objects:
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                if not isinstance(obj, dict) or "EDRPOU" not in obj:
                    raise SourceAbort("not an EDR legal-entity file (no EDRPOU in the first record)")
                first = False
            if not isinstance(obj, dict):
                yield RecordError("an EDR record is not an object", obj)
                continue
            try:
                yield to_record(obj)
            except RecordError as exc:
                exc.raw = obj
                yield exc


def _xml_records(stream: IO[bytes]) -> Iterator[dict[str, Any] | RecordError]:
    found = 0
    try:
        for _, element in etree.iterparse(
            stream,
            events=("end",),
            tag=RECORD_TAGS,
            recover=False,
            resolve_entities=False,
            no_network=True,
            huge_tree=True,
        ):
            parent = element.getparent()
            if parent is None or parent.getparent() is not None:
                continue  # a RECORD number inside a SUBJECT, not a record
            found += 1
            yield _element_dict(element)
            element.clear()
            while element.getprevious() is not None:
                del parent[0]
    except etree.XMLSyntaxError as exc:
        if not found:
            raise SourceAbort(f"not a readable EDR XML file: {exc}") from None
        yield RecordError(f"the XML breaks off after {found} records: {exc}")


def _element_dict(element: Any) -> dict[str, Any]:
    """A record element as the JSON shape: leaf elements as text, ACTIVITY_KINDS as a list of
    objects, FOUNDERS and other lists as lists of texts or objects."""
    out: dict[str, Any] = {}
    for child in element:
        if len(child) == 0:
            out[child.tag] = child.text
        elif child.tag == "ACTIVITY_KINDS":
            out[child.tag] = {"ACTIVITY_KIND": [{c.tag: c.text for c in kind} for kind in child]}
        else:
            out[child.tag] = [({c.tag: c.text for c in item} if len(item) else item.text) for item in child]
    return out


def to_record(obj: dict[str, Any]) -> CompanyRecord:
    code = text(obj.get("EDRPOU"), "EDRPOU")
    if code is None:
        raise RecordError("record without an EDRPOU code")
    stan = (text(obj.get("STAN"), "STAN") or "").lower()
    if stan not in STATES:
        raise RecordError(f"STAN is not a known EDR status: {stan!r}")
    status, liquidation, bankruptcy, restructuring = STATES[stan]
    address = text(obj.get("ADDRESS"), "ADDRESS")
    nace = _activities(obj)
    postcode = _POSTCODE.search(address) if address else None
    city = _CITY.search(address) if address else None
    record = CompanyRecord(
        country="UA",
        national_id=code,
        name=text(obj.get("NAME"), "NAME"),
        source_record_id=code,
        legal_form_name=text(obj.get("OPF"), "OPF"),
        status=status,
        founded_on=_first_date(obj.get("REGISTRATION"), "REGISTRATION"),
        dissolved_on=_first_date(obj.get("TERMINATED_INFO"), "TERMINATED_INFO")
        if status == "dissolved"
        else None,
        city=city[1].strip() if city else None,
        postal_code=postcode[1] if postcode else None,
        address_text=address,
        in_liquidation=liquidation,
        in_bankruptcy=bankruptcy,
        in_restructuring=restructuring,
        nace_primary=nace[0] if nace else None,
        nace_codes=tuple(nace) or None,
        roles=tuple(_roles(obj)),
    )
    return record


def _first_date(value: Any, name: str) -> date | None:
    """The first dd.mm.yyyy of a "date; date; record number" field."""
    raw = text(value, name)
    if raw is None:
        return None
    match = _DATE.search(raw)
    if match is None:
        raise RecordError(f"{name} has no dd.mm.yyyy date: {raw!r}")
    try:
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise RecordError(f"{name} has an impossible date: {match[0]!r}") from None


def _activities(obj: dict[str, Any]) -> list[str]:
    """KVED 2010 classes (the NACE Rev. 2 classes, `41.10`), the primary one first. The older XML has
    one `KVED` text "code name"."""
    kinds = obj.get("ACTIVITY_KINDS")
    if kinds is None:
        kved = text(obj.get("KVED"), "KVED")
        return [kved.split()[0]] if kved and re.fullmatch(r"\d{2}\.\d{2}", kved.split()[0]) else []
    items = kinds.get("ACTIVITY_KIND") if isinstance(kinds, dict) else None
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise RecordError(f"ACTIVITY_KINDS is not a list of activities: {kinds!r}"[:200])
    codes = []
    for item in sorted(items, key=lambda i: i.get("PRIMARY") != "так"):
        code = text(item.get("CODE"), "ACTIVITY_KIND.CODE")
        if code is None:
            continue
        if not re.fullmatch(r"\d{2}\.\d{2}", code):
            raise RecordError(f"ACTIVITY_KIND.CODE is not a KVED class: {code!r}")
        codes.append(code)
    return list(dict.fromkeys(codes))


def _roles(obj: dict[str, Any]) -> list[RoleRecord]:
    capital = _amount(obj.get("AUTHORIZED_CAPITAL"))
    out = [
        *(_founder(f, capital) for f in _list(obj.get("FOUNDERS"), "FOUNDERS")),
        *(
            _beneficiary(b)
            for b in _list(obj.get("BENEFICIARIES"), "BENEFICIARIES")
            if isinstance(b, dict) and b.get("Type", "beneficiary") == "beneficiary"
        ),
    ]
    signer = obj.get("SIGNERS")
    heads = _list(signer.get("SIGNER") if isinstance(signer, dict) else signer, "SIGNERS") or [
        obj.get("BOSS")
    ]
    for head in heads:
        name = (text(head, "SIGNER") or "").split(";")[0].strip()
        if name:
            out.append(RoleRecord("director", name, person=PersonRecord(name), title="керівник"))
    return [r for r in out if r.holder_name]


def _list(value: Any, name: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (str, dict)):
        return [value]
    if not isinstance(value, list):
        raise RecordError(f"{name} is not a list: {value!r}"[:200])
    return value


def _founder(founder: Any, capital: Decimal | None) -> RoleRecord:
    if isinstance(founder, str):  # the older XML: "Name, розмір внеску до статутного фонду - 1.00 грн."
        owner = founder.startswith(BENEFICIAL_OWNER)
        name = founder.removeprefix(BENEFICIAL_OWNER).lstrip(" -").split(",")[0].strip()
        return RoleRecord("beneficial_owner" if owner else "shareholder", name, person=PersonRecord(name))
    if not isinstance(founder, dict):
        raise RecordError(f"a founder is not an object: {founder!r}"[:200])
    name = text(founder.get("Name"), "Founder.Name") or ""
    edr = text(founder.get("FounderEdr"), "FounderEdr")
    share = _amount(founder.get("Capital"))
    pct = float(round(share / capital * 100, 4)) if share is not None and capital else None
    if edr and is_valid_national_id("UA", edr):
        return RoleRecord(
            "shareholder", name, share_pct=pct, holder_company=CompanyKey("UA", parse_national_id("UA", edr))
        )
    return RoleRecord("shareholder", name, person=PersonRecord(name), share_pct=pct)


def _beneficiary(owner: dict[str, Any]) -> RoleRecord:
    name = text(owner.get("Name"), "Beneficiary.Name") or ""
    match = _SHARE.search(str(owner.get("MediateName") or ""))
    control = text(owner.get("MediateEdr"), "MediateEdr")
    return RoleRecord(
        "beneficial_owner",
        name,
        person=PersonRecord(name),
        share_pct=float(match[1].replace(",", ".")) if match else None,
        natures_of_control=[control] if control else None,
    )


def _amount(value: Any) -> Decimal | None:
    """ "2000,00" or "1000.00" (the EDR writes both)."""
    raw = text(value, "amount")
    if raw is None:
        return None
    try:
        return Decimal(raw.replace(" ", "").replace(",", "."))
    except InvalidOperation:
        raise RecordError(f"not an amount: {raw!r}") from None


SOURCE = register(EdrSource())
