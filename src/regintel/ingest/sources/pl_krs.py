"""Polish National Court Register (Krajowy Rejestr Sądowy, KRS), API KRS of the Ministry of Justice:
the current extract (`OdpisAktualny`, `{"odpis": {"rodzaj", "naglowekA", "dane": {dzial1..dzial6}}}`)
as one answer, a JSON array of answers or JSON lines (the shape a harvest of the API is kept in).

Identifier: the KRS number, 10 digits with leading zeros and no check digit (regintel's PL national
id; shape checked only). The extract also carries NIP (tax number, 10 digits, weighted mod-11 check
digit: python-stdnum `pl.nip`) and REGON (statistical number, 9 or 14 digits with check digits:
`pl.regon`); a wrong one is dropped with a reject line and the company kept. The VAT number is
"PL" + NIP only while the company is an active VAT payer (the Ministry of Finance's white list), which
the KRS does not say: no VAT id is derived.

Status: `naglowekA.stanPozycji` 1 is an entity whose entry is current (active); any other value is
an entry no longer current (struck off or otherwise ended: `inactive`, as the API does not say which).
Dział 6 holds the proceedings: `likwidacja` filled is a liquidation under way (`in_liquidation`);
`postepowanieUpadlosciowe` filled without a closing description is a bankruptcy (`in_bankruptcy`); a
restructuring section (`postepowanieRestrukturyzacyjne`, or the older `postepowanieNaprawcze`) filled
without its end is `in_restructuring`. An empty dział 6 is none of them.

People: the API masks natural persons (board members, proxies, shareholders: "K*****"), so they are
not imported; a shareholder that is a company (its name unmasked) is kept as a shareholder role.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from stdnum.exceptions import ValidationError
from stdnum.pl import nip as pl_nip
from stdnum.pl import regon as pl_regon

from regintel.domain.identifiers import is_valid_national_id, parse_national_id
from regintel.domain.types import CompanyKey, CompanyRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, join, text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.elf_names import elf_code

INFO = SourceInfo(
    id="pl_krs",
    name="KRS – Krajowy Rejestr Sądowy (API KRS, odpis aktualny)",
    publisher="Ministerstwo Sprawiedliwości",
    country="PL",
    category="register",
    formats="API KRS OdpisAktualny JSON: one answer, an array of answers or JSON lines (.gz accepted)",
    licence="Public register; re-use under the Polish Act of 11 August 2021 on open data and the re-use "
    "of public sector information (no licence stated by the API)",
    attribution="Źródło: Krajowy Rejestr Sądowy, Ministerstwo Sprawiedliwości (api-krs.ms.gov.pl)",
    url="https://api-krs.ms.gov.pl/api/krs/OdpisAktualny",
    cadence="on-demand",
)
_DMY = re.compile(r"(\d{2})\.(\d{2})\.(\d{4})")
RESTRUCTURING_KEYS = ("postepowanieRestrukturyzacyjne", "postepowanieNaprawcze")


class KrsSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        first = True
        for obj in json_objects(stream):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                if not isinstance(obj, dict) or not isinstance(obj.get("odpis"), dict):
                    raise SourceAbort("not an API KRS odpis file (no odpis object in the first record)")
                first = False
            yield from items(obj)


def items(obj: Any) -> Iterator[CompanyRecord | RecordError]:
    if not isinstance(obj, dict) or not isinstance(obj.get("odpis"), dict):
        yield RecordError("an item is not an API KRS odpis", obj if not isinstance(obj, dict) else None)
        return
    dropped: list[str] = []
    try:
        record = to_record(obj["odpis"], dropped)
    except RecordError as exc:
        exc.raw = obj
        yield exc
        return
    yield record
    for why in dropped:
        yield RecordError(f"invalid identifier dropped (company kept): {why}", {"krs": record.national_id})


def to_record(odpis: dict[str, Any], dropped: list[str]) -> CompanyRecord:
    header = _object(odpis, "naglowekA")
    number = text(header.get("numerKRS"), "numerKRS")
    if number is None:
        raise RecordError("odpis without a numerKRS")
    data = _object(odpis, "dane")
    section1 = _object(data, "dzial1")
    entity = _object(section1, "danePodmiotu")
    form = text(entity.get("formaPrawna"), "formaPrawna")
    position = header.get("stanPozycji")
    name = text(entity.get("nazwa"), "nazwa")
    published_on = _dmy(header.get("stanZDnia"), "stanZDnia")
    founded_on = _dmy(header.get("dataRejestracjiWKRS"), "dataRejestracjiWKRS")
    elf = elf_code("PL", form)
    tax_id, regon = _identifiers(entity.get("identyfikatory"), dropped)
    address = _address(section1.get("siedzibaIAdres"))
    nace_primary, nace_codes = _activities(data.get("dzial3"))
    in_liquidation, in_bankruptcy, in_restructuring = _proceedings(data.get("dzial6"))
    shareholders = _shareholders(section1.get("wspolnicySpzoo"))
    return CompanyRecord(
        country="PL",
        national_id=number,
        name=name,
        source_record_id=number,
        published_on=published_on,
        legal_form_name=form,
        status="active" if position in (1, "1", None) else "inactive",
        founded_on=founded_on,
        nace_primary=nace_primary,
        nace_codes=nace_codes,
        tax_id=tax_id,
        in_bankruptcy=in_bankruptcy,
        in_restructuring=in_restructuring,
        in_liquidation=in_liquidation,
        identifiers=(*((("elf", elf),) if elf else ()), *regon),
        roles=None if shareholders is None else tuple(shareholders),
        **address,
    )


def _object(obj: dict[str, Any], name: str) -> dict[str, Any]:
    value = obj.get(name)
    if not isinstance(value, dict):
        raise RecordError(f"{name} is not an object: {value!r}"[:200])
    return value


def _dmy(value: Any, name: str) -> date | None:
    raw = text(value, name)
    if raw is None:
        return None
    match = _DMY.match(raw)
    try:
        if match is None:
            raise ValueError(raw)
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise RecordError(f"{name} is not a dd.mm.yyyy date: {raw!r}") from None


def _identifiers(ids: Any, dropped: list[str]) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The NIP (tax id) and the REGON identifier; a number that fails its check is dropped."""
    if ids is None:
        return None, ()
    if not isinstance(ids, dict):
        raise RecordError(f"identyfikatory is not an object: {ids!r}")
    nip, regon = text(ids.get("nip"), "nip"), text(ids.get("regon"), "regon")
    tax_id = None
    if nip:
        try:
            tax_id = str(pl_nip.validate(nip))
        except ValidationError as exc:
            dropped.append(f"NIP {nip!r}: {exc}")
    if regon:
        # KRS writes a legal person's 9-digit REGON padded to 14 digits with 00000 (not a 14-digit
        # REGON of a local unit, whose last digit would be a check digit): the 9 digits are checked.
        padded = len(regon) == 14 and regon.endswith("00000")
        try:
            return tax_id, (("regon", str(pl_regon.validate(regon[:9] if padded else regon))),)
        except ValidationError as exc:
            dropped.append(f"REGON {regon!r}: {exc}")
    return tax_id, ()


