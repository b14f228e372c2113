"""Italian register of enterprises (Registro delle Imprese, kept by the Chambers of Commerce through
InfoCamere): an open list of enterprises, one row per enterprise, `;`-separated, UTF-8, modelled on
the Registro Imprese open lists (the innovative start-ups and SMEs list: denominazione, natura
giuridica, codice fiscale, provincia, comune, data iscrizione, ATECO) with the address, state and
partita IVA columns a full extract has. The Registro Imprese has no free bulk file of all enterprises.

Identifiers: the national one is the partita IVA, 11 digits (7 of the taxpayer, 3 of the tax
office, a Luhn check digit), validated with python-stdnum `it.iva`. A company's codice fiscale is the
same 11 digits; a sole trader's codice fiscale is his personal 16-character one (python-stdnum
`it.codicefiscale`) and his partita IVA is a separate number, so a row whose only number is a
personal codice fiscale cannot be keyed and is skipped with that reason. The REA number (provincia
+ number, "MI-1234567") is kept as identifier `rea`. VAT: the partita IVA is the VAT number (it is
issued when the activity is declared to the Agenzia delle Entrate, DPR 633/1972 art. 35), so the VAT
id "IT" + partita IVA is derived; numbers starting with 8 or 9 are codici fiscali of non-commercial
bodies, not partite IVA, and get none.

State (`stato` words): "attiva" is active; "inattiva" (entered but not yet operating) and "sospesa"
(activity suspended) are inactive; "cessata" / "cancellata" (struck off) is dissolved; "in
liquidazione" / "scioglimento" (voluntary winding-up) is in_liquidation; "liquidazione giudiziale"
(the court procedure of the Codice della crisi, which replaced "fallimento" in 2022) and
"fallita" are in_bankruptcy; "concordato preventivo" and "accordi di ristrutturazione" are
in_restructuring. An unknown state keeps the enterprise without a status and is reported.
Activities: ATECO 2007 is NACE Rev. 2 with two more digits ("62.01.00"); the first four are the NACE
class. No Italian postcode → NUTS 3 table here; the provincia (sigla) is kept as the region code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO

from stdnum.it import codicefiscale

from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, dmy_date, iso_date, join, nace_class, vat
from regintel.ingest.sources import register
from regintel.ingest.sources.it_registro_imprese_codes import legal_form, state_of

INFO = SourceInfo(
    id="it_registro_imprese",
    name="Registro Imprese – open list of enterprises",
    publisher="Camere di Commercio d'Italia / InfoCamere (Registro delle Imprese)",
    country="IT",
    category="register",
    formats="Registro Imprese open list (`;`-separated CSV), .gz or .zip",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Fonte: Registro delle Imprese, InfoCamere",
    url="https://www.registroimprese.it/",
    cadence="weekly",
)
REQUIRED = ("denominazione", "natura_giuridica", "codice_fiscale", "pv", "comune", "data_iscrizione_ri")
_ATECO = re.compile(r"(\d{2})\.?(\d{2})(?:\.?\d{1,2})?")
_CAP = re.compile(r"\d{5}")
_PV = re.compile(r"[A-Z]{2}")


class RegistroImpreseSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        csv_file = open_csv(stream, delimiter=";")
        csv_file.header = [h.lower().replace(" ", "_") for h in csv_file.header]
        columns = csv_file.index(REQUIRED, "Registro Imprese list")
        published = date_in_name(name)
        for item in csv_file.records(columns, lambda row: to_records(row, published)):
            if isinstance(item, tuple):
                yield from item
            else:
                yield item


def to_records(
    row: dict[str, str], published: date | None = None
) -> tuple[CompanyRecord | RecordError | Skipped, ...]:
    number = (row.get("partita_iva", "").strip() or row["codice_fiscale"].strip()).upper().removeprefix("IT")
    if len(number) == 16:
        if not codicefiscale.is_valid(number):
            raise RecordError(f"codice_fiscale is not a valid codice fiscale: {number!r}")
        return (Skipped("sole trader known only by a personal codice fiscale (no partita IVA)"),)
    if not number:
        raise RecordError("neither partita_iva nor codice_fiscale is given")
    province = row["pv"].strip().upper() or None
    if province and not _PV.fullmatch(province):
        raise RecordError(f"pv is not a two-letter provincia: {province!r}")
    code, form_name, elf = legal_form(row["natura_giuridica"])
    nace = _ateco(row.get("ateco", ""))
    postal = row.get("cap", "").strip() or None
    if postal and not _CAP.fullmatch(postal):
        raise RecordError(f"cap is not a 5-digit CAP: {postal!r}")
    street, city = row.get("indirizzo", "").strip() or None, row["comune"].strip() or None
    rea = row.get("numero_rea", "").strip()
    identifiers = [("elf", elf)] if elf else []
    if rea:
        identifiers.append(("rea", f"{province}-{rea}" if province and rea.isdigit() else rea))
    out: list[CompanyRecord | RecordError | Skipped] = []
    vat_id = None
    if number[0] not in "89" and is_valid_national_id("IT", number):  # else the loader rejects the row
        vat_id, why = vat("IT" + number)
        if why:
            out.append(RecordError(f"invalid VAT id dropped (company kept): {why}", {"partita_iva": number}))
    founded_on = _date(row["data_iscrizione_ri"], "data_iscrizione_ri")
    dissolved_on = _date(row.get("data_cessazione", ""), "data_cessazione")
    words = row.get("stato", "").strip()
    state = state_of(words) if words else None
    if state is None and words:
        out.append(
            RecordError(
                f"unknown Registro Imprese state kept out (company kept): {words!r}", {"partita_iva": number}
            )
        )
    flags = state or (None, None, None, None)
    if dissolved_on and flags[0] != "dissolved":
        flags = ("dissolved", False, False, False)
    record = CompanyRecord(
        country="IT",
        national_id=number,
        name=" ".join(row["denominazione"].split()) or None,
        source_record_id=number,
        published_on=published,
        legal_form=code,
        legal_form_name=form_name,
        status=flags[0],
        founded_on=founded_on,
        dissolved_on=dissolved_on,
        street=street,
        postal_code=postal,
        city=city,
        region_code=province,
        address_text=join([street, join([postal, city, f"({province})" if province else None], " ")]),
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        vat_id=vat_id,
        tax_id=number,
        in_bankruptcy=flags[2],
        in_restructuring=flags[3],
        in_liquidation=flags[1],
        identifiers=tuple(identifiers),
    )
    return (record, *out)


def _ateco(value: str) -> str | None:
    return nace_class(value, _ATECO, "ateco is not an ATECO 2007 code")


def _date(value: str, name: str) -> date | None:
    value = value.strip()
    if "/" in value:
        return dmy_date(value, name)
    return iso_date(value, name)


SOURCE = register(RegistroImpreseSource())
