"""Estonian e-Business Register (äriregister, kept by the Centre of Registers and Information Systems
RIK) open data: `ettevotja_rekvisiidid__lihtandmed.csv`, the basic data of every entity entered in the
commercial register and the register of non-profit associations and foundations, one row each,
`;`-separated, UTF-8 with a BOM, dates dd.mm.yyyy.

Identifier: `ariregistri_kood`, the 8-digit registry code (registrikood); its first digit is the kind
of entity (1 companies, 8 non-profits, 9 foundations...) and the last a weighted mod-11 check digit,
checked with python-stdnum's `ee.registrikood` by the loader. The VAT number (`kmkr_nr`, "EE" + 9
digits, its own number, not derived from the registry code) is validated with `stdnum.eu.vat` and
dropped with a reject line (the company kept) when it is wrong.

Status (`ettevotja_staatus`): R registrisse kantud (entered: active); L likvideerimisel (in
liquidation: still a registered company, flagged in liquidation); N pankrotis (a court declared it
bankrupt: still registered until deleted, flagged bankrupt); K kustutatud (deleted from the register:
dissolved). The file gives no deletion date and says nothing of reorganisation, so `dissolved_on`
and the restructuring flag are left unstated. Legal forms are written in words and mapped to
abbreviations and ISO 20275 ELF codes (`ee_ariregister_codes`). Addresses: the normalised ADS
address is `address_text`. NUTS 3, first found of: the county (maakond) of the ADS address; the county
named in the EHAK place name (`asukoha_ehak_tekstina`, "…, Harju maakond"); the postcode
(`indeks_ettevotja_aadressis`) in Eurostat's TERCET postcode table
(`data/codelists/postcode_nuts3_ee_ro.csv`). When a county and the postcode disagree the county wins:
Estonia's NUTS 3 regions are groups of whole counties, so the county names the region exactly and is
part of the address the national address system (ADS) normalised, while TERCET gives each postcode one
region even where its area crosses a county line. No activity codes (EMTAK) are in this file: they
come from the general-data file (`ee_ariregister_general`).

The file carries no publication date: a date in the file name (`..._2026-12-01.csv`) is taken as the
snapshot date, so an older file never overwrites a newer one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Skipped, SourceInfo
from regintel.ingest.code_lists.postcodes import postcode_nuts3
from regintel.ingest.csvstream import open_csv
from regintel.ingest.fields import date_in_name, vat
from regintel.ingest.sources import register
from regintel.ingest.sources.ee_ariregister_codes import LEGAL_FORMS, STATUSES, county_nuts3

INFO = SourceInfo(
    id="ee_ariregister",
    name="e-äriregister – ettevõtja rekvisiidid (basic data, open data)",
    publisher="Registrite ja Infosüsteemide Keskus (RIK), Centre of Registers and Information Systems",
    country="EE",
    category="register",
    formats="ettevotja_rekvisiidid__lihtandmed.csv (`;`-separated, UTF-8 BOM), plain, .gz or the "
    "published .zip",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: e-Business Register of Estonia (Registrite ja Infosüsteemide Keskus), "
    "avaandmed.ariregister.rik.ee; NUTS 3 of postcodes: Eurostat (GISCO TERCET), © European Union",
    url="https://avaandmed.ariregister.rik.ee/et/avaandmete-allalaadimine",
    cadence="daily",
)
REQUIRED = (
    "nimi",
    "ariregistri_kood",
    "ettevotja_oiguslik_vorm",
    "ettevotja_staatus",
    "ettevotja_esmakande_kpv",
)
_DOTTED = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})")


class AriregisterSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError | Skipped]:
        csv_file = open_csv(stream, delimiter=";")
        columns = csv_file.index(REQUIRED, "e-Business Register ettevotja_rekvisiidid__lihtandmed.csv")
        published = date_in_name(name)
        for item in csv_file.records(columns, lambda row: to_record(row, published)):
            if isinstance(item, tuple):
                yield from item
            else:
                yield item


def to_record(row: dict[str, str], published: date | None = None) -> tuple[CompanyRecord | RecordError, ...]:
    """The company, and a `RecordError` when its VAT number had to be dropped."""
    code = row["ariregistri_kood"].strip()
    letter = row["ettevotja_staatus"].strip()
    state = STATUSES.get(letter)
    if state is None:
        raise RecordError(f"ettevotja_staatus is not R, L, N or K: {letter!r}")
    form = row["ettevotja_oiguslik_vorm"].strip() or None
    abbreviation, elf = LEGAL_FORMS.get(form or "", (None, None))
    full = _get(row, "ads_normaliseeritud_taisaadress")
    vat_id, why = vat(_get(row, "kmkr_nr"))
    postcode = _postcode(_get(row, "indeks_ettevotja_aadressis"))
    record = CompanyRecord(
        country="EE",
        national_id=code,
        name=row["nimi"].strip() or None,
        source_record_id=code,
        published_on=published,
        legal_form=abbreviation or form,
        legal_form_name=form,
        status=state.status,
        founded_on=dotted_date(row["ettevotja_esmakande_kpv"], "ettevotja_esmakande_kpv"),
        street=_get(row, "ettevotja_aadress"),
        city=_get(row, "asukoht_ettevotja_aadressis"),
        postal_code=postcode,
        address_text=full,
        municipality_code=_get(row, "asukoha_ehak_kood"),
        nuts3=county_nuts3(full)
        or county_nuts3(_get(row, "asukoha_ehak_tekstina"))
        or postcode_nuts3("EE", postcode),
        vat_id=vat_id,
        in_bankruptcy=state.in_bankruptcy,
        in_liquidation=state.in_liquidation,
        identifiers=(("elf", elf),) if elf else (),
    )
    if why:
        return record, RecordError(
            f"invalid VAT id dropped (company kept): {why}", {"ariregistri_kood": code}
        )
    return (record,)


def dotted_date(value: str | None, name: str) -> date | None:
    """dd.mm.yyyy, the register's date format."""
    raw = (value or "").strip()
    if not raw:
        return None
    match = _DOTTED.fullmatch(raw)
    try:
        if match is None:
            raise ValueError(raw)
        return date(int(match[3]), int(match[2]), int(match[1]))
    except ValueError:
        raise RecordError(f"{name} is not a dd.mm.yyyy date: {raw!r}") from None


def _get(row: dict[str, str], column: str) -> str | None:
    return row.get(column, "").strip() or None


def _postcode(value: str | None) -> str | None:
    if value is None:
        return None
    if not (value.isdigit() and len(value) == 5):
        raise RecordError(f"indeks_ettevotja_aadressis is not a 5-digit postcode: {value!r}")
    return value


SOURCE = register(AriregisterSource())