def _address(seat: Any) -> Address:
    if seat is None:
        return {}
    if not isinstance(seat, dict):
        raise RecordError(f"siedzibaIAdres is not an object: {seat!r}"[:200])
    address = seat.get("adres") or {}
    if not isinstance(address, dict):
        raise RecordError(f"adres is not an object: {address!r}"[:200])

    def get(key: str) -> str | None:
        return text(address.get(key), key)

    number = join([get("nrDomu"), get("nrLokalu")], "/")
    street = join([get("ulica"), number], " ") or join([get("miejscowosc"), number], " ")
    postal_code = get("kodPocztowy")
    city = get("miejscowosc")
    where = seat.get("siedziba")
    where = where if isinstance(where, dict) else {}
    address_text = join(
        [
            street,
            join([postal_code, get("poczta") or city], " "),
            text(where.get("wojewodztwo"), "wojewodztwo"),
            get("kraj"),
        ]
    )
    return {"street": street, "postal_code": postal_code, "city": city, "address_text": address_text}


def _activities(section3: Any) -> tuple[str | None, tuple[str, ...] | None]:
    """PKD 2007 subclasses (NACE Rev. 2 class + a letter): `70.10.Z`, the predominant one first;
    (primary, all)."""
    if not isinstance(section3, dict):
        return None, None
    subject = section3.get("przedmiotDzialalnosci") or {}
    codes = []
    for key in ("przedmiotPrzewazajacejDzialalnosci", "przedmiotPozostalejDzialalnosci"):
        for item in subject.get(key) or []:
            if not isinstance(item, dict):
                raise RecordError(f"{key} item is not an object: {item!r}"[:200])
            parts = [text(item.get(k), k) for k in ("kodDzial", "kodKlasa", "kodPodklasa")]
            code = ".".join(p for p in parts if p)
            if not re.fullmatch(r"\d{2}\.\d{2}\.[A-Z]", code):
                raise RecordError(f"PKD code is not a subclass such as 70.10.Z: {code!r}")
            codes.append(code)
    codes = list(dict.fromkeys(codes))
    if not codes:
        return None, None
    return (codes[0] if subject.get("przedmiotPrzewazajacejDzialalnosci") else None), tuple(codes)


