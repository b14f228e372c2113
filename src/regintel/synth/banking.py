"""IBANs at real banks of each market (schwifty's bank registry) and LEIs, with valid check digits.

schwifty's own `IBAN.generate` costs about 55 µs and `IBAN.random` about 300 µs, too slow for ten
million companies, so the BBAN is assembled here from schwifty's IBAN structure and national
checksum algorithms and only the bank list is validated once with `stdnum.iban` and schwifty.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cache

from schwifty import IBAN, registry
from schwifty.checksum import algorithms
from schwifty.domain import Component
from schwifty.exceptions import SchwiftyException
from stdnum import iban as std_iban
from stdnum.iso7064 import mod_97_10

from regintel.synth.ids import scramble

_NUMERIC = str.maketrans({c: str(i) for i, c in enumerate(string.ascii_uppercase, start=10)})
_COMPONENTS = (Component.BANK_CODE, Component.BRANCH_CODE, Component.ACCOUNT_CODE)
_MAX_BANKS = 80


@dataclass(frozen=True)
class Layout:
    country: str
    length: int
    ranges: dict[Component, tuple[int, int]]
    banks: tuple[tuple[str, str], ...]  # (bank code, branch code) pairs that validate

    def size(self, component: Component) -> int:
        start, end = self.ranges.get(component, (0, 0))
        return end - start


def iban_check(country: str, bban: str) -> str:
    """The two IBAN check digits (ISO 13616, mod 97-10)."""
    return f"{98 - int((bban + country + '00').translate(_NUMERIC)) % 97:02d}"


def build_iban(layout: Layout, bank: str, branch: str, account: str) -> str | None:
    """An IBAN from its parts with the national checksum solved; None if no valid one exists."""
    parts = {Component.BANK_CODE: bank, Component.BRANCH_CODE: branch, Component.ACCOUNT_CODE: account}
    algo = algorithms.get(f"{layout.country}:default")
    if algo is not None:
        accepted = [parts.get(c, "").zfill(layout.size(c)) for c in algo.accepts]
        solved = algo.solve(accepted)
        if solved is None:
            return None
        parts.update(zip(algo.accepts, solved, strict=True))
        try:
            national = algo.compute(solved)
        except SchwiftyException:  # e.g. a Norwegian account whose mod-11 remainder has no digit
            return None
        if national:
            parts[Component.NATIONAL_CHECKSUM_DIGITS] = national
    chars = ["0"] * layout.length
    for component, value in parts.items():
        start, end = layout.ranges.get(component, (0, 0))
        if end > start:
            chars[start:end] = value.zfill(end - start)[-(end - start) :]
    bban = "".join(chars)
    return layout.country + iban_check(layout.country, bban) + bban


@cache
def layout(country: str) -> Layout:
    """The BBAN layout of `country` and up to 80 of its registry banks whose IBANs validate."""
    spec = registry.get_iban_spec(country)
    ranges = {c: (r.start, r.end) for c, r in spec.positions.items() if not r.is_empty}
    draft = Layout(country, spec.bban_length, ranges, ())
    bank_len, branch_len = draft.size(Component.BANK_CODE), draft.size(Component.BRANCH_CODE)
    pairs: dict[tuple[str, str], None] = {}
    for bank in sorted(registry.get_banks_by_country(country), key=lambda b: (not b.primary, b.bank_code)):
        code = bank.bank_code
        if not code or len(code) not in (bank_len, bank_len + branch_len):
            continue
        pair = (code[:bank_len], code[bank_len:])
        if pair not in pairs and _valid(build_iban(draft, *pair, "1" * draft.size(Component.ACCOUNT_CODE))):
            pairs[pair] = None
        if len(pairs) >= _MAX_BANKS:
            break
    if not pairs:
        raise LookupError(f"no usable bank codes for {country} in schwifty's registry")
    return Layout(country, spec.bban_length, ranges, tuple(pairs))


def _valid(value: str | None) -> bool:
    if value is None or not std_iban.is_valid(value):
        return False
    try:
        IBAN(value, validate_bban=True)
    except ValueError:
        return False
    return True


def company_iban(country: str, v: int, h: int) -> str:
    """An IBAN for the company with value `v` (distinct v give distinct bank + account pairs)."""
    lay = layout(country)
    # Norwegian accounts starting "00" are checked differently by schwifty and stdnum: lead with 1-9.
    lead = "123456789"[h % 9] if country == "NO" else ""
    digits = min(lay.size(Component.ACCOUNT_CODE) - 1 - len(lead), 12)
    n = len(lay.banks)
    for attempt in range(10):
        j = scramble(v, n * 10**digits, 11 + attempt)
        bank, branch = lay.banks[j % n]
        if lay.size(Component.BRANCH_CODE) and not branch:
            branch = str(h % 10 ** lay.size(Component.BRANCH_CODE))
            if country in ("CZ", "SK"):
                branch = "0"  # an account-number prefix; most accounts have none
        account = f"{lead}{j // n:0{digits}d}{h % 10}"
        value = build_iban(lay, bank, branch, account)
        if value is not None:
            return value
        h //= 10
    raise AssertionError(f"no valid {country} account found for {v}")


# LOU prefixes of LEIs (the first four characters name the issuing organisation).
_LOU = {"FR": "9695", "GB": "2138", "IT": "8156", "ES": "9598", "SK": "0979"}
_BASE36 = string.digits + string.ascii_uppercase


def company_lei(country: str, g: int) -> str:
    """An ISO 17442 LEI: LOU prefix, '00', 12 entity characters unique per `g`, mod 97-10 check."""
    n = scramble(g, 36**12, 12)
    entity = "".join(_BASE36[(n // 36**i) % 36] for i in range(11, -1, -1))
    lou = _LOU.get(country) or ("5299", "5493")[g % 2]
    base = f"{lou}00{entity}"
    return base + mod_97_10.calc_check_digits(base)
