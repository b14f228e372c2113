"""Croatian court register (Sudski registar), public API of the Ministry of Justice
(`https://sudreg-data.gov.hr/api/javni`): `/detalji_subjekta` answers (one subject with its current
name, seat, legal form, proceeding and capital), as one answer, an array or JSON lines; with or
without `expand_relations` (code-list values as objects with their names, or bare ids).

Identifiers: the register's own number is the MBS (matični broj subjekta, 9 digits); regintel keys
Croatian companies by the OIB (osobni identifikacijski broj, 11 digits, ISO 7064 mod 11,10 check
digit; python-stdnum `hr.oib`), the number the Tax Administration gives every person and company, so
that the same company is one record across sources. The MBS is kept as identifier `mbs`. Very old
deleted subjects that never received an OIB are skipped with that reason. The VAT number is "HR" +
OIB only for subjects in the VAT register, which sudreg does not say: no VAT id is derived.

Status: `datum_brisanja` (deletion from the register) makes a subject `dissolved`; otherwise it is
`active` (the top-level `status` of `/detalji_subjekta` is the data-history status of the row, not
the subject's). The proceeding (`postupak`, code list `/vrste_postupaka`): stečaj (bankruptcy) →
`in_bankruptcy`, likvidacija → `in_liquidation`, predstečajna nagodba (pre-bankruptcy settlement) →
`in_restructuring`, "nema postupka" → none. As bare ids only the three the API documents (1 none,
2 stečaj, 3 likvidacija) are read; another id leaves the flags unstated. A subject that is itself a
bankruptcy or liquidation estate (`stecajna_masa`, `likvidacijska_masa`) is in bankruptcy or
liquidation by definition.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from regintel.domain.types import CompanyRecord
from regintel.ingest import fields
from regintel.ingest.base import RecordError, Skipped, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, integer, iso_date, join, text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.elf_names import elf_code

INFO = SourceInfo(
    id="hr_sudreg",
    name="Sudski registar – public API (court register of Croatia)",
    publisher="Ministarstvo pravosuđa, uprave i digitalne transformacije",
    country="HR",
    category="register",
    formats="sudreg API javni /detalji_subjekta JSON: one answer, an array or JSON lines (.gz accepted)",
    licence="Otvorena dozvola Republike Hrvatske (Open Licence of the Republic of Croatia)",
    licence_url="https://data.gov.hr/otvorena-dozvola",
    attribution="Izvor: Sudski registar, Ministarstvo pravosuđa, uprave i digitalne transformacije",
    url="https://sudreg-data.gov.hr/api/javni",
    cadence="daily",
)
PROCEEDING_IDS = {1: "nema postupka", 2: "stečaj", 3: "likvidacija"}


class SudregSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        first = True
        for obj in json_objects(stream):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                if isinstance(obj, dict) and "error_code" in obj:
                    raise SourceAbort(
                        f"sudreg answered an error: {obj.get('error_code')} {obj.get('error_message')}"
                    )
                if not isinstance(obj, dict) or "mbs" not in obj:
                    raise SourceAbort("not a sudreg detalji_subjekta file (no mbs in the first record)")
                first = False
            if not isinstance(obj, dict):
                yield RecordError("a sudreg item is not an object", obj)
                continue
            try:
                yield to_record(obj)
            except RecordError as exc:
                exc.raw = obj
                yield exc


def to_record(obj: dict[str, Any]) -> CompanyRecord | Skipped:
    mbs = text(obj.get("potpuni_mbs"), "potpuni_mbs") or _padded(obj.get("mbs"), 9, "mbs")
    oib = text(obj.get("potpuni_oib"), "potpuni_oib") or _padded(obj.get("oib"), 11, "oib")
    if oib is None:
        return Skipped("subject without an OIB (old deleted subjects never received one)")
    dissolved_on = iso_date(obj.get("datum_brisanja"), "datum_brisanja")
    form_code, form_name = _legal_form(obj.get("pravni_oblik"))
    bankruptcy, liquidation, restructuring = _proceeding(obj.get("postupak"))
    if integer(obj.get("stecajna_masa"), "stecajna_masa") == 1:
        bankruptcy = True
    if integer(obj.get("likvidacijska_masa"), "likvidacijska_masa") == 1:
        liquidation = True
    name = _name(obj.get("tvrtka"), "tvrtka") or text(obj.get("tvrtka_kod_brisanja"), "tvrtka_kod_brisanja")
    published_on = iso_date(obj.get("vrijeme_zadnje_izmjene"), "vrijeme_zadnje_izmjene")
    founded_on = iso_date(obj.get("datum_osnivanja"), "datum_osnivanja")
    nace = _nkd(obj.get("glavna_djelatnost"))
    elf = elf_code("HR", form_name)
    record = CompanyRecord(
        country="HR",
        national_id=oib,
        name=name,
        source_record_id=mbs,
        published_on=published_on,
        legal_form=form_code,
        legal_form_name=form_name,
        status="dissolved" if dissolved_on else "active",
        founded_on=founded_on,
        dissolved_on=dissolved_on,
        in_bankruptcy=bankruptcy,
        in_liquidation=liquidation,
        in_restructuring=restructuring,
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        identifiers=(*((("mbs", mbs),) if mbs else ()), *((("elf", elf),) if elf else ())),
        **_seat(obj.get("sjediste")),
    )
    return record


def _padded(value: Any, width: int, name: str) -> str | None:
    number = integer(value, name)
    return None if number is None else f"{number:0{width}d}"


def _name(value: Any, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RecordError(f"{name} is not an object: {value!r}"[:200])
    return text(value.get("ime"), f"{name}.ime")


def _legal_form(value: Any) -> tuple[str | None, str | None]:
    """(code, name) from `pravni_oblik.vrsta_pravnog_oblika` {sifra, naziv, kratica}, or the bare id."""
    if value is None:
        return None, None
    if not isinstance(value, dict):
        raise RecordError(f"pravni_oblik is not an object: {value!r}"[:200])
    kind = value.get("vrsta_pravnog_oblika")
    if isinstance(kind, dict):
        return text(kind.get("sifra"), "vrsta_pravnog_oblika.sifra"), text(kind.get("naziv"), "naziv")
    return text(value.get("vrsta_pravnog_oblika_id"), "vrsta_pravnog_oblika_id"), None


def _proceeding(value: Any) -> tuple[bool | None, bool | None, bool | None]:
    """(bankruptcy, liquidation, restructuring) of the subject's current proceeding."""
    if value is None:
        return None, None, None
    if not isinstance(value, dict):
        raise RecordError(f"postupak is not an object: {value!r}"[:200])
    kind = value.get("postupak")
    meaning = (
        text(kind.get("znacenje"), "postupak.znacenje")
        if isinstance(kind, dict)
        else PROCEEDING_IDS.get(integer(kind, "postupak") or 0)
    )
    if meaning is None:
        return None, None, None
    meaning = meaning.lower()
    pre_bankruptcy = "predstečaj" in meaning
    return ("stečaj" in meaning and not pre_bankruptcy, "likvidacij" in meaning, pre_bankruptcy)


