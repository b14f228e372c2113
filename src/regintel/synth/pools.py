"""Per-market pools of names, streets and places, drawn from Faker once and then combined by the
generator with a seeded `random.Random` (a Faker call costs 10-20 µs; a list index costs nothing).

Pools are reference data: they depend on the Faker version, never on the build's seed. Person names
are single tokens that survive `normalise_name`, so every (first, last) pair normalises to a distinct
string and the person keys the generator promises to be distinct really are.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import pycountry
from faker import Faker

from regintel.domain.names import normalise_name, tokens
from regintel.synth.markets import MARKETS, Market, Variant
from regintel.synth.translit import greek, ukrainian
from regintel.synth.words import STREET_FORMS, TOWNS

_DRAWS = 2_500
# Faker locales without a person provider of their own borrow one with the same names.
_NAME_LOCALE = {"el_CY": "el_GR"}
_TRANSLIT: dict[str, Callable[[str], str]] = {"uk_UA": ukrainian, "el_GR": greek, "el_CY": greek}
_POSTCODE = {"LT": "LT-#####", "LV": "LV-####", "EE": "#####", "CY": "####"}
_CITY_PREFIXES = ("місто ", "село ", "смт ")


@dataclass(frozen=True)
class Names:
    first: tuple[tuple[str, ...], tuple[str, ...]]  # male, female
    last: tuple[tuple[str, ...], tuple[str, ...]]  # male, female


@dataclass(frozen=True)
class Place:
    city: str
    postal_code: str
    nuts3: str | None
    region: str | None


@dataclass(frozen=True)
class VariantPool:
    variant: Variant
    names: Names
    streets: tuple[str, ...]


@dataclass(frozen=True)
class MarketPool:
    market: Market
    variants: tuple[VariantPool, ...]
    places: tuple[Place, ...]


def _draw(make: Callable[[], str], limit: int = _DRAWS, patience: int = 300) -> list[str]:
    """Distinct values of `make()` in the order drawn; stops once `patience` draws bring nothing new."""
    seen: dict[str, None] = {}
    idle = 0
    for _ in range(limit):
        value = make().strip()
        if value and value not in seen:
            seen[value] = None
            idle = 0
        else:
            idle += 1
            if idle >= patience:
                break
    return list(seen)


def _single_tokens(values: list[str]) -> tuple[str, ...]:
    """Names that are one token and stay one token next to another name (no "Da", no "As")."""
    out: dict[str, str] = {}
    for value in values:
        toks = tokens(value)
        if len(toks) == 1 and normalise_name(f"{value} {value}") == f"{toks[0]} {toks[0]}":
            out.setdefault(toks[0], value)
    return tuple(out.values())


def _faker(locale: str) -> Faker:
    fake = Faker(locale)
    fake.seed_instance(0)
    return fake


def _listed(fake: Faker, *attributes: str) -> list[str] | None:
    """A name list the locale's person provider declares (weighted lists are dicts), if any."""
    for provider in fake.factories[0].providers:
        if ".person." not in type(provider).__module__:
            continue
        for attribute in attributes:
            values = getattr(provider, attribute, None)
            if isinstance(values, (dict, list, tuple)) and len(values) >= 20:
                return [str(v) for v in values]
    return None


def _names(locale: str) -> Names:
    fake = _faker(_NAME_LOCALE.get(locale, locale))
    conv = _TRANSLIT.get(locale, str)

    def pool(kind: str, gender: str, make: Callable[[], str]) -> tuple[str, ...]:
        values = _listed(fake, f"{kind}_names_{gender}", f"{kind}_names") or _draw(make)
        return _single_tokens([conv(v) for v in values])

    return Names(
        (pool("first", "male", fake.first_name_male), pool("first", "female", fake.first_name_female)),
        (pool("last", "male", fake.last_name_male), pool("last", "female", fake.last_name_female)),
    )


def _streets(market: Market, variant: Variant, names: Names) -> tuple[str, ...]:
    key = market.country if market.country in STREET_FORMS else f"{variant.lang.upper()}_{market.country}"
    forms = STREET_FORMS.get(key)
    if forms is None:
        fake = _faker(variant.locale)
        conv = _TRANSLIT.get(variant.locale, str)
        return tuple(conv(s) for s in _draw(fake.street_name, 1_500))
    stems = names.last[0][:300] + names.first[0][:100]
    return tuple(form.format(stem) for stem in stems for form in forms)


def _places(market: Market) -> tuple[Place, ...]:
    locale = market.variants[0].locale
    fake = _faker(locale)
    conv = _TRANSLIT.get(locale, str)
    listed = _address_list(fake)
    if market.country in TOWNS:
        cities = list(TOWNS[market.country])
    elif listed:
        cities = [_strip_prefix(conv(c)) for c in listed]
    else:
        make = fake.city_name if locale == "uk_UA" else fake.city
        cities = [_strip_prefix(conv(c)) for c in _draw(make, 1_200)]
    postcode = _POSTCODE.get(market.country)
    regions = _regions(market)
    places = []
    for city in dict.fromkeys(cities):
        region = regions[_stable(city) % len(regions)] if regions else None
        for _ in range(1 + _stable(city + "#") % 3):
            code = fake.numerify(postcode) if postcode else conv(fake.postcode())
            places.append(
                Place(
                    city,
                    code,
                    region if market.country != "UA" else None,
                    region if market.country == "UA" else None,
                )
            )
    return tuple(places)


def _address_list(fake: Faker) -> list[str] | None:
    for provider in fake.factories[0].providers:
        if ".address." in type(provider).__module__:
            values = getattr(provider, "cities", None) or getattr(provider, "city_names", None)
            if isinstance(values, (list, tuple)) and len(values) >= 20:
                return list(values)[:: max(1, len(values) // 1_200)]  # spread over the alphabet
    return None


def _strip_prefix(city: str) -> str:
    for prefix in _CITY_PREFIXES:
        city = city.removeprefix(prefix)
    return city.replace("misto ", "").replace("selo ", "").replace("smt ", "")


def _stable(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _regions(market: Market) -> list[str]:
    """NUTS 3 codes of the market (Ukraine, outside NUTS, gets its ISO 3166-2 oblasts)."""
    if market.country == "UA":
        # `subdivisions.get(country_code=...)` is the one lookup pycountry leaves unannotated.
        return sorted(s.code for s in pycountry.subdivisions if s.country_code == "UA")
    prefix = market.nuts or market.country
    return [code for code in nuts3_codes() if code.startswith(prefix)]


@cache
def nuts3_codes() -> tuple[str, ...]:
    """NUTS 2021 level-3 codes of the markets (Eurostat), shipped in synth/data/nuts3.csv."""
    text = files("regintel.synth").joinpath("data/nuts3.csv").read_text(encoding="utf-8")
    return tuple(row["code"] for row in csv.DictReader(text.splitlines(), delimiter=";"))


def market_pool(country: str) -> MarketPool:
    market = MARKETS[country]
    variants = []
    for variant in market.variants:
        names = _names(variant.locale)
        variants.append(VariantPool(variant, names, _streets(market, variant, names)))
    return MarketPool(market, tuple(variants), _places(market))


@cache
def all_pools() -> dict[str, MarketPool]:
    """The pools of all 23 markets (about two seconds to build; cached per process)."""
    return {country: market_pool(country) for country in MARKETS}
