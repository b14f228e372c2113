"""Regions (Slovak kraje, NUTS 2021, ISO 3166-2), Slovak districts (okresy) and municipalities (obce)."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from dataclasses import replace

import pycountry

from regintel.domain.code_lists import MARKETS, SLOVAK_COUNTRIES, CodeListItem, item_in_original
from regintel.ingest.code_lists.files import read_csv, read_pairs

# NUTS uses EL for Greece and UK for the United Kingdom where ISO 3166-1 has GR and GB.
NUTS_COUNTRY = {"GR": "EL", "GB": "UK"}
ISO_COUNTRY = {nuts: iso for iso, nuts in NUTS_COUNTRY.items()}
ABROAD_KRAJ = "9"
# RÚZ numbers the districts 10..89 in code order when it names a municipality's district.
RUZ_FIRST_DISTRICT_ID = 10


def build_regions() -> list[CodeListItem]:
    nuts = build_nuts_items()
    subdivisions = build_subdivision_items()
    return [*build_kraj_items(nuts, subdivisions), *nuts, *subdivisions]


def build_kraj_items(nuts: list[CodeListItem], subdivisions: list[CodeListItem]) -> list[CodeListItem]:
    """RÚZ kraje ("1".."8", "9" = abroad), linked to their NUTS 3 and ISO 3166-2 codes by name."""
    nuts3 = {i.name_sk: i.code for i in nuts if i.code.startswith("SK") and i.level == 3}
    iso = {i.name_sk: i.code for i in subdivisions if i.code.startswith("SK-")}
    items = []
    for row in read_csv("sk_kraje.csv"):
        extra = {
            "scheme": "RÚZ kraj",
            "country": "SK",
            "nuts3": nuts3.get(row["name_sk"]),
            "iso3166_2": iso.get(row["name_sk"]),
        }
        items.append(
            CodeListItem(
                code=row["code"],
                name_sk=row["name_sk"],
                name_en=row["name_en"],
                parent=None if row["code"] == ABROAD_KRAJ else "SK",
                extra=extra,
            )
        )
    return items


def build_nuts_items() -> list[CodeListItem]:
    """NUTS 2021 regions (levels 0-3) of the 23 markets, under their Latin-script names."""
    wanted = {NUTS_COUNTRY.get(c, c) for c in MARKETS}
    items = []
    for code, name in read_pairs("nuts2021.csv", ";"):
        if code[:2] not in wanted:
            continue
        country = ISO_COUNTRY.get(code[:2], code[:2])
        level = len(code) - 2
        items.append(
            item_in_original(
                code,
                name,
                country,
                parent=code[:-1] if level else None,
                level=level,
                extra={"scheme": "NUTS 2021", "country": country},
            )
        )
    return items


def build_subdivision_items() -> list[CodeListItem]:
    """ISO 3166-2 subdivisions of the 23 markets (pycountry), with Slovak names where iso-codes has them."""
    to_sk = slovak_translator("iso3166-2")
    items = []
    for sub in pycountry.subdivisions:
        if sub.country_code not in MARKETS:
            continue
        extra = {"scheme": "ISO 3166-2", "country": sub.country_code, "type": sub.type}
        item = item_in_original(
            sub.code, sub.name, sub.country_code, parent=sub.parent_code or sub.country_code, extra=extra
        )
        slovak = to_sk(sub.name)
        if slovak and sub.country_code not in SLOVAK_COUNTRIES:
            item = replace(item, name_sk=slovak, name_sk_fallback=False)
        items.append(item)
    return items


def slovak_translator(domain: str) -> Callable[[str], str | None]:
    """Slovak name from pycountry's iso-codes translations, or None where there is none."""
    translation = gettext.translation(domain, pycountry.LOCALES_DIR, languages=["sk"])
    translation.add_fallback(_Untranslated())
    return lambda message: translation.gettext(message) or None


class _Untranslated(gettext.NullTranslations):
    """Answers "" for a message without a translation, so a miss is told apart from a same-spelt name."""

    def gettext(self, message: str) -> str:
        return ""


def build_districts() -> list[CodeListItem]:
    return [
        CodeListItem(code=r["code"], name_sk=r["name_sk"], name_en=r["name_en"], parent=r["kraj"] or None)
        for r in read_csv("sk_okresy.csv")
    ]


def build_municipalities() -> list[CodeListItem]:
    """Obce with their district code as parent. Seven RÚZ entries (Bratislava and the Košice city
    units) name no district and keep `parent` empty."""
    districts = district_by_ruz_id()
    items = []
    for row in read_csv("sk_obce.csv"):
        parent = districts[int(row["okres_id"])] if row["okres_id"] else None
        items.append(
            CodeListItem(code=row["code"], name_sk=row["name_sk"], name_en=row["name_en"], parent=parent)
        )
    return items


def district_by_ruz_id() -> dict[int, str]:
    """RÚZ's internal district id → district code: the ids count the districts in code order from 10
    (Nitra 500011 → 36 → 403 okres Nitra; checked against known municipalities in the tests)."""
    codes = sorted(r["code"] for r in read_csv("sk_okresy.csv"))
    return {RUZ_FIRST_DISTRICT_ID + i: code for i, code in enumerate(codes)}
