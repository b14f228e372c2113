"""VAT ids (and the Slovak, Czech and Polish tax numbers) that belong to a generated company.

Where a country's VAT id embeds the register number (FR, BE, NO, RO, LV, ES, IT, GR, HR, CZ, FI, CH)
it is derived from it; elsewhere it is its own number drawn injectively from the company's value
`v`, so two companies never share a VAT id. Output is the canonical form that
`regintel.domain.identifiers.parse_vat` returns. Ukraine is outside the EU VAT system: no VAT id.
"""

from __future__ import annotations

from collections.abc import Callable

from stdnum import luhn
from stdnum.cy import vat as cy_vat
from stdnum.ie import vat as ie_vat
from stdnum.lt import pvm as lt_pvm

from regintel.synth.ids import kth_valid, scramble, weighted

# (capacity, maker(national_id, v, h) -> VAT id)
VatMaker = Callable[[str, int, int], str]


def _si_vat_check(body: str) -> str | None:
    c = 11 - weighted(body, (8, 7, 6, 5, 4, 3, 2)) % 11
    return None if c == 11 else str(c % 10)


def _pl_nip_check(body: str) -> str | None:
    c = weighted(body, (6, 5, 7, 2, 3, 4, 5, 6, 7)) % 11
    return None if c == 10 else str(c)


def _nl_rsin_check(body: str) -> str | None:
    c = weighted(body, (9, 8, 7, 6, 5, 4, 3, 2)) % 11
    return None if c == 10 else str(c)


_SK_DIC_FIRST = 2_020_000_000 + (-2_020_000_000) % 11  # first multiple of 11 in the legal-person range


def _sk(nid: str, v: int, h: int) -> str:
    return "SK" + sk_dic(v)


def sk_dic(v: int) -> str:
    """Slovak DIČ of a legal person: 10 digits starting 20, divisible by 11 (the IČ DPH rule)."""
    return str(_SK_DIC_FIRST + 11 * v)


def pl_nip(v: int) -> str:
    """Polish NIP: a 3-digit tax-office prefix, 6 digits, and a mod-11 check digit."""
    free = scramble(v // 9, 900 * 100_000, 3)
    return kth_valid(str(100 + free // 100_000) + f"{free % 100_000:05d}", v % 9, _pl_nip_check)


def _gb(nid: str, v: int, h: int) -> str:
    body = str(1_000_000 + scramble(v, 9_000_000, 1))
    check = -weighted(body, (8, 7, 6, 5, 4, 3, 2)) % 97
    return f"GB{body}{check:02d}"


def _fr(nid: str, v: int, h: int) -> str:
    return f"FR{(12 + 3 * (int(nid) % 97)) % 97:02d}{nid}"


def _ie(nid: str, v: int, h: int) -> str:
    body = f"{scramble(v, 10_000_000, 2):07d}"
    second = "AH"[h % 2]
    return f"IE{body}{ie_vat.calc_check_digit(body + second)}{second}"


def _at(nid: str, v: int, h: int) -> str:
    body = str(1_000_000 + scramble(v, 9_000_000, 4))
    return f"ATU{body}{(6 - luhn.checksum(body)) % 10}"


def _cy(nid: str, v: int, h: int) -> str:
    body = f"10{scramble(v, 1_000_000, 5):06d}"
    return f"CY{body}{cy_vat.calc_check_digit(body)}"


def _lt(nid: str, v: int, h: int) -> str:
    body = f"{1_000_000 + scramble(v, 9_000_000, 6):07d}1"
    return f"LT{body}{lt_pvm.calc_check_digit(body)}"


def _ee(nid: str, v: int, h: int) -> str:
    body = f"10{scramble(v, 1_000_000, 7):06d}"
    return f"EE{body}{-weighted(body, (3, 7, 1, 3, 7, 1, 3, 7)) % 10}"


def _si(nid: str, v: int, h: int) -> str:
    prefix = str(100_000 + scramble(v // 9, 900_000, 8))
    return "SI" + kth_valid(prefix, v % 9, _si_vat_check)


def _nl(nid: str, v: int, h: int) -> str:
    free = scramble(v // 9, 3_000_000, 9)
    rsin = kth_valid("801"[free // 1_000_000] + f"{free % 1_000_000:06d}", v % 9, _nl_rsin_check)
    return f"NL{rsin}B01"


VAT: dict[str, tuple[int, VatMaker]] = {
    "SK": (2_700_000, _sk),
    "CZ": (10**12, lambda nid, v, h: "CZ" + nid),
    "GB": (9_000_000, _gb),
    "FR": (10**12, _fr),
    "NO": (10**12, lambda nid, v, h: f"NO{nid}MVA"),
    "FI": (10**12, lambda nid, v, h: "FI" + nid.replace("-", "")),
    "BE": (10**12, lambda nid, v, h: "BE" + nid),
    "CH": (10**12, lambda nid, v, h: nid),  # parse_vat keeps the UID (CHE…) as the Swiss VAT id
    "EE": (1_000_000, _ee),
    "LV": (10**12, lambda nid, v, h: "LV" + nid),
    "SI": (8_100_000, _si),
    "HR": (10**12, lambda nid, v, h: "HR" + nid),
    "RO": (10**12, lambda nid, v, h: "RO" + nid),
    "ES": (10**12, lambda nid, v, h: "ES" + nid),
    "IT": (10**12, lambda nid, v, h: "IT" + nid),
    "GR": (10**12, lambda nid, v, h: "EL" + nid),
    "AT": (9_000_000, _at),
    "PL": (900 * 100_000 * 9, lambda nid, v, h: "PL" + pl_nip(v)),
    "NL": (27_000_000, _nl),
    "IE": (10_000_000, _ie),
    "LT": (9_000_000, _lt),
    "CY": (1_000_000, _cy),
}


def vat_id(country: str, national_id: str, v: int, h: int = 0) -> str | None:
    """The VAT id of the company with register number `national_id` and value `v`; None for UA."""
    entry = VAT.get(country)
    return entry[1](national_id, v, h) if entry else None


def tax_id(country: str, national_id: str, v: int) -> str | None:
    """The tax number stored as `dic`: SK DIČ, CZ DIČ (the IČO digits), PL NIP; None elsewhere."""
    if country == "SK":
        return sk_dic(v)
    if country == "CZ":
        return national_id
    if country == "PL":
        return pl_nip(v)
    return None


def capacity(country: str) -> int:
    """How many distinct companies the generators of `country` can number."""
    from regintel.synth.ids import NATIONAL

    vat = VAT.get(country)
    return min(NATIONAL[country][0], vat[0] if vat else NATIONAL[country][0])