def _nkd(value: Any) -> str | None:
    """The main activity's NKD 2007 code (the NACE Rev. 2 class), written `06.10`."""
    code = integer(value, "glavna_djelatnost")
    if code is None:
        return None
    digits = f"{code:04d}"
    return f"{digits[:2]}.{digits[2:]}" if len(digits) == 4 else digits


def _seat(seat: Any) -> Address:
    if seat is None:
        return {}
    if not isinstance(seat, dict):
        raise RecordError(f"sjediste is not an object: {seat!r}"[:200])
    number = join(
        [text(seat.get("kucni_broj"), "kucni_broj"), text(seat.get("kucni_podbroj"), "kucni_podbroj")], ""
    )
    street = join([text(seat.get("ulica"), "ulica"), number], " ")
    city = text(seat.get("naziv_naselja"), "naziv_naselja") or text(
        seat.get("naselje_van_sifrarnika"), "naselje_van_sifrarnika"
    )
    return fields.seat(
        street,
        text(seat.get("postanski_broj"), "postanski_broj"),
        city,
        text(seat.get("naziv_zupanije"), "naziv_zupanije"),
        region_code=text(seat.get("sifra_zupanije"), "sifra_zupanije"),
        municipality_code=text(seat.get("sifra_opcine"), "sifra_opcine"),
    )


SOURCE = register(SudregSource())
