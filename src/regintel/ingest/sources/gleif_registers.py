"""From an LEI record's registration authority (RA code + entity id) to our company key.

GLEIF's RA list says which country each RA code belongs to; `NATIONAL_REGISTERS` says which of a
country's registers number entities with the identifier we key companies by in that country
(`domain.identifiers.NATIONAL_IDS`). Only those links are made: a German HRB number or a fund
register's code is not a company key, so such LEI records stay unlinked (and are not errors).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache
from importlib import resources

from regintel.domain.identifiers import MARKETS, NATIONAL_IDS, parse_national_id
from regintel.domain.types import CompanyKey, RegistrationAuthorityRecord
from regintel.errors import InvalidIdentifier
from regintel.ingest.base import RecordError, SourceAbort

BUNDLED_RA_LIST = "data/gleif/2022-03-23_ra_list_v1.7.csv"

# Registers whose entity id is our national id, by the RA list's country code (RA list v1.7).
NATIONAL_REGISTERS: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        # IČO: every register of legal persons feeding the RPO numbers its entities by IČO.
        "SK": (
            "RA000526",
            "RA000527",
            "RA000528",
            "RA000670",
            "RA000672",
            "RA000673",
            "RA000674",
            "RA000675",
            "RA000676",
            "RA000677",
        ),
        # IČO: the public registers of justice.cz, ARES (RES), trade licences, trust funds, churches.
        "CZ": (
            "RA000163",
            "RA000165",
            "RA000166",
            "RA000167",
            "RA000168",
            "RA000694",
            "RA000857",
            "RA000858",
        ),
        "GB": ("RA000585", "RA000586", "RA000587"),  # Companies House: England and Wales, NI, Scotland
        "FR": ("RA000189", "RA000192"),  # SIRENE; the RCS number is the SIREN
        "NO": ("RA000472", "RA000473"),  # Foretaksregisteret, Enhetsregisteret: organisasjonsnummer
        "FI": ("RA000188",),  # YTJ: Y-tunnus
        "PL": ("RA000484",),  # KRS number (CEIDG and REGON ids are not KRS numbers)
        "AT": ("RA000017",),  # Firmenbuchnummer
        "BE": ("RA000025",),  # KBO/BCE enterprise number
        "CH": ("RA000548", "RA000549"),  # both give the UID (CHE-…)
        "EE": ("RA000181",),
        "LV": ("RA000423",),
        "LT": ("RA000430",),
        "SI": ("RA000529",),
        "RO": ("RA000497", "RA000719"),  # the CUI (a J40/… trade-register number does not validate)
        "ES": ("RA000535",),  # NIF/CIF (RA000533 gives Registro Mercantil sheet numbers)
        "IT": ("RA000407",),  # codice fiscale = partita IVA of a company
        "NL": ("RA000463",),
        "IE": ("RA000402",),
        "CY": ("RA000161",),
        "UA": ("RA000567",),
        # Outside the 23 markets: the company registers of frequent foreign parents, so that GLEIF
        # consolidation chains of our companies can end at their real parent (ids kept as published).
        "AU": ("RA000014",),  # ASIC: ACN
        "LU": ("RA000432",),  # RCS Luxembourg: B-number
    }.items()
}

# Cypriot ids are sometimes typed with Greek capitals that look Latin ("ΗΕ 350042").
_LATIN_LOOKALIKES = str.maketrans("ΑΒΕΗΙΚΜΝΟΡΤΧΥΖ", "ABEHIKMNOPTXYZ")

_COLUMNS = {
    "code": "registration authority code",
    "country_name": "country",
    "country": "country code",
    "jurisdiction": "jurisdiction",
    "register_name": "international name of register",
    "register_name_local": "local name of register",
    "organisation": "international name of organisation responsible for the register",
    "organisation_local": "local name of organisation responsible for the register",
    "website": "website",
}


def read_ra_list(lines: Iterable[str]) -> Iterator[RegistrationAuthorityRecord | RecordError]:
    """The rows of GLEIF's RA list CSV; columns are found by their header names."""
    reader = csv.reader(lines)
    header = [h.strip().lstrip("\ufeff").lower() for h in next(reader, [])]
    where = {key: _column(header, title) for key, title in _COLUMNS.items()}
    if where["code"] is None or where["country"] is None:
        raise SourceAbort(
            "not a GLEIF registration authorities list (no 'Registration Authority Code' "
            "and 'Country Code' columns)"
        )
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        try:
            yield _ra_record(row, where)
        except RecordError as exc:
            yield RecordError(exc.reason, row)


