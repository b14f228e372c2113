"""Estonian e-Business Register open data: `ettevotja_rekvisiidid__kaardile_kantud_isikud.json`, the
persons entered on each entity's registry card (board and supervisory board members, partners,
procurators, liquidators...), a JSON array of {ariregistri_kood, nimi, kaardile_kantud_isikud: [...]}.

Each person: isiku_tyyp (F natural person, J legal person), isiku_roll (the register's role code, e.g.
JUHL juhatuse liige = management board member) with isiku_roll_tekstina (its wording), eesnimi,
nimi_arinimi (surname or business name), isikukood_registrikood (Estonian personal code or registry
code), valis_kood (a foreign code), algus_kpv / lopp_kpv (dd.mm.yyyy). JUHL becomes `director`,
OSAN `shareholder`, any other code `statutory_body` with the register's wording as its title; an
ended entry keeps its `until`.

Natural persons: the name and the birth month read from a valid Estonian personal code (python-stdnum
`ee.ik`); the personal code itself is not stored. They are served under regintel's purpose gate.
Legal persons with a valid Estonian registry code are linked to that company. An entity's record
replaces the card persons this source gave it before; its name lets the record create an entity the
basic-data file has not brought yet.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from stdnum.ee import ik, registrikood

from regintel.domain.types import CompanyKey, CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceInfo
from regintel.ingest.fields import join, text
from regintel.ingest.sources import register
from regintel.ingest.sources.ee_ariregister import INFO as REGISTER_INFO
from regintel.ingest.sources.ee_ariregister import dotted_date
from regintel.ingest.sources.ee_ariregister_codes import ROLES
from regintel.ingest.sources.ee_ariregister_json import entity_code, entity_records

INFO = SourceInfo(
    id="ee_ariregister_persons",
    name="e-äriregister – kaardile kantud isikud (persons on the registry card)",
    publisher=REGISTER_INFO.publisher,
    country="EE",
    category="register",
    formats="ettevotja_rekvisiidid__kaardile_kantud_isikud.json (JSON array), plain, .gz or the "
    "published .zip",
    licence=REGISTER_INFO.licence,
    licence_url=REGISTER_INFO.licence_url,
    attribution=REGISTER_INFO.attribution,
    url=REGISTER_INFO.url,
    cadence="daily",
)
PERSONS = "kaardile_kantud_isikud"


class CardPersonsSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        return entity_records(stream, name, PERSONS, to_record)


def to_record(obj: Any, published: Any = None) -> CompanyRecord:
    code = entity_code(obj)
    persons = obj.get(PERSONS) or []
    if not isinstance(persons, list):
        raise RecordError(f"{PERSONS} is not a list")
    return CompanyRecord(
        country="EE",
        national_id=code,
        name=text(obj.get("nimi"), "nimi"),
        source_record_id=code,
        published_on=published,
        roles=tuple(to_role(p) for p in persons),
    )


def to_role(entry: Any) -> RoleRecord:
    if not isinstance(entry, dict):
        raise RecordError(f"a {PERSONS} entry is not an object")
    kind = text(entry.get("isiku_tyyp"), "isiku_tyyp")
    if kind not in ("F", "J"):
        raise RecordError(f"isiku_tyyp is not F or J: {kind!r}")
    code = text(entry.get("isiku_roll"), "isiku_roll")
    if code is None:
        raise RecordError("a card person without isiku_roll")
    name = join([text(entry.get("eesnimi"), "eesnimi"), text(entry.get("nimi_arinimi"), "nimi_arinimi")], " ")
    if name is None:
        raise RecordError("a card person without a name")
    number = text(entry.get("isikukood_registrikood"), "isikukood_registrikood")
    person, holder_company = None, None
    if kind == "F":
        person = PersonRecord(name, birth_date=_birth_month(number))
    elif number and registrikood.is_valid(number):
        holder_company = CompanyKey("EE", registrikood.compact(number))
    return RoleRecord(
        ROLES.get(code, "statutory_body"),
        name,
        person=person,
        holder_company=holder_company,
        title=text(entry.get("isiku_roll_tekstina"), "isiku_roll_tekstina") or code,
        since=dotted_date(entry.get("algus_kpv"), "algus_kpv"),
        until=dotted_date(entry.get("lopp_kpv"), "lopp_kpv"),
    )


def _birth_month(number: str | None) -> str | None:
    """YYYY-MM of a valid Estonian personal code (the day is left out: data minimisation)."""
    if not number or not ik.is_valid(number):
        return None
    return ik.get_birth_date(number).strftime("%Y-%m")


SOURCE = register(CardPersonsSource())
