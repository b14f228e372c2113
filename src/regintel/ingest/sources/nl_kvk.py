"""Dutch Chamber of Commerce (Kamer van Koophandel, KvK), API Basisprofiel v1: one enterprise's base
profile (`/basisprofielen/{kvkNummer}`, with `_embedded.hoofdvestiging` and `_embedded.eigenaar`), as
one answer, a JSON array of answers or JSON lines. Zoeken (search) result pages are skipped: they
carry a name and a street name only, not a company record.

Identifier: the KvK number (8 digits, no check digit; regintel's NL national id, shape checked). The
owner's RSIN (fiscal number of a legal person, 9 digits, 11-test: python-stdnum `nl.bsn` checks the
same rule) is kept as identifier `rsin`; a wrong one is dropped with a reject line. The VAT number of
a legal person is usually but not always NL + RSIN + B01, and sole traders have a separate one: none
is derived.

Status: `materieleRegistratie.datumEinde` is the end of the enterprise: `dissolved`; otherwise
`active`. The Basisprofiel says nothing about bankruptcy (faillissement), suspension of payments
(surseance) or dissolution in progress, so the three flags are left unstated. A shielded address
(`indAfgeschermd` = Ja) is not imported.

The only samples are KvK's own test-environment answers about **fictitious** enterprises; they are
not in `regintel demo`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from stdnum.exceptions import ValidationError
from stdnum.nl import bsn as nl_bsn

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, integer, join, text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.elf_names import elf_code

INFO = SourceInfo(
    id="nl_kvk",
    name="KvK Handelsregister – API Basisprofiel",
    publisher="Kamer van Koophandel (KvK)",
    country="NL",
    category="register",
    formats="KvK API Basisprofiel v1 JSON: one answer, an array or JSON lines (.gz accepted)",
    licence="KvK API terms of use (data of the Handelsregister; paid API)",
    licence_url="https://developers.kvk.nl/documentation/terms-of-use",
    attribution="Bron: Handelsregister, Kamer van Koophandel (KvK API)",
    url="https://api.kvk.nl/api/v1/basisprofielen",
    cadence="on-demand",
)


class KvkSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        first = True
        for obj in json_objects(stream):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if isinstance(obj, dict) and "resultaten" in obj:
                yield Skipped("Zoeken result page (names and street names only, not a base profile)")
                continue
            if first:
                if isinstance(obj, dict) and "fout" in obj:
                    raise SourceAbort(f"KvK answered an error: {str(obj.get('fout'))[:200]}")
                if not isinstance(obj, dict) or "kvkNummer" not in obj:
                    raise SourceAbort("not a KvK Basisprofiel file (no kvkNummer in the first record)")
                first = False
            if not isinstance(obj, dict):
                yield RecordError("a Basisprofiel item is not an object", obj)
                continue
            dropped: list[str] = []
            try:
                record = to_record(obj, dropped)
            except RecordError as exc:
                exc.raw = obj
                yield exc
                continue
            yield record
            for why in dropped:
                yield RecordError(
                    f"invalid identifier dropped (company kept): {why}", {"kvkNummer": record.national_id}
                )


def to_record(obj: dict[str, Any], dropped: list[str]) -> CompanyRecord:
    number = text(obj.get("kvkNummer"), "kvkNummer")
    if number is None:
        raise RecordError("Basisprofiel without a kvkNummer")
    embedded = _object(obj.get("_embedded") or {}, "_embedded")
    owner = _object(embedded.get("eigenaar") or {}, "eigenaar")
    main = _object(embedded.get("hoofdvestiging") or {}, "hoofdvestiging")
    period = _object(obj.get("materieleRegistratie") or {}, "materieleRegistratie")
    ended = _ymd(period.get("datumEinde"), "datumEinde")
    form = text(owner.get("rechtsvorm"), "rechtsvorm")
    nace, has_main = _activities(obj.get("sbiActiviteiten"))
    identifiers: list[tuple[str, str]] = []
    elf = elf_code("NL", form)
    if elf:
        identifiers.append(("elf", elf))
    rsin = text(owner.get("rsin") or obj.get("rsin"), "rsin")
    if rsin:
        try:
            identifiers.append(("rsin", str(nl_bsn.validate(rsin))))
        except ValidationError as exc:
            dropped.append(f"RSIN {rsin!r}: {exc}")
    record = CompanyRecord(
        country="NL",
        national_id=number,
        name=text(obj.get("statutaireNaam"), "statutaireNaam") or text(obj.get("naam"), "naam"),
        source_record_id=number,
        legal_form_name=text(owner.get("uitgebreideRechtsvorm"), "uitgebreideRechtsvorm") or form,
        status="dissolved" if ended else "active",
        founded_on=_ymd(period.get("datumAanvang"), "datumAanvang")
        or _ymd(obj.get("formeleRegistratiedatum"), "formeleRegistratiedatum"),
        dissolved_on=ended,
        employees=integer(obj.get("totaalWerkzamePersonen"), "totaalWerkzamePersonen"),
        nace_primary=nace[0] if nace and has_main else None,
        nace_codes=tuple(nace) or None,
        identifiers=tuple(identifiers),
        **_address(main.get("adressen") or owner.get("adressen")),
    )
    return record


def _object(value: Any, name: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{name} is not an object: {value!r}"[:200])
    return value


def _ymd(value: Any, name: str) -> date | None:
    """KvK dates are yyyymmdd; 00 stands for an unknown month or day (taken as 01)."""
    raw = text(value, name)
    if raw is None:
        return None
    try:
        if len(raw) != 8 or not raw.isdigit():
            raise ValueError(raw)
        return date(int(raw[:4]), int(raw[4:6]) or 1, int(raw[6:]) or 1)
    except ValueError:
        raise RecordError(f"{name} is not a yyyymmdd date: {raw!r}") from None


def _activities(value: Any) -> tuple[list[str], bool]:
    """SBI 2008 codes (NACE + national digits) as published, the main activity (indHoofdactiviteit
    Ja) first, and whether there is one."""
    if value is None:
        return [], False
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RecordError(f"sbiActiviteiten is not a list of objects: {value!r}"[:200])
    ordered = sorted(value, key=lambda a: a.get("indHoofdactiviteit") != "Ja")
    codes = []
    for activity in ordered:
        code = text(activity.get("sbiCode"), "sbiCode")
        if code is None:
            continue
        if not (code.isdigit() and 2 <= len(code) <= 5):
            raise RecordError(f"sbiCode is not an SBI code: {code!r}")
        codes.append(code)
    return list(dict.fromkeys(codes)), bool(ordered) and ordered[0].get("indHoofdactiviteit") == "Ja"


def _address(addresses: Any) -> Address:
    if addresses is None:
        return {}
    if not isinstance(addresses, list) or not all(isinstance(a, dict) for a in addresses):
        raise RecordError(f"adressen is not a list of objects: {addresses!r}"[:200])
    visible = [a for a in addresses if a.get("indAfgeschermd") != "Ja"]
    visible.sort(key=lambda a: a.get("type") != "bezoekadres")
    if not visible:
        return {}
    address = visible[0]

    def get(key: str) -> str | None:
        return text(address.get(key), key)

    number = join([get("huisnummer"), get("huisletter"), get("huisnummerToevoeging")], "")
    street = join([get("straatnaam"), number, get("toevoegingAdres")], " ")
    postal_code = get("postcode")
    city = get("plaats")
    country = get("land")
    address_text = join(
        [
            street,
            join([postal_code, city], " "),
            country if country and country != "Nederland" else None,
        ]
    )
    return {"street": street, "city": city, "postal_code": postal_code, "address_text": address_text}


SOURCE = register(KvkSource())