def _filled(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_filled(v) for v in value.values())
    if isinstance(value, list):
        return any(_filled(v) for v in value)
    return value not in (None, "", False)


def _proceedings(section6: Any) -> tuple[bool | None, bool | None, bool | None]:
    """(liquidation, bankruptcy, restructuring); None each when the odpis has no section 6."""
    if section6 is None:
        return None, None, None
    if not isinstance(section6, dict):
        raise RecordError(f"dzial6 is not an object: {section6!r}"[:200])
    bankruptcy = _open(section6.get("postepowanieUpadlosciowe"))
    restructuring = any(_open(section6.get(k)) for k in RESTRUCTURING_KEYS) and not bankruptcy
    return _filled(section6.get("likwidacja")), bankruptcy, restructuring


def _open(proceeding: Any) -> bool:
    """A filled proceeding whose last entry has no description of its end (`opisZakonczenia…`)."""
    entries = proceeding if isinstance(proceeding, list) else [proceeding]
    entries = [e for e in entries if _filled(e)]
    if not entries:
        return False
    last = entries[-1]
    return not (
        isinstance(last, dict)
        and any(k.startswith("opisZakonczenia") and _filled(v) for k, v in last.items())
    )


def _shareholders(partners: Any) -> list[RoleRecord] | None:
    """Shareholders of a sp. z o.o. that are companies (natural persons come masked and are left out)."""
    if partners is None:
        return None
    if not isinstance(partners, list):
        raise RecordError(f"wspolnicySpzoo is not a list: {partners!r}"[:200])
    out = []
    for partner in partners:
        if not isinstance(partner, dict):
            raise RecordError(f"a wspolnicySpzoo item is not an object: {partner!r}"[:200])
        name = text(partner.get("nazwa"), "wspolnicySpzoo.nazwa")
        if not name or "*" in name:
            continue
        krs = partner.get("krs")
        krs = krs if isinstance(krs, dict) else {}
        number = text(krs.get("krs"), "wspolnicySpzoo.krs")
        holder = (
            CompanyKey("PL", parse_national_id("PL", number))
            if number and number.strip("0") and is_valid_national_id("PL", number)
            else None
        )
        out.append(
            RoleRecord(
                "shareholder",
                name,
                holder_company=holder,
                title=text(partner.get("posiadaneUdzialy"), "posiadaneUdzialy"),
                share_pct=100.0 if partner.get("czyPosiadaCaloscUdzialow") is True else None,
            )
        )
    return out


SOURCE = register(KrsSource())
