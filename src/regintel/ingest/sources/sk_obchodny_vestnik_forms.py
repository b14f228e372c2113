"""The notice forms of the Slovak gazette export → `InsolvencyEventRecord` (or `Skipped`, `RecordError`).

One function per form of the publisher's XML Schemas (tests/fixtures/sk_obchodny_vestnik/schemas):
`KonkurzARestrukt` (court resolutions in bankruptcy and restructuring, zákon 7/2005),
`KonkurzyAVyrovnania` (court notices under the old bankruptcy and composition law, zákon 328/1991),
`OznameniaSpravcov` (trustee notices), `OznamenieVyzvaLikvidatorov` (a liquidator's call to creditors)
and `ORPodanie` (commercial-register filings). Elements are matched by local name, so the forms read
the same with or without their target namespace.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache

from regintel.domain.names import fold, normalise_name, tokens
from regintel.domain.types import CompanyRecord, InsolvencyEventRecord
from regintel.ingest.base import RecordError, Skipped
from regintel.ingest.sources.sk_obchodny_vestnik_kinds import Kind, classify, classify_register_filing

DETAIL_URL = "https://obchodnyvestnik.justice.gov.sk/ObchodnyVestnik/Formular/FormularDetail.aspx?IdFormular="
SUMMARY_CHARS = 1_000
TITLES = {
    ("bankruptcy", "start"): "Vyhlásenie konkurzu",
    ("bankruptcy", "end"): "Skončenie konkurzu",
    ("restructuring", "start"): "Povolenie reštrukturalizácie",
    ("restructuring", "end"): "Skončenie reštrukturalizácie",
    ("liquidation", "start"): "Vstup do likvidácie",
    ("liquidation", "end"): "Skončenie likvidácie",
}
_SK = {"", "slovenska republika", "slovensko", "sr", "sk", "svk", "slovakia", "slovak republic"}
_CZ = {"ceska republika", "cesko", "cr", "cz", "cze", "czech republic", "czechia"}
_ICO_IN_TEXT = re.compile(r"\bico\s*:?\s*(\d(?:\s?\d){5,7})\b")
_DMY = re.compile(r"(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})")

Outcome = InsolvencyEventRecord | Skipped | RecordError


@dataclass(frozen=True)
class Podanie:
    """The envelope of one published notice (WSDL type `ObchodnyVestnikPodanie`)."""

    id: str
    mark: str | None = None  # Znacka, the notice's mark in its issue ("K012345")
    issue: str | None = None  # "45/2024": ObchodnyVestnik Cislo/Rocnik
    published_on: date | None = None  # ObchodnyVestnik DenVydania

    @property
    def link(self) -> str:
        return DETAIL_URL + self.id

    @property
    def reference(self) -> str | None:
        parts = [f"Obchodný vestník {self.issue}" if self.issue else None, self.mark]
        return ", ".join(p for p in parts if p) or None


@lru_cache(maxsize=4096)  # a form's tag vocabulary is small; called for every element visited
def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def child(elem: ET.Element | None, *path: str) -> ET.Element | None:
    for name in path:
        if elem is None:
            return None
        for sub in elem:
            if local(sub.tag) == name:
                elem = sub
                break
        else:
            elem = None
    return elem


def children(elem: ET.Element | None, name: str) -> list[ET.Element]:
    return [sub for sub in elem if local(sub.tag) == name] if elem is not None else []


def text(elem: ET.Element | None, *path: str) -> str | None:
    """An element's text with whitespace collapsed; None when absent, empty or `xsi:nil`."""
    node = child(elem, *path)
    if node is None:
        return None
    value = " ".join("".join(node.itertext()).split())
    return value or None


