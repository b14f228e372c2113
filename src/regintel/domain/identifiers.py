"""Identifier validation: national register numbers, VAT ids, LEI, IBAN (python-stdnum does the maths).

`parse_*` returns the compact canonical form or raises `InvalidIdentifier` with the reason;
`is_valid_*` answers a bool.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from stdnum import iban as std_iban
from stdnum import lei as std_lei
from stdnum.at import businessid as at_fn
from stdnum.be import vat as be_vat
from stdnum.ch import uid as ch_uid
from stdnum.cz import dic as cz_dic
from stdnum.ee import registrikood as ee_reg
from stdnum.es import cif as es_cif
from stdnum.eu import vat as eu_vat
from stdnum.exceptions import ValidationError
from stdnum.fi import ytunnus as fi_ytunnus
from stdnum.fr import siren as fr_siren
from stdnum.gb import vat as gb_vat
from stdnum.gr import vat as gr_vat
from stdnum.hr import oib as hr_oib
from stdnum.it import iva as it_iva
from stdnum.lv import pvn as lv_pvn
from stdnum.no import mva as no_mva
from stdnum.no import orgnr as no_orgnr
from stdnum.ro import cui as ro_cui
from stdnum.si import maticna as si_maticna
from stdnum.sk import dph as sk_dph
from stdnum.ua import edrpou as ua_edrpou

from regintel.errors import InvalidIdentifier

MARKETS = (
    "FR",
    "GB",
    "RO",
    "SK",
    "UA",
    "GR",
    "CZ",
    "BE",
    "NO",
    "IE",
    "FI",
    "CH",
    "PL",
    "AT",
    "CY",
    "LT",
    "LV",
    "EE",
    "SI",
    "ES",
    "IT",
    "NL",
    "HR",
)


@dataclass(frozen=True)
class Rule:
    """How one country's register number is written and checked."""

    name: str
    compact: Callable[[str], str]
    validate: Callable[[str], object]


def _digits(length: int, *, pad: bool = False) -> Callable[[str], str]:
    def compact(value: str) -> str:
        value = re.sub(r"[\s./-]", "", value)
        return value.zfill(length) if pad and value.isdigit() and len(value) < length else value

    return compact


def _pattern(regex: str, what: str) -> Callable[[str], object]:
    compiled = re.compile(regex)

    def validate(value: str) -> str:
        if not compiled.fullmatch(value):
            raise ValidationError(f"not a valid {what}")
        return value

    return validate


def _ico(value: str) -> str:
    """IČO (CZ and SK): 8 digits with a weighted mod-11 check digit (same rule as a legal person's DIČ)."""
    if not value.isdigit() or len(value) != 8:
        raise ValidationError("IČO must be 8 digits")
    return str(cz_dic.validate(value))


def _gb_company(value: str) -> str:
    value = value.upper()
    if not re.fullmatch(r"(\d{8}|[A-Z]{2}\d{6}|R\d{7})", value):
        raise ValidationError("a company number is 8 digits, or 2 letters and 6 digits")
    return value


# Spanish Registro Mercantil sheet (hoja registral) "H CC 11959": the province code of the registry
# and the sheet number. BORME identifies companies by it (it publishes no CIF); a company moving to
# another province's registry gets a new sheet. Canonical form "H-CC-11959".
_ES_PROVINCES = frozenset(
    "A AB AL AV B BA BI BU C CA CC CE CO CR CS CU GC GI GR GU H HU IB J L LE LO LU M MA ML MU NA O OU P PM "
    "PO S SA SE SG SO SS T TE TF TO V VA VI Z ZA".split()
)
_ES_SHEET = re.compile(r"H([A-Z]{1,2})(\d{1,7})")


def _es_compact(value: str) -> str:
    """A CIF in python-stdnum's compact form, or a registry sheet as "H-CC-11959"."""
    raw = re.sub(r"[\s./-]", "", value).upper()
    match = _ES_SHEET.fullmatch(raw)
    if match and match[1] in _ES_PROVINCES:
        return f"H-{match[1]}-{int(match[2])}"
    return str(es_cif.compact(value))


