"""Greek General Commercial Registry (ΓΕΜΗ / GEMI) open-data API v1
(opendata-api.businessportal.gr/api/opendata/v1): `/companies/{arGemi}` answers (one company), a
`/companies?…` search answer (`{"searchResults": [...]}`), a JSON array of them or JSON lines (the shape
a harvest of the API is saved in).

Identifiers: the national one is the ΑΦΜ (AFM, the tax registration number every Greek legal person
has, which GEMI records carry as `afm`), 9 digits with a check digit, validated with python-stdnum
`gr.vat`; the GEMI number (`arGemi`, digits, no check digit) is kept as identifier `gemi`. A company
without an AFM in the answer cannot be keyed and is rejected. VAT: the Greek VAT id is "EL" + AFM, but
only for a company registered for VAT, which GEMI does not say: none is derived.

Status (`status` {id, descr, isActive}): "Ενεργή" (active, id 3) is active; "Λύση" / "Εκκαθάριση"
(dissolved by a resolution and being wound up, e.g. id 7 "Λύση-Εκκαθάριση") is active with
in_liquidation; "Πτώχευση" (bankruptcy declared by the court) is in_bankruptcy; "Εξυγίανση" (the
court rescue procedure of the bankruptcy code) is in_restructuring; "Διαγραφή" (struck off, id 17)
and "Ανενεργή" / "Αδρανής" (inactive) end or suspend the company. A status whose words are none of
these falls back on `isActive`; with neither the company is kept without a status and the value
reported. Activities: the ΚΑΔ (STAKOD 2008) codes are NACE Rev. 2 extended by digits, so the first
four digits are the NACE class ("62.01.11.01" → 62.01); the activity of type "Κύρια" is the primary.
Persons (`persons[]`) become roles (natural persons, served under the purpose gate).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import IO, Any

from regintel.domain.types import CompanyRecord, PersonRecord, RoleRecord
from regintel.ingest.base import RecordError, SourceAbort, SourceInfo
from regintel.ingest.fields import date_in_name, iso_date, join, text
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.gr_gemi_codes import legal_form, role_of, state_of

INFO = SourceInfo(
    id="gr_gemi",
    name="ΓΕΜΗ – General Commercial Registry open data API",
    publisher="Γενικό Εμπορικό Μητρώο (GEMI), Ένωση Επιμελητηρίων Ελλάδος / Υπουργείο Ανάπτυξης",
    country="GR",
    category="register",
    formats="GEMI open-data API v1 JSON: /companies/{arGemi} answer, search answer, array or JSON lines",
    licence="ODC-BY 1.0",
    licence_url="https://opendatacommons.org/licenses/by/1-0/",
    attribution="Πηγή: Γενικό Εμπορικό Μητρώο (ΓΕΜΗ), businessportal.gr",
    url="https://opendata-api.businessportal.gr/",
    cadence="daily",
)
LIST_PATHS = ("searchResults.item", "results.item", "companies.item")
_KAD = re.compile(r"(\d{2})\.?(\d{2})(?:[.\d]*)")
_ZIP = re.compile(r"\d{3} ?\d{2}")


class GemiSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        published = date_in_name(name)
        first = True
        for obj in json_objects(stream, LIST_PATHS):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if first:
                if not isinstance(obj, dict) or not {"arGemi", "afm"} & obj.keys():
                    raise SourceAbort("not a GEMI companies answer (no arGemi / afm in the first record)")
                first = False
            if not isinstance(obj, dict):
                yield RecordError("a GEMI company is not an object", obj)
                continue
            try:
                yield from to_records(obj, published)
            except RecordError as exc:
                exc.raw = obj
                yield exc


def to_records(obj: dict[str, Any], published: date | None = None) -> Iterator[CompanyRecord | RecordError]:
    afm = text(obj.get("afm"), "afm")
    gemi = text(obj.get("arGemi"), "arGemi")
    if afm is None:
        raise RecordError(f"company without an AFM (arGemi {gemi!r})")
    if gemi is not None and not gemi.isdigit():
        raise RecordError(f"arGemi is not a number: {gemi!r}")
    kind = _object(obj.get("legalType"), "legalType")
    code, form_name, elf = legal_form(
        text(kind.get("id"), "legalType.id"), text(kind.get("descr"), "legalType.descr")
    )
    nace = _activities(obj.get("activities"))
    street, postal, city, municipality_id, prefecture_id, address_text = _address(obj)
    status = _object(obj.get("status"), "status")
    words = text(status.get("descr"), "status.descr")
    state = state_of(words or "", status.get("isActive"))
    flags = state or (None, None, None, None)
    record = CompanyRecord(
        country="GR",
        national_id=afm,
        name=text(obj.get("coNameEl"), "coNameEl"),
        source_record_id=afm,
        published_on=published,
        legal_form=code,
        legal_form_name=form_name,
        status=flags[0],
        founded_on=iso_date(obj.get("incorporationDate"), "incorporationDate"),
        street=street,
        city=city,
        postal_code=postal,
        address_text=address_text,
        region_code=prefecture_id,
        municipality_code=municipality_id,
        nace_primary=nace[0] if nace else None,
        nace_codes=tuple(nace) or None,
        tax_id=afm,
        in_bankruptcy=flags[2],
        in_restructuring=flags[3],
        in_liquidation=flags[1],
        identifiers=(*((("gemi", gemi),) if gemi else ()), *((("elf", elf),) if elf else ())),
        roles=_roles(obj.get("persons")) if "persons" in obj else None,
    )
    yield record
    if state is None and words:
        yield RecordError(f"unknown GEMI status kept out (company kept): {words!r}", {"afm": afm})


def _object(value: Any, name: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError(f"{name} is not an object: {value!r}"[:200])
    return value


def _list(value: Any, name: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RecordError(f"{name} is not a list of objects: {value!r}"[:200])
    return value


def _activities(value: Any) -> list[str]:
    primary: list[str] = []
    other: list[str] = []
    for item in _list(value, "activities"):
        activity = _object(item.get("activity"), "activities.activity")
        kad = text(activity.get("id"), "activity.id")
        if kad is None:
            continue
        match = _KAD.fullmatch(kad)
        if match is None:
            raise RecordError(f"activity.id is not a ΚΑΔ code: {kad!r}")
        nace = f"{match[1]}.{match[2]}"
        (primary if (text(item.get("type"), "activities.type") or "").startswith("Κύρια") else other).append(
            nace
        )
    return list(dict.fromkeys(primary + other))


def _roles(value: Any) -> tuple[RoleRecord, ...]:
    out = []
    for person in _list(value, "persons"):
        name = text(person.get("personName"), "personName")
        if not name:
            continue
        title = text(person.get("role"), "persons.role")
        out.append(
            RoleRecord(
                role_of(title or ""),
                name,
                person=PersonRecord(name),
                title=title,
                since=iso_date(person.get("dtFrom"), "dtFrom"),
                until=iso_date(person.get("dtTo"), "dtTo"),
            )
        )
    return tuple(out)


def _address(
    obj: dict[str, Any],
) -> tuple[str | None, str | None, str | None, str | None, str | None, str | None]:
    """(street, postcode, city, municipality code, prefecture code, address text)."""
    street = join([text(obj.get("street"), "street"), text(obj.get("streetNumber"), "streetNumber")], " ")
    postal = text(obj.get("zipCode"), "zipCode")
    if postal is not None:
        if not _ZIP.fullmatch(postal):
            raise RecordError(f"zipCode is not a 5-digit Greek postcode: {postal!r}")
        postal = postal.replace(" ", "")
        postal = f"{postal[:3]} {postal[3:]}"
    city = text(obj.get("city"), "city")
    municipality, municipality_id = _named(obj.get("municipality"), "municipality")
    prefecture, prefecture_id = _named(obj.get("prefecture"), "prefecture")
    address_text = join([street, join([postal, city or municipality], " "), prefecture])
    return street, postal, city or municipality, municipality_id, prefecture_id, address_text


def _named(value: Any, name: str) -> tuple[str | None, str | None]:
    """(name, GEMI code) of a place given as a name or as a code-list entry {id, descr}."""
    if isinstance(value, dict):
        code = text(value.get("id"), f"{name}.id")
        if code is not None and len(code) > 16:
            raise RecordError(f"{name}.id is not a GEMI code: {code!r}")
        return text(value.get("descr"), f"{name}.descr"), code
    return text(value, name), None


SOURCE = register(GemiSource())
