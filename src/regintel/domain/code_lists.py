"""Code lists (spec 2.6): the reference tables and their items, as plain values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The languages the API names items in. `name_sk` / `name_en` fall back to the original name when a
# source has none in that language; the item says so in `name_sk_fallback` / `name_en_fallback`.
SLOVAK_COUNTRIES = frozenset({"SK"})
ENGLISH_COUNTRIES = frozenset({"GB", "IE"})

# The 23 live markets of spec 1.
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
class CodeListInfo:
    """One code list: what it holds, where it comes from and under which licence."""

    name: str
    title: str
    description: str
    hierarchical: bool
    source: str
    licence: str
    parent_list: str | None = None
    item_count: int = 0
    version: str | None = None


@dataclass(frozen=True)
class CodeListItem:
    code: str
    name_sk: str
    name_en: str
    name_sk_fallback: bool = False
    name_en_fallback: bool = False
    parent: str | None = None
    level: int | None = None
    extra: dict[str, Any] | None = field(default=None, hash=False)


def item_in_original(code: str, original: str, country: str, **kwargs: Any) -> CodeListItem:
    """An item known only by its original (local-language) name, e.g. a NUTS region or a bank.

    The original counts as Slovak for Slovak items and as English for British and Irish ones;
    everywhere else it stands in for the missing language and is flagged as a fallback.
    """
    return CodeListItem(
        code=code,
        name_sk=original,
        name_en=original,
        name_sk_fallback=country not in SLOVAK_COUNTRIES,
        name_en_fallback=country not in ENGLISH_COUNTRIES,
        **kwargs,
    )


_RUZ = (
    "Register účtovných závierok (registeruz.sk, Ministry of Finance of the Slovak Republic), "
    "codebook /api/{path}"
)
_RUZ_LICENCE = "Slovak public-administration open data, free re-use with attribution"
_EUROSTAT_LICENCE = (
    "Eurostat re-use policy (Commission Decision 2011/833/EU): free re-use, acknowledge the source"
)
_ISO_CODES_LICENCE = "LGPL-2.1 (Debian iso-codes data shipped by pycountry)"

CATALOGUE: dict[str, CodeListInfo] = {
    info.name: info
    for info in [
        CodeListInfo(
            name="nace",
            title="NACE Rev. 2 economic activities",
            hierarchical=True,
            parent_list="nace",
            description="Statistical classification of economic activities in the EU: 21 sections (level 1), "
            "88 divisions (2), 272 groups (3) and 615 classes (4), each with its parent; level 5 holds the "
            '646 Slovak SK NACE subclasses ("62.01.0", RÚZ writes "62010") under their class. English titles '
            "from Eurostat; Slovak titles are the short SK NACE titles, given to a class when it has "
            "exactly one subclass, otherwise the English title stands in (name_sk_fallback).",
            source="Eurostat NACE Rev. 2 (RAMON NACE_REV2_20221113, via python-stdnum 2.2); "
            + _RUZ.format(path="sk-nace"),
            licence=f"{_EUROSTAT_LICENCE}; SK NACE: {_RUZ_LICENCE}",
        ),
        CodeListInfo(
            name="legal-forms",
            title="Legal forms",
            hierarchical=False,
            parent_list="countries",
            description="ISO 20275 Entity Legal Form (ELF) codes of every jurisdiction, coded as published "
            '("2EEG"), plus the national statistical codes of Slovakia ("SK:112") and Czechia '
            '("CZ:112"). parent is the country; extra.scheme tells the kinds apart and extra carries the '
            "names in every language of the form and its abbreviations. The Czech codes repeat the Slovak "
            "ones (same Czechoslovak classification) and are marked extra.derived_from. ELF 1.5 lists no "
            "Ukrainian forms.",
            source="GLEIF ISO 20275 ELF code list v1.5 (2023-09-28); ŠÚ SR legal forms, "
            + _RUZ.format(path="pravne-formy"),
            licence=f"ELF: CC0 1.0; national codes: {_RUZ_LICENCE}",
        ),
        CodeListInfo(
            name="regions",
            title="Regions",
            hierarchical=True,
            parent_list="regions",
            description='Slovak kraje as used by the Slovak registers ("1"-"8", "9" = abroad; extra links '
            'their NUTS 3 and ISO 3166-2 codes), NUTS 2021 regions of levels 0-3 of the 23 markets ("SK031", '
            "parent one level up; Greece is EL and the United Kingdom UK in NUTS) and ISO 3166-2 "
            'subdivisions of the 23 markets ("SK-ZI", parent the higher subdivision or the country).',
            source=_RUZ.format(path="kraje") + "; Eurostat NUTS 2021; ISO 3166-2 from pycountry",
            licence=f"{_RUZ_LICENCE}; NUTS: {_EUROSTAT_LICENCE}; ISO 3166-2: {_ISO_CODES_LICENCE}",
        ),
        CodeListInfo(
            name="districts",
            title="Slovak districts (okresy)",
            hierarchical=False,
            parent_list="regions",
            description='The 79 Slovak okresy plus "999" (abroad), coded as in the Slovak registers; '
            "parent is the kraj code of the regions list.",
            source=_RUZ.format(path="okresy"),
            licence=_RUZ_LICENCE,
        ),
        CodeListInfo(
            name="municipalities",
            title="Slovak municipalities (obce)",
            hierarchical=False,
            parent_list="districts",
            description='Slovak municipalities and city parts by their statistical code ("517402" Žilina); '
            "parent is the district code. Bratislava and the Košice city units name no district.",
            source=_RUZ.format(path="sidla"),
            licence=_RUZ_LICENCE,
        ),
        CodeListInfo(
            name="countries",
            title="Countries (ISO 3166-1)",
            hierarchical=False,
            description="All ISO 3166-1 countries by alpha-2 code with English names and, where iso-codes "
            "has them, Slovak names; extra holds alpha-3, numeric and official names.",
            source="ISO 3166-1 from pycountry (Debian iso-codes) with its Slovak translations",
            licence=_ISO_CODES_LICENCE,
        ),
        CodeListInfo(
            name="bank-codes",
            title="Bank codes",
            hierarchical=False,
            parent_list="countries",
            description="National bank codes (sort codes, Bankleitzahlen, kódy bánk …) of every country "
            'schwifty ships a registry for, coded "SK:0900"; parent and extra.country give the country, '
            "extra.bic the primary BIC. Names are the banks' own.",
            source="schwifty bank registries, generated from the national central banks' published lists",
            licence="MIT (schwifty); the underlying lists are published by the central banks for free re-use",
        ),
    ]
}