def _es_validate(value: str) -> str:
    if value.startswith("H-") and re.fullmatch(r"H-[A-Z]{1,2}-[1-9]\d{0,6}", value):
        return value
    return str(es_cif.validate(value))


NATIONAL_IDS: dict[str, Rule] = {
    "SK": Rule("IČO", _digits(8, pad=True), _ico),
    "CZ": Rule("IČO", _digits(8, pad=True), _ico),
    "GB": Rule("company number", lambda v: _digits(8, pad=True)(v).upper(), _gb_company),
    "FR": Rule("SIREN", _digits(9), fr_siren.validate),
    "NO": Rule("organisasjonsnummer", _digits(9), no_orgnr.validate),
    "FI": Rule("Y-tunnus", lambda v: str(fi_ytunnus.format(v)), fi_ytunnus.validate),
    "PL": Rule("KRS number", _digits(10, pad=True), _pattern(r"\d{10}", "KRS number (10 digits)")),
    "AT": Rule("Firmenbuchnummer", at_fn.compact, at_fn.validate),
    "BE": Rule("enterprise number", be_vat.compact, be_vat.validate),
    "CH": Rule("UID", ch_uid.compact, ch_uid.validate),
    "EE": Rule("registrikood", ee_reg.compact, ee_reg.validate),
    "LV": Rule("registration number", lv_pvn.compact, lv_pvn.validate),
    "LT": Rule("company code", _digits(9), _pattern(r"\d{9}", "company code (9 digits)")),
    "SI": Rule("matična številka", si_maticna.compact, si_maticna.validate),
    "HR": Rule("OIB", hr_oib.compact, hr_oib.validate),
    "RO": Rule("CUI", ro_cui.compact, ro_cui.validate),
    "ES": Rule("CIF or registry sheet (H-<province>-<sheet>)", _es_compact, _es_validate),
    "IT": Rule("partita IVA", it_iva.compact, it_iva.validate),
    "NL": Rule("KvK number", _digits(8, pad=True), _pattern(r"\d{8}", "KvK number (8 digits)")),
    "IE": Rule("CRO number", _digits(6), _pattern(r"\d{1,7}", "CRO number")),
    "GR": Rule("AFM", gr_vat.compact, gr_vat.validate),
    "CY": Rule(
        "registration number",
        lambda v: re.sub(r"[\s.-]", "", v).upper(),
        _pattern(r"(HE|AE|S|P|C)?\d{1,8}", "registration number"),
    ),
    "UA": Rule("EDRPOU", ua_edrpou.compact, ua_edrpou.validate),
}


def parse_country(value: str) -> str:
    """ISO 3166-1 alpha-2 in any case → upper case; `UK` is accepted for `GB`."""
    code = (value or "").strip().upper()
    code = "GB" if code == "UK" else code
    if not re.fullmatch(r"[A-Z]{2}", code):
        raise InvalidIdentifier(f"{value!r} is not an ISO 3166-1 alpha-2 country code")
    return code


def parse_national_id(country: str, value: str) -> str:
    """The canonical national register number of `country`, or `InvalidIdentifier` saying why."""
    country = parse_country(country)
    raw = (value or "").strip()
    if not raw or len(raw) > 40:
        raise InvalidIdentifier(f"{country} national identifier is empty or too long")
    rule = NATIONAL_IDS.get(country)
    if rule is None:
        compact = re.sub(r"\s", "", raw).upper()
        if not re.fullmatch(r"[A-Z0-9./-]{1,32}", compact):
            raise InvalidIdentifier(f"{raw!r} is not a register number")
        return compact
    try:
        compact = rule.compact(raw)
        rule.validate(compact)
    except ValidationError as exc:
        raise InvalidIdentifier(f"{raw!r} is not a valid {country} {rule.name}: {exc}") from None
    return str(compact)


def national_id_candidates(value: str) -> dict[str, str]:
    """What `value` would be as each country's register number, written compactly but not checked:
    `parse_national_id(cc, value)` equals `candidates[cc]` whenever it succeeds. A stored register
    number was checked when it was loaded, so a lookup without a country can ask the database for
    these forms first and run the check-digit validators (the expensive part) only for a value that
    matched nothing, to tell a malformed identifier from an unknown one."""
    raw = (value or "").strip()
    if not raw or len(raw) > 40:
        return {}
    out: dict[str, str] = {}
    for country, rule in NATIONAL_IDS.items():
        try:
            out[country] = str(rule.compact(raw))
        except (ValidationError, ValueError):
            continue
    return out


