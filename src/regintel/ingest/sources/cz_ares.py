"""Czech ARES (REST API v3): `ekonomicke-subjekty` records as one record, a `vyhledat` search page or
JSON lines (one record a line, the shape a harvest of the API is saved in).

Insolvency (spec 1: the Czech side is "derived only from a register denormalised field"): ARES
publishes no proceedings, only in which source registers a subject is present. `stavZdrojeIr`
(the insolvency register ISIR) = AKTIVNI means an insolvency case against the subject is open, and
is mapped to `in_bankruptcy`; ARES does not say whether the case is a bankruptcy or a reorganisation,
so `in_restructuring` is never set from ARES. Liquidation is read from the name: Czech law makes a
company in liquidation add "v likvidaci" to its name. See docs/sources/cz_ares.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.names import fold
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, iso_date, join, text, vat
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.cz_ares_codes import KRAJ_NUTS3, LEGAL_FORMS

INFO = SourceInfo(
    id="cz_ares",
    name="ARES – Administrativní registr ekonomických subjektů",
    publisher="Ministerstvo financí České republiky",
    country="CZ",
    category="register",
    formats="ARES REST API v3 JSON: ekonomicke-subjekty record, vyhledat page, JSON lines (.gz accepted)",
    licence="ARES open data (free re-use)",
    attribution="Zdroj: ARES, Ministerstvo financí ČR",
    url="https://ares.gov.cz/ekonomicke-subjekty-v-be/rest",
    cadence="daily",
)
LIST_PATHS = ("ekonomickeSubjekty.item",)
ACTIVE = "AKTIVNI"
_LIQUIDATION = re.compile(r"\bv\s+likvidaci\b")


class AresSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        first = True
        for obj in json_objects(stream, LIST_PATHS):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                _check_shape(obj)
                first = False
            yield from items(obj)


def _check_shape(obj: Any) -> None:
    if isinstance(obj, dict) and {"kod", "popis"} <= obj.keys() and "ico" not in obj:
        raise SourceAbort(f"ARES answered an error: {obj.get('kod')} {obj.get('popis')}")
    if not isinstance(obj, dict) or not {"ico", "icoId", "obchodniJmeno"} & obj.keys():
        raise SourceAbort("not an ARES ekonomicke-subjekty file (no ico / obchodniJmeno in the first record)")


def items(obj: Any) -> Iterator[CompanyRecord | RecordError]:
    """The company record of one ARES subject, and a `RecordError` for a VAT id that had to be dropped."""
    if not isinstance(obj, dict):
        yield RecordError("an ekonomicke-subjekty item is not an object", obj)
        return
    try:
        record, why = to_record(obj)
    except RecordError as exc:
        exc.raw = obj
        yield exc
        return
    yield record
    if why:
        yield RecordError(f"invalid VAT id dropped (company kept): {why}", {"ico": record.national_id})


def to_record(obj: dict[str, Any]) -> tuple[CompanyRecord, str | None]:
    """The subject's record, and why its VAT id was dropped (None when it was not)."""
    ico = text(obj.get("ico"), "ico")
    if ico is None:
        raise RecordError(f"subject without an IČO (icoId {obj.get('icoId')!r})")
    name = text(obj.get("obchodniJmeno"), "obchodniJmeno")
    dissolved_on = iso_date(obj.get("datumZaniku"), "datumZaniku")
    legal_form = text(obj.get("pravniForma"), "pravniForma")
    nace = _nace(obj)
    tax_id = _tax_id(obj)
    in_bankruptcy = _in_insolvency_register(obj)
    vat_id, why = None, None
    if is_valid_national_id("CZ", ico):  # else the loader rejects the record anyway
        vat_id, why = vat(_vat_candidate(obj))
    record = CompanyRecord(
        country="CZ",
        national_id=ico,
        name=name,
        source_record_id=ico,
        published_on=iso_date(obj.get("datumAktualizace"), "datumAktualizace"),
        legal_form=legal_form,
        legal_form_name=LEGAL_FORMS.get(legal_form or ""),
        status="dissolved" if dissolved_on else "active",
        founded_on=iso_date(obj.get("datumVzniku"), "datumVzniku"),
        dissolved_on=dissolved_on,
        nace_primary=nace[0] if nace else None,
        nace_codes=tuple(nace) or None,
        vat_id=vat_id,
        tax_id=tax_id,
        in_bankruptcy=in_bankruptcy,
        in_liquidation=bool(name and not dissolved_on and _LIQUIDATION.search(fold(name))),
        **_address(obj.get("sidlo")),
    )
    return record, why


