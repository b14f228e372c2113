"""Bank-code data (spec 4.7 `/public/bank-code-specs.json`, `/public/bank-code/{country}/{code}.json`), from
schwifty's registries: the IBAN structure of every country of the SWIFT IBAN registry, and the national
bank-code lists (with BIC) that schwifty generates from the central banks' publications (NBS, ČNB, …).
Reference data that changes with the library's releases: cached in the process."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import pycountry
import schwifty
from schwifty import registry
from schwifty.exceptions import SchwiftyException

from regintel.domain.identifiers import parse_country
from regintel.errors import NotFound, ValidationFailed

_CODE = re.compile(r"[0-9A-Za-z]{1,16}")


def _position(spec: Any, name: str) -> dict[str, int] | None:
    for component, span in spec.positions.items():
        if component.value == name and span.end > span.start:
            return {"start": span.start, "end": span.end}
    return None


@lru_cache(maxsize=1)
def specs() -> dict[str, Any]:
    """Every country with an IBAN: length, BBAN format, where the bank and branch codes sit, SEPA membership,
    and whether (and how many) national bank codes are known."""
    with_banks = set(registry.get_countries())
    countries = []
    for country in sorted(c.alpha_2 for c in pycountry.countries):
        try:
            spec = registry.get_iban_spec(country)
        except (SchwiftyException, KeyError):
            continue
        banks = registry.get_banks_by_country(country) if country in with_banks else []
        countries.append(
            {
                "country": country,
                "ibanLength": spec.iban_length,
                "ibanSpec": spec.iban_spec,
                "bbanSpec": spec.bban_spec,
                "sepa": spec.in_sepa_zone,
                "bankCode": _position(spec, "bank_code"),
                "branchCode": _position(spec, "branch_code"),
                "accountCode": _position(spec, "account_code"),
                "bankRegistry": bool(banks),
                "bankCount": len({b.bank_code for b in banks}),
            }
        )
    return {
        "source": f"schwifty {schwifty.__version__} (SWIFT IBAN registry; national bank lists)",
        "countries": countries,
    }


def bank(country: str, code: str) -> dict[str, Any]:
    """The banks holding a national bank code (a code can name a head office and its branches)."""
    cc = parse_country(country)
    if not _CODE.fullmatch(code or ""):
        raise ValidationFailed(
            f"{code!r} is not a bank code",
            details=[{"field": "code", "in": "path", "message": "1-16 letters or digits"}],
        )
    if cc not in registry.get_countries():
        raise NotFound(f"No bank-code list is known for {cc}")
    try:
        banks = registry.get_banks_by_code(cc, code)
    except (SchwiftyException, KeyError):
        banks = []
    if not banks:
        raise NotFound(f"No bank with code {code} in {cc}")
    return {
        "country": cc,
        "code": code,
        "banks": [
            {"name": b.name, "shortName": b.short_name, "bic": b.bic or None, "primary": b.primary}
            for b in banks
        ],
        "source": f"schwifty {schwifty.__version__} bank registry ({cc})",
    }
