"""Finnish Business Information System (YTJ) open data of PRH, API v3: a `companies` answer
(`{"totalResults": n, "companies": [...]}`), a JSON array of companies or JSON lines.

Identifier: the Business ID (Y-tunnus) `0112038-9`: seven digits, a hyphen and a weighted mod-11
check digit, issued to every company, association, foundation and sole trader in YTJ; python-stdnum's
`fi.ytunnus` checks it. The VAT number is "FI" + the eight digits, derived only while the company is
in the VAT register (a current `registeredEntries` entry of register 6).

Status: PRH keeps ceased companies. A company with an `endDate`, or whose current Trade Register
entry is of type 4 ("Lakannut", ceased), is `dissolved`; otherwise `active`. `companySituations`
lists the special situations under way (one without an `endDate`): KONK konkurssi → `in_bankruptcy`,
SANE yrityssaneeraus (the court restructuring programme) → `in_restructuring`, SELTILA selvitystila
(liquidation) → `in_liquidation`; an empty list means none of them. An unknown situation code
rejects the record rather than being guessed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import IO, Any, cast

from regintel.domain.identifiers import is_valid_national_id
from regintel.domain.types import CompanyRecord
from regintel.ingest.base import RecordError, Source, SourceAbort, SourceInfo
from regintel.ingest.fields import Address, iso_date, join, text, vat
from regintel.ingest.jsonstream import json_objects
from regintel.ingest.sources import register
from regintel.ingest.sources.fi_prh_codes import (
    BANKRUPTCY,
    CEASED,
    KNOWN_SITUATIONS,
    LIQUIDATION,
    RESTRUCTURING,
    TRADE_REGISTER,
    VAT_REGISTER,
    elf_by_finnish_name,
)

INFO = SourceInfo(
    id="fi_prh",
    name="YTJ open data (PRH Business Information System API v3)",
    publisher="Patentti- ja rekisterihallitus (PRH) and Verohallinto",
    country="FI",
    category="register",
    formats="YTJ API v3 JSON: companies answer, array of companies or JSON lines (.gz accepted)",
    licence="CC BY 4.0",
    licence_url="https://creativecommons.org/licenses/by/4.0/",
    attribution="Source: Finnish Patent and Registration Office (PRH), YTJ open data, CC BY 4.0",
    url="https://avoindata.prh.fi/opendata-ytj-api/v3",
    cadence="daily",
)
LIST_PATHS = ("companies.item",)
FINNISH, SWEDISH, ENGLISH = "1", "2", "3"


class PrhSource:
    info = INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[CompanyRecord | RecordError]:
        first = True
        for obj in json_objects(stream, LIST_PATHS):
            if isinstance(obj, RecordError):
                yield obj
                continue
            if isinstance(obj, dict) and "totalResults" in obj and "businessId" not in obj:
                continue  # an answer without companies
            if first:
                if not isinstance(obj, dict) or "businessId" not in obj:
                    raise SourceAbort("not a YTJ API v3 companies file (no businessId in the first record)")
                first = False
            yield from items(obj)


def items(obj: Any) -> Iterator[CompanyRecord | RecordError]:
    if not isinstance(obj, dict):
        yield RecordError("a companies item is not an object", obj)
        return
    try:
        record = to_record(obj)
    except RecordError as exc:
        exc.raw = obj
        yield exc
        return
    why = None
    if _current(
        obj.get("registeredEntries"), "registeredEntries", register=VAT_REGISTER
    ) and is_valid_national_id("FI", record.national_id):
        vat_id, why = vat("FI" + record.national_id.replace("-", ""))
        record = replace(record, vat_id=vat_id)
    yield record
    if why:
        yield RecordError(f"invalid VAT id dropped (company kept): {why}", {"businessId": record.national_id})


def to_record(obj: dict[str, Any]) -> CompanyRecord:
    business_id = _object(obj, "businessId")
    number = text(business_id.get("value"), "businessId.value")
    if number is None:
        raise RecordError("company without a businessId value")
    dissolved_on = iso_date(obj.get("endDate"), "endDate")
    trade = _current(obj.get("registeredEntries"), "registeredEntries", register=TRADE_REGISTER)
    ceased = any(text(e.get("type"), "registeredEntries.type") == CEASED for e in trade)
    situations = {
        text(s.get("type"), "companySituations.type")
        for s in _current(obj.get("companySituations"), "companySituations")
    }
    unknown = situations - KNOWN_SITUATIONS
    if unknown:
        raise RecordError(f"unknown companySituations type {sorted(map(str, unknown))}")
    form_code, form_name = _company_form(obj)
    line = obj.get("mainBusinessLine")
    nace = text(line.get("type"), "mainBusinessLine.type") if isinstance(line, dict) else None
    modified = iso_date(obj.get("lastModified"), "lastModified")
    elf = elf_by_finnish_name().get((form_name or "").lower())
    record = CompanyRecord(
        country="FI",
        national_id=number,
        name=_name(obj),
        source_record_id=number,
        published_on=modified,
        legal_form=form_code,
        legal_form_name=form_name,
        status="dissolved" if dissolved_on or ceased else "active",
        founded_on=iso_date(
            obj.get("registrationDate") or business_id.get("registrationDate"), "registrationDate"
        ),
        dissolved_on=dissolved_on,
        nace_primary=nace,
        nace_codes=(nace,) if nace else None,
        in_bankruptcy=BANKRUPTCY in situations,
        in_restructuring=RESTRUCTURING in situations,
        in_liquidation=LIQUIDATION in situations,
        identifiers=(("elf", elf),) if elf else (),
        **_address(obj.get("addresses")),
    )
    return record


def _object(obj: dict[str, Any], name: str) -> dict[str, Any]:
    value = obj.get(name)
    if not isinstance(value, dict):
        raise RecordError(f"{name} is not an object: {value!r}")
    return value


def _list(value: Any, name: str) -> list[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RecordError(f"{name} is not a list of objects: {value!r}"[:200])
    return value


def _current(value: Any, name: str, register: str | None = None) -> list[dict[str, Any]]:
    """The entries without an endDate (of one register when `register` is given)."""
    return [
        e
        for e in _list(value, name)
        if not e.get("endDate") and (register is None or str(e.get("register")) == register)
    ]


def _name(obj: dict[str, Any]) -> str | None:
    """The current company name (type 1, no endDate; the newest version when several)."""
    names = [n for n in _current(obj.get("names"), "names") if str(n.get("type")) == "1"]
    names.sort(key=lambda n: n.get("version") or 0)
    return text(names[0].get("name"), "names.name") if names else None


def _describe(descriptions: Any, language: str) -> str | None:
    for entry in _list(descriptions, "descriptions"):
        if str(entry.get("languageCode")) == language:
            return text(entry.get("description"), "description")
    return None


def _company_form(obj: dict[str, Any]) -> tuple[str | None, str | None]:
    forms = _current(obj.get("companyForms"), "companyForms")
    if not forms:
        return None, None
    form = sorted(forms, key=lambda f: f.get("version") or 0)[0]
    return text(form.get("type"), "companyForms.type"), _describe(form.get("descriptions"), FINNISH)


def _address(value: Any) -> Address:
    """The street address (type 1), else the postal address (type 2); the Finnish post-office name."""
    addresses = sorted(_list(value, "addresses"), key=lambda a: a.get("type") != 1)
    if not addresses:
        return {}
    address = addresses[0]

    def get(key: str) -> str | None:
        return text(address.get(key), key)

    offices = _list(address.get("postOffices"), "postOffices")
    office = next(
        (o for o in offices if str(o.get("languageCode")) == FINNISH), offices[0] if offices else {}
    )
    number = join(
        [
            get("buildingNumber"),
            get("entrance"),
            join([get("apartmentNumber"), get("apartmentIdSuffix")], ""),
        ],
        " ",
    )
    box = get("postOfficeBox")
    street = join([get("street"), number], " ") or (f"PL {box}" if box else None)
    postal_code = get("postCode")
    city = text(office.get("city"), "city")
    return {
        "street": street,
        "postal_code": postal_code,
        "city": city,
        "municipality_code": text(office.get("municipalityCode"), "municipalityCode"),
        "address_text": join([get("co") and f"c/o {get('co')}", street, join([postal_code, city], " ")]),
    }


SOURCE = register(PrhSource())

DOMAINS_INFO = SourceInfo(
    id="fi_prh_domains",
    name="YTJ open data (PRH): company websites",
    publisher=INFO.publisher,
    country="FI",
    category="register",
    formats=INFO.formats,
    licence=INFO.licence,
    licence_url=INFO.licence_url,
    attribution=INFO.attribution,
    url=INFO.url,
    cadence=INFO.cadence,
)


def websites(stream: IO[bytes]) -> Iterator[Any]:
    """Per company its current `website.url` (`PublishedWebsites`) or a `RecordError`."""
    from regintel.areas.security.register_websites import PublishedWebsites

    first = True
    for obj in json_objects(stream, LIST_PATHS):
        if isinstance(obj, RecordError):
            yield obj
            continue
        if isinstance(obj, dict) and "totalResults" in obj and "businessId" not in obj:
            continue
        if first:
            if not isinstance(obj, dict) or "businessId" not in obj:
                raise SourceAbort("not a YTJ API v3 companies file (no businessId in the first record)")
            first = False
        if not isinstance(obj, dict):
            yield RecordError("a companies item is not an object", obj)
            continue
        business_id = obj.get("businessId")
        number = business_id.get("value") if isinstance(business_id, dict) else None
        site = obj.get("website")
        if not isinstance(number, str) or not is_valid_national_id("FI", number):
            yield RecordError(f"invalid businessId {number!r}", {"businessId": number})
        elif site is not None and not (isinstance(site, dict) and isinstance(site.get("url"), str | None)):
            yield RecordError(f"website is not an object with a url: {site!r}"[:200], {"businessId": number})
        else:
            url = (site or {}).get("url")
            current = bool(url and url.strip()) and not (site or {}).get("endDate")
            yield PublishedWebsites(number, [url.strip()] if current and url else [], f"{number} website")


class PrhDomainsSource:
    info = DOMAINS_INFO

    def parse(self, stream: IO[bytes], name: str) -> Iterator[RecordError]:
        raise SourceAbort("fi_prh_domains writes company domains; it is imported through import_into")

    def import_into(self, engine: Any, location: str, data_dir: Any) -> Any:
        from regintel.areas.security.importing import run_register_domains
        from regintel.areas.security.register_websites import website_set

        return run_register_domains(
            engine, DOMAINS_INFO, "FI", location, data_dir, lambda stream: website_set(websites(stream))
        )


# A section source: the runner hands it to the security area (`import_into`), never to the company loader.
DOMAINS_SOURCE = register(cast(Source, PrhDomainsSource()))
