"""Reading a Member State trusted list in the XML format of ETSI TS 119 612 v2.x: `TrustServiceStatusList` →
`SchemeInformation` (territory, sequence number, `ListIssueDateTime`) and `TrustServiceProviderList` →
`TrustServiceProvider` (`TSPInformation`: `TSPName`, `TSPTradeName`, `TSPAddress`) → `TSPServices` →
`TSPService` (`ServiceInformation`: `ServiceTypeIdentifier`, `ServiceName`, `ServiceStatus`,
`StatusStartingTime`; `ServiceHistory`).

One `Authorisation` (sector `trust`) per service, with the status it had **at the list's issue date**: the
current `ServiceInformation` when its status started by then, else the latest `ServiceHistoryInstance`
that had (a status dated after the list is not yet in force). The provider's registration identifier
(`TSPTradeName` in the form of EN 319 412-1: `VATSK-2020123456`, `NTRCZ-12345678`, `LEIXG-...`) is kept in
`licence_number` and decides the link (areas/regulated/linking.py).

The XML is parsed with no network, no DTD and no entity expansion, and a document with a DOCTYPE is
refused: a trusted list has none, and an entity is how XXE and expansion attacks arrive. The list's XAdES
signature is not verified (docs/regulated.md, "Not done")."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import IO, Any

from lxml import etree

from regintel.ingest.base import RecordError, SourceAbort

from . import trust_rules
from .records import Authorisation

NS = "{http://uri.etsi.org/02231/v2#}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
MAX_BYTES = 64 << 20  # the largest national lists are a few MB
LOTL = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists"
IDENTIFIER = re.compile(r"^(VAT|NTR|LEI)([A-Z]{2})-(.+)$")


@dataclass(frozen=True)
class ListHeader:
    territory: str
    sequence: str | None
    issued: datetime


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )


def read_list(stream: IO[bytes], name: str) -> Any:
    """The list's root element; `SourceAbort` for anything that is not one trusted list."""
    raw = stream.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise SourceAbort(f"{name} is larger than {MAX_BYTES >> 20} MB: not a trusted list")
    try:
        tree = etree.ElementTree(etree.fromstring(raw, _parser()))
    except etree.XMLSyntaxError as exc:
        raise SourceAbort(f"{name} is not well-formed XML: {exc}") from None
    if tree.docinfo.doctype:
        raise SourceAbort(f"{name} declares a DOCTYPE: a trusted list has none, so it is not read")
    root = tree.getroot()
    if root.tag != f"{NS}TrustServiceStatusList":
        raise SourceAbort(f"{name}: root element {root.tag!s} is not a TS 119 612 TrustServiceStatusList")
    return root


def _text(el: Any, path: str) -> str | None:
    found = el.find(path) if el is not None else None
    value = " ".join((found.text or "").split()) if found is not None else ""
    return value or None