def _nace(obj: dict[str, Any]) -> list[str]:
    codes = obj.get("czNace") or obj.get("czNace2008") or []
    if not isinstance(codes, list):
        raise RecordError(f"czNace is not a list: {codes!r}")
    return [c for c in (text(v, "czNace") for v in codes) if c]


def _registrations(obj: dict[str, Any]) -> dict[str, Any]:
    reg = obj.get("seznamRegistraci") or {}
    if not isinstance(reg, dict):
        raise RecordError(f"seznamRegistraci is not an object: {reg!r}")
    return reg


def _in_insolvency_register(obj: dict[str, Any]) -> bool | None:
    """True while ISIR holds the subject; None when the record does not list its registrations."""
    state = text(_registrations(obj).get("stavZdrojeIr"), "stavZdrojeIr")
    return None if state is None else state == ACTIVE


def _tax_id(obj: dict[str, Any]) -> str | None:
    dic = text(obj.get("dic"), "dic")
    return dic.upper().removeprefix("CZ") if dic else None


def _vat_candidate(obj: dict[str, Any]) -> str | None:
    """The DIČ is a VAT id only while the subject is in the VAT payer register (stavZdrojeDph)."""
    dic = obj.get("dic")
    if not isinstance(dic, str) or _registrations(obj).get("stavZdrojeDph") != ACTIVE:
        return None
    return dic if dic.upper().startswith("CZ") else "CZ" + dic


def _address(sidlo: Any) -> Address:
    if not sidlo:
        return {}
    if not isinstance(sidlo, dict):
        raise RecordError(f"sidlo is not an object: {sidlo!r}")
    city = text(sidlo.get("nazevObce"), "nazevObce")
    place = (
        text(sidlo.get("nazevUlice"), "nazevUlice")
        or text(sidlo.get("nazevCastiObce"), "nazevCastiObce")
        or city
    )
    number = _house_number(sidlo)
    street = join([place, number], " ") if place else number
    postal_code = _postal_code(sidlo)
    address_text = text(sidlo.get("textovaAdresa"), "textovaAdresa") or join(
        [street, join([postal_code, city], " "), text(sidlo.get("nazevStatu"), "nazevStatu")]
    )
    kraj = sidlo.get("kodKraje")
    address: Address = {
        "street": street,
        "city": city,
        "postal_code": postal_code,
        "address_text": address_text,
        "region_code": text(kraj, "kodKraje"),
        "district_code": text(sidlo.get("kodOkresu"), "kodOkresu"),
        "municipality_code": text(sidlo.get("kodObce"), "kodObce"),
    }
    if sidlo.get("kodStatu", "CZ") == "CZ" and isinstance(kraj, int):
        address["nuts3"] = KRAJ_NUTS3.get(kraj)
    return address


def _house_number(sidlo: dict[str, Any]) -> str | None:
    """Czech house numbering: "3294/10" (číslo popisné / číslo orientační with its letter)."""
    house = text(sidlo.get("cisloDomovni"), "cisloDomovni")
    orient = join(
        [
            text(sidlo.get("cisloOrientacni"), "cisloOrientacni"),
            text(sidlo.get("cisloOrientacniPismeno"), "cisloOrientacniPismeno"),
        ],
        "",
    )
    if house and sidlo.get("typCisloDomovni") == 2:
        house = f"č.ev. {house}"  # an evidenční number, written with its prefix
    return join([house, orient], "/") or text(sidlo.get("cisloDoAdresy"), "cisloDoAdresy")


def _postal_code(sidlo: dict[str, Any]) -> str | None:
    psc = sidlo.get("psc")
    if isinstance(psc, int) and not isinstance(psc, bool):
        return f"{psc:05d}"
    return text(psc, "psc") or text(sidlo.get("pscTxt"), "pscTxt")


SOURCE = register(AresSource())