def _column(header: list[str], title: str) -> int | None:
    for i, name in enumerate(header):
        if name == title or (title == "jurisdiction" and name.startswith(title)):
            return i
    return None


def _ra_record(row: list[str], where: dict[str, int | None]) -> RegistrationAuthorityRecord:
    def cell(key: str) -> str | None:
        i = where[key]
        value = row[i].strip() if i is not None and i < len(row) else ""
        return value or None

    code = cell("code")
    if code is None or len(code) > 16 or not code.startswith("RA"):
        raise RecordError(f"not a registration authority code: {code!r}")
    country = cell("country")
    if country is not None and not (len(country) == 2 and country.isalpha()):
        raise RecordError(f"country code is not ISO 3166-1 alpha-2: {code} {country!r}")
    return RegistrationAuthorityRecord(
        code=code,
        country=country.upper() if country else None,
        jurisdiction=cell("jurisdiction") or cell("country_name"),
        register_name=cell("register_name"),
        register_name_local=cell("register_name_local"),
        organisation=cell("organisation") or cell("organisation_local"),
        website=cell("website"),
    )


def merge_shared(rows: Iterable[RegistrationAuthorityRecord]) -> Iterator[RegistrationAuthorityRecord]:
    """One entry per RA code. A few codes serve several countries (RA000189 SIRENE is listed for France
    and each overseas territory): the entry takes the country that is one of our markets, if exactly
    one is, else none, and its jurisdiction names them all."""
    by_code: dict[str, list[RegistrationAuthorityRecord]] = {}
    for row in rows:
        by_code.setdefault(row.code, []).append(row)
    for group in by_code.values():
        if len(group) == 1:
            yield group[0]
            continue
        ours = [r for r in group if r.country in MARKETS]
        first = ours[0] if len(ours) == 1 else group[0]
        yield replace(
            first,
            country=first.country if len(ours) == 1 else None,
            jurisdiction="; ".join(dict.fromkeys(r.jurisdiction or r.country or "" for r in group)),
        )


@cache
def ra_countries() -> dict[str, frozenset[str]]:
    """RA code → the countries the RA list bundled with regintel gives it."""
    raw = resources.files("regintel").joinpath(BUNDLED_RA_LIST).read_bytes()
    found: dict[str, set[str]] = {}
    for row in read_ra_list(io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8-sig", newline="")):
        if isinstance(row, RegistrationAuthorityRecord) and row.country:
            found.setdefault(row.code, set()).add(row.country)
    return {code: frozenset(countries) for code, countries in found.items()}


_REGISTER_COUNTRY = {code: country for country, codes in NATIONAL_REGISTERS.items() for code in codes}


def company_key(ra_code: str | None, entity_id: str | None) -> CompanyKey | None:
    """Our company key for a registration, None when the register is not a national-id register.

    Raises `InvalidIdentifier` when the register is one but the entity id is not a valid number of it.
    """
    country = _REGISTER_COUNTRY.get(ra_code or "")
    if country is None or country not in ra_countries().get(ra_code or "", ()):
        return None
    if not entity_id:
        rule = NATIONAL_IDS.get(country)
        raise InvalidIdentifier(
            f"{ra_code} gives no entity id for a {country} {rule.name if rule else 'register number'}"
        )
    value = entity_id.translate(_LATIN_LOOKALIKES) if country == "CY" else entity_id
    return CompanyKey(country, parse_national_id(country, value))