def day(value: str | None, name: str) -> date | None:
    """`YYYY-MM-DD` (with or without a time part) or `d. m. yyyy`; None when empty."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00")).date()
    except ValueError:
        pass
    match = _DMY.search(value)
    try:
        if match is None:
            raise ValueError(value)
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise RecordError(f"{name} is not a date: {value!r}") from None


def map_form(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    mapper = MAPPERS.get(local(form.tag))
    if mapper is None:
        yield Skipped(f"{local(form.tag)}: not an insolvency notice")
        return
    try:
        yield from mapper(podanie, form)
    except RecordError as exc:
        yield RecordError(f"notice {podanie.id}: {exc.reason}", exc.raw or {"notice": podanie.id})


@dataclass
class _Subject:
    """The company a notice is about, as the notice gives it."""

    ico: str | None
    name: str | None
    seat: ET.Element | None  # a `Sidlo`-like element (Ulica, Cislo/CisloUl, Obec, Psc, Stat)
    legal_person: bool = True  # False: may be a sole trader, never created from a notice

    def key(self) -> tuple[str, str] | Skipped:
        if not self.ico:
            return Skipped("debtor without IČO (a natural person): not tracked")
        ico = "".join(self.ico.split())  # published as "35 757 442" as often as "35757442"
        stat = fold(text(self.seat, "Stat") or "").strip()
        if stat in _SK:
            return "SK", ico
        if stat in _CZ:
            return "CZ", ico
        return Skipped("debtor seated abroad: not tracked")

    def record(self, country: str) -> CompanyRecord | None:
        """Name and seat for creating the company when it is unknown; None for a possible sole trader."""
        if not self.name or not (self.legal_person or _has_legal_form(self.name)):
            return None
        street = (
            " ".join(
                filter(
                    None, [text(self.seat, "Ulica"), text(self.seat, "Cislo") or text(self.seat, "CisloUl")]
                )
            )
            or None
        )
        city, postal = text(self.seat, "Obec"), (text(self.seat, "Psc") or "").replace(" ", "") or None
        address = ", ".join(filter(None, [street, " ".join(filter(None, [postal, city]))])) or None
        return CompanyRecord(
            country=country,
            national_id=self.ico or "",
            name=self.name,
            street=street,
            city=city,
            postal_code=postal if postal and len(postal) <= 16 else None,
            address_text=address,
        )


def _has_legal_form(name: str) -> bool:
    """A name that ends (or starts) with a legal form ("s.r.o.", "a.s.") is a legal person's."""
    return normalise_name(name) != " ".join(tokens(name))


def _event(
    podanie: Podanie,
    kind: Kind,
    subject: _Subject,
    *,
    title: str | None,
    summary: str | None,
    court: str | None = None,
    case_number: str | None = None,
    decision_date: date | None = None,
    event_date: date | None = None,
    trustee: str | None = None,
    notice_id: str | None = None,
) -> Outcome:
    key = subject.key()
    if isinstance(key, Skipped):
        return key
    when = event_date or podanie.published_on or decision_date
    if when is None:
        raise RecordError("no publication or decision date")
    return InsolvencyEventRecord(
        country=key[0],
        national_id=key[1],
        event_type=kind[0],
        phase=kind[1],
        event_date=when,
        notice_id=notice_id or podanie.id,
        title=title or TITLES[kind],
        published_on=podanie.published_on,
        decision_date=decision_date,
        court=court,
        case_number=case_number,
        reference=podanie.reference,
        link=podanie.link,
        summary=_summary(summary),
        trustee=trustee,
        debtor=subject.record(key[0]),
    )


def _summary(value: str | None) -> str | None:
    if not value:
        return None
    return value if len(value) <= SUMMARY_CHARS else value[: SUMMARY_CHARS - 1].rstrip() + "…"