def is_valid_national_id(country: str, value: str) -> bool:
    try:
        parse_national_id(country, value)
    except InvalidIdentifier:
        return False
    return True


def parse_lei(value: str) -> str:
    """ISO 17442 LEI: 20 characters, mod 97-10 check digits."""
    try:  # `validate` compacts first (spaces, dashes, case)
        return str(std_lei.validate(value or ""))
    except ValidationError as exc:
        raise InvalidIdentifier(f"{value!r} is not a valid LEI: {exc}") from None


def parse_iban(value: str) -> str:
    compact = std_iban.compact(value or "")
    try:
        return str(std_iban.validate(compact))
    except ValidationError as exc:
        raise InvalidIdentifier(f"{value!r} is not a valid IBAN: {exc}") from None


_VAT_OUTSIDE_EU = {"GB": gb_vat, "NO": no_mva}


def parse_vat(value: str) -> str:
    """A VAT id with its country prefix (EU member states, GB, NO, CH), check digits verified."""
    raw = re.sub(r"[\s.-]", "", value or "").upper()
    prefix = raw[:2]
    if prefix in _VAT_OUTSIDE_EU:
        module = _VAT_OUTSIDE_EU[prefix]
        body = raw[2:]
        try:
            return prefix + str(module.validate(body))
        except ValidationError as exc:
            raise InvalidIdentifier(f"{value!r} is not a valid VAT id: {exc}") from None
    if prefix == "CH" or raw.startswith("CHE"):
        try:
            return str(ch_uid.validate(raw.removesuffix("MWST").removesuffix("TVA").removesuffix("IVA")))
        except ValidationError as exc:
            raise InvalidIdentifier(f"{value!r} is not a valid VAT id: {exc}") from None
    try:
        return str(eu_vat.validate(raw))
    except ValidationError as exc:
        raise InvalidIdentifier(f"{value!r} is not a valid VAT id: {exc}") from None


def parse_ic_dph(value: str) -> str:
    """Slovak IČ DPH (SK + 10 digits, mod 11)."""
    raw = re.sub(r"\s", "", value or "").upper()
    try:
        return "SK" + str(sk_dph.validate(raw.removeprefix("SK")))
    except ValidationError as exc:
        raise InvalidIdentifier(f"{value!r} is not a valid IČ DPH: {exc}") from None


def parse_identifier(kind: str, value: str, country: str | None = None) -> str:
    """Validate an identifier of one of the `by-identifier` types; returns its stored form."""
    raw = (value or "").strip()
    if kind == "ico":
        return parse_national_id(country or "SK", raw)
    if kind == "lei":
        return parse_lei(raw)
    if kind in ("ic_dph", "vat"):
        return parse_ic_dph(raw) if kind == "ic_dph" else parse_vat(raw)
    if kind == "dic":
        compact = re.sub(r"\s", "", raw).upper()
        if not re.fullmatch(r"(CZ)?\d{8,10}", compact):
            raise InvalidIdentifier(f"{value!r} is not a valid DIČ (8 to 10 digits)")
        return compact.removeprefix("CZ")
    if kind == "duns":
        compact = re.sub(r"[\s-]", "", raw)
        if not re.fullmatch(r"\d{9}", compact):
            raise InvalidIdentifier(f"{value!r} is not a valid D-U-N-S number (9 digits)")
        return compact
    if kind == "bvdid":
        compact = re.sub(r"\s", "", raw).upper()
        if not re.fullmatch(r"[A-Z]{2}[A-Z0-9*-]{1,30}", compact):
            raise InvalidIdentifier(f"{value!r} is not a valid BvD id (country code + register id)")
        return compact
    raise InvalidIdentifier(f"unknown identifier type {kind!r}")


IdentifierType = Literal["ico", "ic_dph", "dic", "lei", "duns", "bvdid", "vat"]
IDENTIFIER_TYPES: tuple[IdentifierType, ...] = get_args(IdentifierType)