def _time(value: str | None, what: str) -> datetime:
    if not value:
        raise RecordError(f"{what} is missing")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise RecordError(f"{what} {value!r} is not an ISO 8601 date-time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # the standard writes UTC


def header(root: Any, name: str) -> ListHeader:
    info = root.find(f"{NS}SchemeInformation")
    territory = (_text(info, f"{NS}SchemeTerritory") or "").upper()
    if _text(info, f"{NS}TSLType") == LOTL:
        raise SourceAbort(f"{name} is the EU list of the lists: give a Member State's trusted list")
    if not re.fullmatch(r"[A-Z]{2}", territory):
        raise SourceAbort(f"{name}: SchemeTerritory {territory!r} is not a country code")
    try:
        issued = _time(_text(info, f"{NS}ListIssueDateTime"), "ListIssueDateTime")
    except RecordError as exc:
        raise SourceAbort(f"{name}: {exc}") from None
    return ListHeader(territory, _text(info, f"{NS}TSLSequenceNumber"), issued)


def _name(el: Any, lang: str) -> str | None:
    """The name in `lang`, else in another language than English (the registers hold the native legal
    name, which an English rendering would not match), else the first given."""
    names = [n for n in (el.findall(f"{NS}Name") if el is not None else []) if (n.text or "").strip()]
    ranked = sorted(names, key=lambda n: {lang: 0, "en": 2}.get((n.get(XML_LANG) or "").lower(), 1))
    return " ".join(ranked[0].text.split()) if ranked else None


def identifier(trade_name: Any) -> tuple[str, str, str] | None:
    """(scheme, country, value) of the first `TSPTradeName` entry written as EN 319 412-1 identifier."""
    for n in trade_name.findall(f"{NS}Name") if trade_name is not None else []:
        found = IDENTIFIER.match("".join((n.text or "").split()))
        if found:
            return found.group(1), found.group(2), found.group(3)
    return None


def _address(info: Any, lang: str) -> tuple[str | None, str | None, str | None]:
    """(one-line address, town, country) of the provider's postal address in the list's language."""
    addresses = info.findall(f"{NS}TSPAddress/{NS}PostalAddresses/{NS}PostalAddress")
    chosen = next((a for a in addresses if (a.get(XML_LANG) or "").lower() == lang), None)
    chosen = chosen if chosen is not None else (addresses[0] if addresses else None)
    if chosen is None:
        return None, None, None
    street, town = _text(chosen, f"{NS}StreetAddress"), _text(chosen, f"{NS}Locality")
    code, country = _text(chosen, f"{NS}PostalCode"), _text(chosen, f"{NS}CountryName")
    line = ", ".join(filter(None, (street, " ".join(filter(None, (code, town))) or None)))
    country = (country or "").upper()
    return line or None, town[:128] if town else None, country if re.fullmatch(r"[A-Z]{2}", country) else None


def _status_at(service: Any, issued: datetime) -> Any:
    """The ServiceInformation or ServiceHistoryInstance in force at the list's date, or None."""
    candidates = [service.find(f"{NS}ServiceInformation")]
    candidates += service.findall(f"{NS}ServiceHistory/{NS}ServiceHistoryInstance")
    dated = []
    for c in candidates:
        if c is not None:
            dated.append((_time(_text(c, f"{NS}StatusStartingTime"), "StatusStartingTime"), c))
    in_force = [(t, c) for t, c in dated if t <= issued]
    return max(in_force, key=lambda tc: tc[0])[1] if in_force else None


@dataclass(frozen=True)
class Provider:
    name: str
    trade_id: tuple[str, str, str] | None
    address: str | None
    city: str | None
    country: str

    @property
    def registration(self) -> str | None:
        """The identifier as `TSPTradeName` writes it (`NTRSK-53101014`)."""
        return f"{self.trade_id[0]}{self.trade_id[1]}-{self.trade_id[2]}" if self.trade_id else None


def provider(tsp: Any, territory: str) -> Provider:
    info = tsp.find(f"{NS}TSPInformation")
    lang = territory.lower()
    name = _name(info.find(f"{NS}TSPName"), lang) if info is not None else None
    if info is None or not name:
        raise RecordError("TSPInformation/TSPName is missing")
    address, city, country = _address(info, lang)
    trade_id = identifier(info.find(f"{NS}TSPTradeName"))
    return Provider(name, trade_id, address, city, trade_id[1] if trade_id else (country or territory))


def _key(p: Provider, info: Any) -> str:
    """The provider's identifier (else name) and a digest of what names the service in its current
    ServiceInformation (type, name, digital identity), which a change of status leaves as it is."""
    identity = info.find(f"{NS}ServiceDigitalIdentity")
    parts = (
        _text(info, f"{NS}ServiceTypeIdentifier") or "",
        _name(info.find(f"{NS}ServiceName"), "en") or "",
        etree.tostring(identity, encoding="unicode") if identity is not None else "",
    )
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:24]
    return f"{(p.registration or p.name)[:120]}/{digest}"


def service(
    source: str, p: Provider, national_id: str | None, svc: Any, head: ListHeader
) -> Authorisation | None:
    """One service as an `Authorisation` (or None when no status of it is in force at the list's date)."""
    state = _status_at(svc, head.issued)
    if state is None:
        return None
    current = svc.find(f"{NS}ServiceInformation")
    kind = _text(state, f"{NS}ServiceTypeIdentifier") or _text(current, f"{NS}ServiceTypeIdentifier")
    status_uri = _text(state, f"{NS}ServiceStatus") or ""
    word = trust_rules.status_word(status_uri)
    if not kind:
        raise RecordError(f"ServiceTypeIdentifier missing (a service of {p.name})")
    if word is None:  # the reason's head (before any colon) is what the run's statistics count
        last = status_uri.rsplit("/", 1)[-1] or "(empty)"
        raise RecordError(
            f"ServiceStatus {last!r} is not a TS 119 612 status (a service of {p.name}): {status_uri}"
        )
    since: date = _time(_text(state, f"{NS}StatusStartingTime"), "StatusStartingTime").date()
    active = trust_rules.is_current(word)
    return Authorisation(
        source=source,
        country=p.country,
        sector="trust",
        record_key=_key(p, current if current is not None else state),
        name=p.name,
        national_id=national_id,
        address=p.address,
        city=p.city,
        licence_type=kind[:500],
        category=trust_rules.category(kind, word),
        status="active" if active else "ended",
        status_text=word,
        licence_number=p.registration,
        granted_on=since if active else None,
        ended_on=None if active else since,
    )


def providers(root: Any) -> Iterator[Any]:
    yield from root.iterfind(f"{NS}TrustServiceProviderList/{NS}TrustServiceProvider")


def services(tsp: Any) -> Iterator[Any]:
    yield from tsp.iterfind(f"{NS}TSPServices/{NS}TSPService")
