"""Slovenian Business Register (Poslovni register Slovenije, PRS) of AJPES: the open-data list of
business entities, one row per registered unit, `;`-separated, UTF-8 (a BOM tolerated), dates
dd.mm.yyyy or ISO.

Identifier: the matična številka, 10 digits: six, a weighted mod-11 check digit, and three digits of
the unit (000 the entity itself, 001… its branches, podružnice). python-stdnum `si.maticna` validates
it and writes the entity's number as the seven leading digits. Branch rows (unit ≠ 000) are skipped
with that reason: they are parts of the entity, not entities. The tax number (davčna številka, 8
digits, python-stdnum `si.ddv`) is stored as the tax id; VAT: the VAT id is "SI" + the tax number, but
only for entities FURS registered for VAT (zavezanci za DDV), which PRS does not say, so none is
derived.

Status (the status column's words): an entity entered and not struck off is active; "izbris" (struck
off the register) is dissolved; "likvidacija" (voluntary liquidation, ZGD-1) is in_liquidation;
"stečaj" (bankruptcy, ZFPPIPP) is in_bankruptcy; "prisilna poravnava" (compulsory settlement, incl.
the simplified one for small companies) and "preventivno prestrukturiranje" (preventive restructuring)
are in_restructuring. A status none of these matches keeps the entity without a status and is
reported. A deletion date alone also makes the entity dissolved.

Activities: SKD 2008 is NACE Rev. 2 with a fifth digit (subclass "62.010"); the first four digits are
the NACE class (62.01). No Slovenian postcode → NUTS 3 table here: no NUTS 3.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO

from stdnum.si import ddv

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, dmy_date, iso_date, join, nace_class
from regintel.ingest.sources import register
from regintel.ingest.sources.si_ajpes_codes import legal_form, state_of

INFO = SourceInfo(
    id="si_ajpes",
    name="AJPES – Poslovni register Slovenije (open data)",
    publisher="Agencija Republike Slovenije za javnopravne evidence in storitve (AJPES)",
    country="SI",
    category="register",
    formats="PRS open-data list of business entities (`;`-separated CSV), .gz or .zip",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Vir: AJPES, Poslovni register Slovenije",
    url="https://www.ajpes.si/Registri/Poslovni_register/Splosno",
    cadence="daily",
)
REQUIRED = ("MATICNA_STEVILKA", "NAZIV", "PRAVNOORGANIZACIJSKA_OBLIKA", "DATUM_VPISA")
_SKD = re.compile(r"(\d{2})\.?(\d{2})(?:\.?\d)?")
_POST = re.compile(r"\d{4}")


class AjpesSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        csv_file = open_csv(stream, delimiter=";")
        columns = csv_file.index(REQUIRED, "AJPES PRS list")
        published = date_in_name(name)
        for item in csv_file.records(columns, lambda row: to_records(row, published)):
            if isinstance(item, tuple):
                yield from item
            else:
                yield item


def to_records(
    row: dict[str, str], published: date | None = None
) -> tuple[CompanyRecord | RecordError | Skipped, ...]:
    number = row["MATICNA_STEVILKA"].strip().replace(" ", "")
    if len(number) == 10 and number[7:] != "000":
        return (Skipped("branch (podružnica) of a registered entity: unit number not 000"),)
    code, form_name, elf = legal_form(row["PRAVNOORGANIZACIJSKA_OBLIKA"])
    tax = row.get("DAVCNA_STEVILKA", "").strip().upper().removeprefix("SI") or None
    if tax and not ddv.is_valid(tax):
        raise RecordError(f"DAVCNA_STEVILKA is not a valid Slovenian tax number: {tax!r}")
    nace = _skd(row.get("SKD_DEJAVNOST", ""))
    postal = row.get("POSTNA_STEVILKA", "").strip() or None
    if postal and not _POST.fullmatch(postal):
        raise RecordError(f"POSTNA_STEVILKA is not a 4-digit postcode: {postal!r}")
    street = join([row.get("ULICA", ""), row.get("HISNA_STEVILKA", "")], " ")
    city = row.get("POSTA", "").strip() or row.get("NASELJE", "").strip() or None
    dissolved_on = _date(row.get("DATUM_IZBRISA", ""), "DATUM_IZBRISA")
    words = row.get("STATUS", "").strip()
    state = state_of(words) if words else None
    flags = state or (None, None, None, None)
    if dissolved_on or (state and state[0] == "dissolved"):
        flags = ("dissolved", False, False, False)
    record = CompanyRecord(
        country="SI",
        national_id=number,
        name=" ".join(row["NAZIV"].split()) or None,
        source_record_id=number[:7] if len(number) == 10 else number,
        published_on=published,
        legal_form=code,
        legal_form_name=form_name,
        status=flags[0],
        founded_on=_date(row["DATUM_VPISA"], "DATUM_VPISA"),
        dissolved_on=dissolved_on,
        street=street,
        postal_code=postal,
        city=city,
        municipality_code=row.get("OBCINA", "").strip() or None,
        address_text=join([street, join([postal, city], " ")]),
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        tax_id=tax,
        in_bankruptcy=flags[2],
        in_restructuring=flags[3],
        in_liquidation=flags[1],
        identifiers=(("elf", elf),) if elf else (),
    )
    if words and state is None:
        return record, RecordError(
            f"unknown PRS status kept out (company kept): {words!r}", {"MATICNA_STEVILKA": number}
        )
    return (record,)


def _skd(value: str) -> str | None:
    return nace_class(value, _SKD, "SKD_DEJAVNOST is not an SKD 2008 code")


def _date(value: str, name: str) -> date | None:
    value = value.strip()
    if re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{4}", value):
        return dmy_date(value.replace(".", "/"), name)
    return iso_date(value, name)


SOURCE = register(AjpesSource())
