"""Estonian e-Business Register open data: the owners of each entity, in two JSON arrays of
{ariregistri_kood, nimi, <list>: [...]}, one source each (an entity's record replaces the roles its
source gave it before, so the two files do not overwrite each other's):

- `ettevotja_rekvisiidid__kasusaajad.json` (`ee_ariregister_owners`): the beneficial owners (tegelikud
  kasusaajad, natural persons by law) in `kasusaajad`: eesnimi, nimi, isikukood (Estonian personal
  code; the register has been withholding it from the open data since 2025), valis_kood /
  valis_kood_riik (a foreign code and its country), synniaeg (birth date, dd.mm.yyyy), aadress_riik
  (country of residence, ISO 3166 alpha-3), kontrolli_teostamise_viis with its wording
  kontrolli_teostamise_viis_tekstina (how control is exercised: direct or indirect shareholding,
  membership of the management board...), algus_kpv / lopp_kpv. Each becomes a `beneficial_owner`
  role titled with the wording of the control, the control code kept as its nature of control.
- `ettevotja_rekvisiidid__osanikud.json` (`ee_ariregister_shareholders`, its own module): the
  shareholders (osanikud) in `osanikud`: isiku_tyyp (F natural, J legal person), eesnimi, nimi_arinimi,
  isikukood_registrikood, valis_kood / valis_kood_riik, osaluse_protsent (share of the capital, %),
  osaluse_suurus / osaluse_valuuta (nominal value), algus_kpv / lopp_kpv. Each becomes a `shareholder`
  role with its share; a legal person with a valid Estonian registry code is linked to that company,
  a foreign one keeps its country and code as the holder's registration.

Natural persons: the name and a birth month only (from a valid personal code, else from synniaeg);
no personal code is stored. They are served under regintel's purpose gate, like the registry-card
persons (`ee_ariregister_persons`). An entity's name lets its record create an entity the basic-data
file has not brought yet; an entity the file no longer lists keeps what it had.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from typing import IO, Any

import pycountry
from stdnum.ee import ik

from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.fields import join, text
from regintel.ingest.sources import register
from regintel.ingest.sources.ee_ariregister import INFO as REGISTER_INFO
from regintel.ingest.sources.ee_ariregister import dotted_date
from regintel.ingest.sources.ee_ariregister_json import entity_code, entity_records


def owner_file_info(source_id: str, name: str, file: str) -> SourceInfo:
    return SourceInfo(
        id=source_id,
        name=name,
        publisher=REGISTER_INFO.publisher,
        country="EE",
        category="register",
        formats=f"{file} (JSON array), plain, .gz or the published .zip",
        licence=REGISTER_INFO.licence,
        licence_url=REGISTER_INFO.licence_url,
        attribution=REGISTER_INFO.attribution,
        url=REGISTER_INFO.url,
        cadence="daily",
    )


OWNERS_INFO = owner_file_info(
    "ee_ariregister_owners",
    "e-äriregister – kasusaajad (beneficial owners)",
    "ettevotja_rekvisiidid__kasusaajad.json",
)


class OwnerListSource:
    """One of the two owner files: `key` names the entity's list, `to_role` reads one entry."""

    def __init__(self, info: SourceInfo, key: str, to_role: Callable[[dict[str, Any]], RoleRecord]):
        self.info = info
        self.key = key
        self.to_role = to_role

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        return entity_records(stream, name, self.key, self.to_record)

    def to_record(self, obj: Any, published: date | None = None) -> CompanyRecord:
        code = entity_code(obj)
        entries = obj.get(self.key) or []
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise RecordError(f"{self.key} is not a list of objects")
        return CompanyRecord(
            country="EE",
            national_id=code,
            name=text(obj.get("nimi"), "nimi"),
            source_record_id=code,
            published_on=published,
            roles=tuple(self.to_role(e) for e in entries),
        )


def beneficial_owner(entry: dict[str, Any]) -> RoleRecord:
    name = owner_name(entry, "nimi")
    control = text(entry.get("kontrolli_teostamise_viis"), "kontrolli_teostamise_viis")
    person = PersonRecord(
        name,
        birth_date=birth_month(entry),
        nationality=None,
        country_of_residence=country_code(entry.get("aadress_riik"), "aadress_riik"),
    )
    return RoleRecord(
        "beneficial_owner",
        name,
        person=person,
        title=text(entry.get("kontrolli_teostamise_viis_tekstina"), "kontrolli_teostamise_viis_tekstina")
        or control,
        natures_of_control=[control] if control else None,
        since=dotted_date(entry.get("algus_kpv"), "algus_kpv"),
        until=dotted_date(entry.get("lopp_kpv"), "lopp_kpv"),
    )


def owner_name(entry: dict[str, Any], surname: str) -> str:
    name = join([text(entry.get("eesnimi"), "eesnimi"), text(entry.get(surname), surname)], " ")
    if name is None:
        raise RecordError("an owner without a name")
    return name


def birth_month(entry: dict[str, Any], number: str | None = None) -> str | None:
    """YYYY-MM from a valid Estonian personal code, else from synniaeg (the day is left out: data
    minimisation)."""
    code = number or text(entry.get("isikukood"), "isikukood")
    if code and ik.is_valid(code):
        return ik.get_birth_date(code).strftime("%Y-%m")
    born = dotted_date(entry.get("synniaeg"), "synniaeg")
    return born.strftime("%Y-%m") if born else None


def country_code(value: Any, name: str) -> str | None:
    """ISO alpha-2 of the register's alpha-3 country code ("EST"); an unknown code is refused."""
    code = text(value, name)
    if code is None:
        return None
    found = pycountry.countries.get(alpha_3=code.upper()) if len(code) == 3 else None
    if found is None:
        raise RecordError(f"{name} is not an ISO 3166 alpha-3 country code: {code!r}")
    return str(found.alpha_2)


SOURCE = register(OwnerListSource(OWNERS_INFO, "kasusaajad", beneficial_owner))