def konkurz_a_restrukt(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    """A court resolution in bankruptcy or restructuring (KonkurzARestrukt.xsd)."""
    kind_label, decision = text(form, "Text", "Druh"), text(form, "Text", "Rozhodnutie")
    kind = classify(kind_label, decision)
    if kind is None:
        yield Skipped("court notice that neither starts nor ends a bankruptcy or restructuring")
        return
    debtor = child(form, "Dlznik")
    subject = _Subject(text(debtor, "ICO"), text(debtor, "Nazov"), debtor, legal_person=False)
    trustees = [text(s, "Nazov") for s in children(child(form, "Spravcovia"), "Spravca")]
    yield _event(
        podanie,
        kind,
        subject,
        title=kind_label,
        summary=decision or text(form, "Text", "Oznam"),
        court=text(form, "Autor", "Sud"),
        case_number=text(form, "Autor", "SpisovaZnacka"),
        decision_date=day(text(form, "DatumVydania"), "DatumVydania"),
        trustee="; ".join(t for t in trustees if t) or None,
    )


def konkurzy_a_vyrovnania(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    """A court notice under the old bankruptcy and composition law (KonkurzyAVyrovnania.xsd)."""
    label, published = text(form, "ZverejnujeTyp"), text(form, "SudZverejnuje")
    kind = classify(label, published)
    if kind is None:
        yield Skipped("court notice that neither starts nor ends a bankruptcy or restructuring")
        return
    subject = _Subject(
        text(form, "Ico"), text(form, "ObchodneMenoNazov"), child(form, "Sidlo"), legal_person=False
    )
    yield _event(
        podanie,
        kind,
        subject,
        title=label,
        summary=published,
        court=text(form, "KrajskySud"),
        case_number=text(form, "SpisovaZnacka"),
    )


def oznamenia_spravcov(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    """A trustee's notice (OznameniaSpravcov.xsd): read only when its kind names a start or an end."""
    label = text(form, "DruhPodania")
    kind = classify(label)
    if kind is None:
        yield Skipped("trustee notice that neither starts nor ends a bankruptcy or restructuring")
        return
    debtor = child(form, "Upadca")
    subject = _Subject(
        text(debtor, "Ico"), text(debtor, "ObchodneMenoNazov"), child(debtor, "Sidlo"), legal_person=False
    )
    yield _event(
        podanie,
        kind,
        subject,
        title=label,
        summary=text(form, "TextPodania"),
        court=text(form, "Sud"),
        case_number=text(form, "SpisovaZnackaSudnehoSpisu"),
        trustee=text(form, "Spravca", "ObchodneMenoNazov"),
    )


def vyzva_likvidatorov(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    """A liquidator's call to creditors (OznamenieVyzvaLikvidatorov.xsd): the company is in
    liquidation since `RozhodnutieDatumZaciatkuLikvidacie`."""
    firm = child(form, "Podnik")
    state_firm = child(firm, "UdajeStatnyPodnik")
    name = text(firm, "Udaje", "ObchodneMenoNazov") or text(state_firm, "ObchodneMenoNazov")
    seat = (
        child(firm, "Udaje", "Sidlo")
        if text(firm, "Udaje", "ObchodneMenoNazov")
        else child(state_firm, "Sidlo")
    )
    subject = _Subject(text(firm, "Ico") or text(state_firm, "Ico"), name, seat)
    started = day(text(form, "RozhodnutieDatumZaciatkuLikvidacie"), "RozhodnutieDatumZaciatkuLikvidacie")
    register = child(firm, "ZapisRegister")
    section, insert = text(register, "OrOddiel"), text(register, "OrVlozka")
    basis, deadline = text(form, "RozhodnutieNaZaklade"), text(form, "PohladavkyLehota")
    summary = "; ".join(
        filter(
            None,
            [
                f"Likvidácia od {started.isoformat()}" if started else None,
                f"rozhodnutie: {basis}" if basis else None,
                f"lehota na prihlásenie pohľadávok: {deadline}" if deadline else None,
            ],
        )
    )
    yield _event(
        podanie,
        ("liquidation", "start"),
        subject,
        title="Výzva likvidátora veriteľom",
        summary=summary,
        court=text(register, "OrSud"),
        case_number=f"Oddiel: {section}, vložka č. {insert}" if section and insert else None,
        decision_date=day(text(form, "RozhodnutieDatum"), "RozhodnutieDatum"),
        event_date=started,
        trustee=text(form, "Likvidatori", "LikvidatorPO", "ObchodneMenoNazov"),
    )


def or_podania(podanie: Podanie, form: ET.Element) -> Iterator[Outcome]:
    """Commercial-register filings (ORPodanie.xsd): free text, read for liquidation only. The IČO is
    taken from the text when it names exactly one; the text names no structured company, so these
    notices only flag companies already in the database."""
    filings = [form] if local(form.tag) == "ORPodanie" else children(form, "ORPodanie")
    for n, filing in enumerate(filings, 1):
        body, label = text(filing, "TextPodania"), text(filing, "TypNazov")
        kind = classify_register_filing(label, body)
        if kind is None:
            yield Skipped("register filing without a liquidation entry")
            continue
        found = {m.replace(" ", "") for m in _ICO_IN_TEXT.findall(fold(body or ""))}
        if len(found) != 1:
            yield Skipped("register filing that does not name exactly one IČO")
            continue
        subject = _Subject(found.pop(), None, None)
        yield _event(
            podanie,
            kind,
            subject,
            title=f"{label}: {TITLES[kind]}" if label else None,
            summary=body,
            court=text(filing, "SudNazov"),
            case_number=text(filing, "ORZnacka"),
            notice_id=podanie.id if len(filings) == 1 else f"{podanie.id}-{n}",
        )


MAPPERS: dict[str, Callable[[Podanie, ET.Element], Iterator[Outcome]]] = {
    "KonkurzARestrukt": konkurz_a_restrukt,
    "KonkurzyAVyrovnania": konkurzy_a_vyrovnania,
    "OznameniaSpravcov": oznamenia_spravcov,
    "OznamenieVyzvaLikvidatorov": vyzva_likvidatorov,
    "ORPodanie": or_podania,
    "ORPodania": or_podania,
}
