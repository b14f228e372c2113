"""National register numbers and VAT ids with valid check digits, one generator per market.

Each generator maps a value `v` from `[0, capacity)` to an identifier, injectively, so distinct
values give distinct identifiers; `h` is free hash bits for choices that do not affect uniqueness
(an Italian tax office, an Irish VAT suffix). Check digits are computed with python-stdnum's own
helpers where it has them, so the output passes `regintel.domain.identifiers.parse_national_id` and
`parse_vat` by construction (tests/synth/test_ids.py checks thousands of samples per market).

Where a check digit can come out invalid (a remainder of 10 under mod 11), the last body digit is
chosen as the k-th digit that gives a valid check digit, which keeps the map injective and loses
only a tenth of the space instead of retrying.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from math import gcd

from stdnum import luhn
from stdnum.cz import dic as cz_dic
from stdnum.ee import ik as ee_ik
from stdnum.gr import vat as gr_vat
from stdnum.iso7064 import mod_11_10
from stdnum.lt import pvm as lt_pvm
from stdnum.ro import cui as ro_cui
from stdnum.ua import edrpou as ua_edrpou

Check = Callable[[str], str | None]


def weighted(body: str, weights: tuple[int, ...]) -> int:
    return sum(w * int(d) for w, d in zip(weights, body, strict=False))


def scramble(v: int, space: int, salt: int) -> int:
    """A fixed bijection of [0, space): decorrelates a VAT id from the register number."""
    return (_multiplier(space, salt) * v + 104_729 * salt) % space


@cache
def _multiplier(space: int, salt: int) -> int:
    a = 7_919 * salt + 1
    while gcd(a, space) != 1:
        a += 1
    return a


def kth_valid(prefix: str, k: int, check: Check) -> str:
    """prefix + the k-th digit (k < 9) for which `check` yields a check digit, + that check digit."""
    seen = 0
    for digit in "0123456789":
        c = check(prefix + digit)
        if c is None:
            continue
        if seen == k:
            return prefix + digit + c
        seen += 1
    raise AssertionError("at most one digit can give an invalid remainder")


def prefixed(v: int, prefixes: tuple[str, ...], width: int) -> str:
    """One of `prefixes` followed by `width` digits; injective for v < len(prefixes) * 10**width."""
    size = int(10**width)
    return prefixes[v // size] + str(v % size).zfill(width)


# -- check digits ------------------------------------------------------------------------------


def _no_check(body: str) -> str | None:
    c = (11 - weighted(body, (3, 2, 7, 6, 5, 4, 3, 2)) % 11) % 11
    return None if c == 10 else str(c)


def _fi_check(body: str) -> str | None:
    r = weighted(body, (7, 9, 10, 5, 8, 4, 2)) % 11
    return None if r == 1 else str(0 if r == 0 else 11 - r)


def _ch_check(body: str) -> str | None:
    c = (11 - weighted(body, (5, 4, 3, 2, 7, 6, 5, 4))) % 11
    return None if c == 10 else str(c)


def _lv_check(body: str) -> str | None:
    x = (3 - weighted(body, (9, 1, 4, 8, 3, 10, 2, 5, 7, 6))) % 11
    return None if x == 10 else str(x)


def _si_check(body: str) -> str | None:
    r = -weighted(body, (7, 6, 5, 4, 3, 2)) % 11
    return None if r == 0 else str(r % 10)


def _at_fn_letter(number: int) -> str:
    """The Firmenbuch check letter (weights 6,4,14,15,10,1 mod 17); stdnum checks only the shape."""
    return "abdfghikmpstvwxyz"[weighted(str(number).zfill(6), (6, 4, 14, 15, 10, 1)) % 17]


def _lt_code_check(body: str) -> str:
    """Lithuanian company codes carry the same mod-11 check digit as personal codes."""
    return str(lt_pvm.calc_check_digit(body))


# -- national register numbers -----------------------------------------------------------------


def _ico(prefixes: tuple[str, ...]) -> Callable[[int, int, str], str]:
    def make(v: int, h: int, letter: str) -> str:
        body = prefixed(v, prefixes, 6)
        return body + cz_dic.calc_check_digit_legal(body)

    return make


def _gb(v: int, h: int, letter: str) -> str:
    """England and Wales numbers are 8 digits; Scottish (SC), Northern Irish (NI) and LLPs (OC) a prefix."""
    prefix = {0: "OC", 1: "SC", 2: "NI"}.get(v % 33)
    return f"{prefix}{v // 33:06d}" if prefix else f"{v + 1:08d}"


def _siren(v: int, h: int, letter: str) -> str:
    body = prefixed(v, tuple("3456789"), 7)
    return body + luhn.calc_check_digit(body)


def _orgnr(v: int, h: int, letter: str) -> str:
    return kth_valid(prefixed(v // 9, ("8", "9"), 6), v % 9, _no_check)


def _ytunnus(v: int, h: int, letter: str) -> str:
    number = kth_valid(prefixed(v // 9, ("0", "1", "2", "3"), 5), v % 9, _fi_check)
    return number[:7] + "-" + number[7:]


def _be(v: int, h: int, letter: str) -> str:
    body = "0" + prefixed(v, tuple("23456789"), 6)
    return body + f"{97 - int(body) % 97:02d}"


def _che(v: int, h: int, letter: str) -> str:
    return "CHE" + kth_valid(prefixed(v // 9, ("1", "2", "3", "4"), 6), v % 9, _ch_check)


def _ee(v: int, h: int, letter: str) -> str:
    body = "1" + str(v).zfill(6)
    return body + ee_ik.calc_check_digit(body + "0")


def _lv(v: int, h: int, letter: str) -> str:
    return kth_valid(prefixed(v // 9, ("400", "401", "402", "403", "500", "501"), 6), v % 9, _lv_check)


def _si(v: int, h: int, letter: str) -> str:
    return kth_valid(str(10_000 + v // 9), v % 9, _si_check)


def _oib(v: int, h: int, letter: str) -> str:
    body = str(1_000_000_000 + v)
    return body + mod_11_10.calc_check_digit(body)


def _cui(v: int, h: int, letter: str) -> str:
    body = prefixed(v, ("1", "2", "3", "4"), 6)
    return body + ro_cui.calc_check_digit(body)


# Spanish province codes that appear in CIFs (01-52 are the provinces, Ceuta and Melilla).
_ES_PROVINCES = tuple(f"{p:02d}" for p in range(1, 53))


def _cif(v: int, h: int, letter: str) -> str:
    digits = _ES_PROVINCES[v // 100_000] + f"{v % 100_000:05d}"
    return (letter or "B") + digits + luhn.calc_check_digit(digits)


def _piva(v: int, h: int, letter: str) -> str:
    body = f"{v + 1:07d}{h % 100 + 1:03d}"  # company serial + provincial tax office 001-100
    return body + luhn.calc_check_digit(body)


def _afm(v: int, h: int, letter: str) -> str:
    body = prefixed(v, ("09", "80", "94", "99"), 6)
    return body + gr_vat.calc_check_digit(body)


def _edrpou(v: int, h: int, letter: str) -> str:
    body = prefixed(v, ("0", "1", "2", "3", "4"), 6)
    return body + ua_edrpou.calc_check_digit(body)


def _fn(v: int, h: int, letter: str) -> str:
    return f"{v + 1}{_at_fn_letter(v + 1)}"


def _lt(v: int, h: int, letter: str) -> str:
    body = prefixed(
        v,
        (
            "110",
            "111",
            "120",
            "121",
            "122",
            "123",
            "124",
            "125",
            "126",
            "300",
            "301",
            "302",
            "303",
            "304",
            "305",
            "306",
        ),
        5,
    )
    return body + _lt_code_check(body)


NATIONAL: dict[str, tuple[int, Callable[[int, int, str], str]]] = {
    "SK": (3_000_000, _ico(("3", "4", "5"))),
    "CZ": (6_000_000, _ico(("0", "1", "2", "4", "6", "7"))),
    "GB": (17_000_000, _gb),
    "FR": (70_000_000, _siren),
    "NO": (18_000_000, _orgnr),
    "FI": (3_600_000, _ytunnus),
    "BE": (8_000_000, _be),
    "CH": (36_000_000, _che),
    "EE": (1_000_000, _ee),
    "LV": (54_000_000, _lv),
    "SI": (810_000, _si),
    "HR": (9_000_000_000, _oib),
    "RO": (4_000_000, _cui),
    "ES": (len(_ES_PROVINCES) * 100_000, _cif),
    "IT": (9_999_999, _piva),
    "GR": (4_000_000, _afm),
    "UA": (5_000_000, _edrpou),
    "AT": (999_999, _fn),
    "PL": (2_000_000, lambda v, h, letter: f"{v + 1:010d}"),  # KRS numbers are sequential
    "NL": (90_000_000, lambda v, h, letter: f"{10_000_000 + v:08d}"),
    "IE": (900_000, lambda v, h, letter: str(100_000 + v)),
    "LT": (1_600_000, _lt),
    "CY": (900_000, lambda v, h, letter: f"HE{100_000 + v}"),
}


def national_id(country: str, v: int, h: int = 0, letter: str = "") -> str:
    """The register number of the v-th company of `country` (ES takes the CIF letter of its form)."""
    return NATIONAL[country][1](v, h, letter)
