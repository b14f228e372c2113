"""Countries (ISO 3166-1, pycountry) and bank codes (schwifty's national bank registries)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pycountry
from schwifty import registry
from schwifty.domain import Bank

from regintel.domain.code_lists import CodeListItem, item_in_original
from regintel.ingest.code_lists.places import slovak_translator


def build_countries() -> list[CodeListItem]:
    """Every ISO 3166-1 country under its alpha-2 code, with iso-codes' Slovak name where it has one."""
    to_sk = slovak_translator("iso3166-1")
    items = []
    for country in pycountry.countries:
        slovak = to_sk(country.name)
        extra: dict[str, Any] = {"alpha_3": country.alpha_3, "numeric": country.numeric}
        for optional in ("official_name", "common_name"):
            if hasattr(country, optional):
                extra[optional] = getattr(country, optional)
        items.append(
            CodeListItem(
                code=country.alpha_2,
                name_sk=slovak or country.name,
                name_sk_fallback=slovak is None,
                name_en=country.name,
                extra=extra,
            )
        )
    return items


def build_bank_codes() -> list[CodeListItem]:
    """One item per (country, national bank code), coded "SK:0900".

    A code with several registry entries (branch BICs of one German or British bank) becomes one item
    under its primary entry, listing every BIC. Entries without a national code (BIC only, as in
    Saudi Arabia and most of Cyprus) are not bank codes and are left out.
    """
    groups: dict[tuple[str, str], list[Bank]] = defaultdict(list)
    for bank in registry.get_all_banks():
        if bank.bank_code:
            groups[(bank.country_code, bank.bank_code)].append(bank)
    return [_bank_item(country, code, banks) for (country, code), banks in sorted(groups.items())]


def _bank_item(country: str, bank_code: str, banks: list[Bank]) -> CodeListItem:
    main = next((b for b in banks if b.primary), banks[0])
    bics = list(dict.fromkeys(b.bic for b in [main, *banks] if b.bic))
    extra: dict[str, Any] = {"country": country, "bank_code": bank_code, "bic": main.bic or None}
    if len(bics) > 1:
        extra["bics"] = bics
    if main.short_name and main.short_name != main.name:
        extra["short_name"] = main.short_name
    return item_in_original(f"{country}:{bank_code}", main.name, country, parent=country, extra=extra)
