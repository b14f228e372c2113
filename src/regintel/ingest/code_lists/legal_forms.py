"""Legal forms: ISO 20275 ELF codes (all jurisdictions) plus the Slovak and Czech statistical codes.

Codes: an ELF code as published ("2EEG"); a national code prefixed with its country ("SK:112",
"CZ:112"). `parent` is the country (ISO 3166-1 alpha-2) in both cases; `extra.scheme` says which.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from regintel.domain.code_lists import CodeListItem
from regintel.ingest.code_lists.files import read_csv

ELF_SCHEME = "ISO 20275 ELF"
SK_SCHEME = "ŠÚ SR legal-form classification"
CZ_SCHEME = "ČSÚ legal-form classification (derived from the Slovak list)"


def build_legal_forms() -> list[CodeListItem]:
    national = read_csv("sk_legal_forms.csv")
    return [
        *build_elf_items(),
        *(_national_item(r, "SK") for r in national),
        *(_national_item(r, "CZ") for r in national),
    ]


def build_elf_items() -> list[CodeListItem]:
    """One item per ELF code. The reserved codes 8888 and 9999 have no country and no name: skipped."""
    rows: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in read_csv("elf_codes.csv"):
        if row["country"]:
            rows[row["code"]].append(row)
    return [_elf_item(code, group) for code, group in rows.items()]


def _elf_item(code: str, rows: list[dict[str, str]]) -> CodeListItem:
    by_lang: dict[str, str] = {}
    for row in rows:
        by_lang.setdefault(row["lang"], row["name"])
    first = rows[0]
    # The first listed name stands in for a missing language, in Latin script where the
    # register gives a transliteration (Greek, Cyrillic).
    original = first["name_translit"] or first["name"]
    return CodeListItem(
        code=code,
        name_sk=by_lang.get("sk", original),
        name_sk_fallback="sk" not in by_lang,
        name_en=by_lang.get("en", original),
        name_en_fallback="en" not in by_lang,
        parent=first["country"],
        extra=_elf_extra(rows, by_lang),
    )


def _elf_extra(rows: list[dict[str, str]], by_lang: dict[str, str]) -> dict[str, Any]:
    first = rows[0]
    abbreviations: list[str] = []
    for row in rows:
        for cell in (row["abbr"], row["abbr_translit"]):
            abbreviations += [
                a.strip() for a in cell.split(";") if a.strip() and a.strip() not in abbreviations
            ]
    extra: dict[str, Any] = {
        "scheme": ELF_SCHEME,
        "country": first["country"],
        "status": first["status"],
        "names": by_lang,
        "abbreviations": abbreviations,
    }
    if first["jurisdiction"]:
        extra["jurisdiction"] = first["jurisdiction"]
    if first["subdivision"]:
        extra["subdivision"] = first["subdivision"]
    return extra


def _national_item(row: dict[str, str], country: str) -> CodeListItem:
    """A statistical legal-form code. Czech and Slovak codes share the Czechoslovak classification
    (CZ ARES `pravniForma` uses the same numbers), but no Czech codebook ships with regintel yet, so
    the Czech items repeat the Slovak codes and titles and say so in `extra.derived_from`."""
    extra: dict[str, Any] = {
        "scheme": SK_SCHEME if country == "SK" else CZ_SCHEME,
        "country": country,
        "national_code": row["code"],
    }
    if country != "SK":
        extra["derived_from"] = f"SK:{row['code']}"
    return CodeListItem(
        code=f"{country}:{row['code']}",
        name_sk=row["name_sk"],
        name_en=row["name_en"],
        parent=country,
        extra=extra,
    )
