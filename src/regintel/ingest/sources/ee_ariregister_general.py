"""Estonian e-Business Register open data: `ettevotja_rekvisiidid__yldandmed.json`, the general data of
each entity, a JSON array of {ariregistri_kood, nimi, yldandmed: {...}}. Read from it: the declared
activities and the county of the current address; the rest (capital, contacts, name and status
history, annual-report figures) is left to the basic-data file or not imported.

Activities (`yldandmed.teatatud_tegevusalad`): each entry has emtak_kood (EMTAK, the Estonian
extension of NACE: the NACE class and a national fifth digit, "62011"), emtak_versioon_tekstina
("EMTAK 2008", built on NACE Rev. 2, or "EMTAK 2025", built on NACE Rev. 2.1; emtak_versioon 3 is
EMTAK 2025), nace_kood (the register's own NACE class, "62.01"), on_pohitegevusala (the main activity)
and algus_kpv / lopp_kpv. Ended activities are left out. `nace_primary` is the NACE class of the main
activity (the register's nace_kood, else the EMTAK code's first four digits), checked against the
classes of the NACE revision its EMTAK version follows; `nace_codes` are the EMTAK codes as published,
the main one first. An entity without current activities states nothing about them.

NUTS 3: the county (maakond) ending the current address's ehak_nimetus ("Pirita linnaosa, Tallinn,
Harju maakond") gives the region, else its postiindeks in Eurostat's TERCET postcode table; the county
wins when they disagree, as in the basic-data file.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.code_lists.postcodes import postcode_nuts3
from regintel.ingest.fields import flag, text
from regintel.ingest.sources import register
from regintel.ingest.sources.ee_ariregister import INFO as REGISTER_INFO
from regintel.ingest.sources.ee_ariregister import dotted_date
from regintel.ingest.sources.ee_ariregister_codes import county_nuts3, emtak_revision
from regintel.ingest.sources.ee_ariregister_json import entity_code, entity_records
from regintel.ingest.sources.nace_revisions import class_of, classes

INFO = SourceInfo(
    id="ee_ariregister_general",
    name="e-äriregister – üldandmed (general data: activities, EMTAK)",
    publisher=REGISTER_INFO.publisher,
    country="EE",
    category="register",
    formats="ettevotja_rekvisiidid__yldandmed.json (JSON array), plain, .gz or the published .zip",
    licence=REGISTER_INFO.licence,
    licence_url=REGISTER_INFO.licence_url,
    attribution=REGISTER_INFO.attribution,
    url=REGISTER_INFO.url,
    cadence="daily",
)
GENERAL = "yldandmed"
ACTIVITIES = "teatatud_tegevusalad"


class GeneralDataSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        return entity_records(stream, name, GENERAL, to_record)


def to_record(obj: Any, published: date | None = None) -> CompanyRecord:
    code = entity_code(obj)
    data = obj.get(GENERAL)
    if not isinstance(data, dict):
        raise RecordError(f"{GENERAL} is not an object")
    name = text(obj.get("nimi"), "nimi")
    nuts3 = _nuts3(_list(data.get("aadressid"), "aadressid"))
    current = [a for a in _list(data.get(ACTIVITIES), ACTIVITIES) if a.get("lopp_kpv") in (None, "")]
    parsed = sorted((_activity(a) for a in current), key=lambda item: not item[2])
    return CompanyRecord(
        country="EE",
        national_id=code,
        name=name,
        source_record_id=code,
        published_on=published,
        nuts3=nuts3,
        nace_primary=next((nace for _, nace, main in parsed if main), None),
        nace_codes=tuple(dict.fromkeys(emtak for emtak, _, _ in parsed)) or None,
    )


def _activity(entry: dict[str, Any]) -> tuple[str, str, bool]:
    """(EMTAK code, its NACE class, is the main activity) of one declared activity."""
    emtak = text(entry.get("emtak_kood"), "emtak_kood")
    if emtak is None or not (emtak.isdigit() and len(emtak) in (4, 5)):
        raise RecordError(f"emtak_kood is not a 4- or 5-digit EMTAK code: {emtak!r}")
    revision = emtak_revision(entry.get("emtak_versioon_tekstina"), entry.get("emtak_versioon"))
    revisions = (revision,) if revision else ("2", "2.1")
    given = text(entry.get("nace_kood"), "nace_kood")
    if given is not None:
        nace = next((given for r in revisions if given in classes(r)), None)
        if nace is None or nace.replace(".", "") != emtak[:4]:
            raise RecordError(f"nace_kood is not the NACE class of emtak_kood {emtak!r}: {given!r}")
    else:
        nace = next((c for c in (class_of(emtak, r) for r in revisions) if c), None)
        if nace is None:
            raise RecordError(f"emtak_kood is not under a NACE class of its version: {emtak!r}")
    dotted_date(entry.get("algus_kpv"), "algus_kpv")  # checked: a malformed entry is not trusted
    return emtak, nace, bool(flag(entry.get("on_pohitegevusala"), "on_pohitegevusala"))


def _nuts3(addresses: list[dict[str, Any]]) -> str | None:
    current = [a for a in addresses if a.get("lopp_kpv") in (None, "")]
    for address in current[-1:]:
        county = county_nuts3(text(address.get("ehak_nimetus"), "ehak_nimetus"))
        return county or postcode_nuts3("EE", text(address.get("postiindeks"), "postiindeks"))
    return None


def _list(value: Any, name: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RecordError(f"{name} is not a list of objects")
    return value


SOURCE = register(GeneralDataSource())
