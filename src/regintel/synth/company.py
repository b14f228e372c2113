"""One company's register record: identity, name, form, dates, state, address, activity, ids."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from regintel.synth import nace
from regintel.synth.banking import company_iban, company_lei
from regintel.synth.finance import size_class
from regintel.synth.ids import national_id
from regintel.synth.layout import iso
from regintel.synth.markets import Form, Market, Variant
from regintel.synth.naming import core_name, sanctioned_core, with_form
from regintel.synth.normal import normalise_address, normalise_name
from regintel.synth.pools import MarketPool, Place, VariantPool
from regintel.synth.vat import tax_id, vat_id

SANCTIONED_SHARE = 0.001
_LIQUIDATION_SUFFIX = {"SK": " v likvidácii", "CZ": " v likvidaci", "PL": " w likwidacji"}
_VAT_SHARE = {"micro": 0.45, "small": 0.85, "medium": 0.97, "large": 0.99}
_LEI_SHARE = {"micro": 0.01, "small": 0.08, "medium": 0.45, "large": 0.9}


@dataclass
class Company:
    g: int
    id: int
    country: str
    national_id: str
    name: str
    form: Form
    variant: VariantPool
    founded: int  # day ordinal
    dissolved: int | None
    founded_year: int
    dissolved_year: int | None
    status: str
    flags: tuple[bool, bool, bool]  # bankruptcy, restructuring, liquidation
    size: str
    employees: int
    row: tuple[object, ...]  # the companies row, in generator.COMPANY_COLUMNS order
    identifiers: list[tuple[str, str]]
    nace_codes: list[str]  # the first is the primary activity


def _variant(rng: random.Random, pool: MarketPool) -> VariantPool:
    if len(pool.variants) == 1:
        return pool.variants[0]
    x = rng.randrange(100)
    for vp in pool.variants:
        if x < vp.variant.share:
            return vp
        x -= vp.variant.share
    return pool.variants[-1]


def _form(rng: random.Random, variant: Variant, size: str) -> Form:
    large = [f for f in variant.forms if f.large]
    if size == "large" and rng.random() < 0.7 or size == "medium" and rng.random() < 0.25:
        return rng.choice(large)
    return rng.choices(variant.forms, [f.weight for f in variant.forms])[0]


def _gb_form(variant: Variant, form: Form, v: int) -> Form:
    """Company numbers with the OC prefix are LLPs, and only they are (see ids._gb)."""
    llp = next(f for f in variant.forms if f.abbr == "LLP")
    if v % 33 == 0:
        return llp
    return variant.forms[0] if form is llp else form


def _lifecycle(
    rnd: Callable[[], float], form: Form, as_of: int
) -> tuple[int, int | None, str, tuple[bool, bool, bool]]:
    """Founding day, dissolution day, status and insolvency flags (about 7% dissolved, 2% inactive;
    of the rest 1.5% bankrupt, 0.5% restructuring, 3% in liquidation; never bankrupt and restructuring)."""
    age = -11 * math.log(1.0 - rnd()) + (rnd() * 20 if form.large else 0)
    founded = as_of - int(min(age, 70) * 365.25) - 1
    x = rnd()
    if x < 0.07 and as_of - founded > 400:
        return (
            founded,
            founded + 365 + int(rnd() * (as_of - founded - 365)),
            "dissolved",
            (False, False, False),
        )
    y = rnd()
    return founded, None, "inactive" if x < 0.09 else "active", (y < 0.015, 0.015 <= y < 0.02, rnd() < 0.03)


def _address(rnd: Callable[[], float], market: Market, vp: VariantPool, place: Place) -> tuple[str, str]:
    number = str(1 + int(rnd() * 180)) + ("ABC"[int(rnd() * 3)] if rnd() < 0.05 else "")
    street = vp.streets[int(rnd() * len(vp.streets))]
    if market.address == "street-first":
        line = f"{street} {number}"
        return line, f"{line}, {place.postal_code} {place.city}"
    line = f"{number} {street}"
    if market.address == "uk":
        return line, f"{line}, {place.city} {place.postal_code}"
    return line, f"{line}, {place.postal_code} {place.city}"


def make_company(
    rng: random.Random, pool: MarketPool, g: int, cid: int, v: int, h: int, holding: bool, as_of: int
) -> Company:
    market = pool.market
    country = market.country
    vp = _variant(rng, pool)
    size, employees = size_class(rng, boost=2 if holding else 0)
    form = _form(rng, vp.variant, size)
    if country == "GB":
        form = _gb_form(vp.variant, form, v)
    nid = national_id(country, v, h, form.letter)
    rnd = rng.random
    founded, dissolved, status, flags = _lifecycle(rnd, form, as_of)
    place = pool.places[int(rnd() * len(pool.places))]
    core = sanctioned_core(rng) if rnd() < SANCTIONED_SHARE else core_name(rng, vp, place.city)
    if holding and rnd() < 0.4:
        core += " Holding"
    name = with_form(core, form, market) + (_LIQUIDATION_SUFFIX.get(country, "") if flags[2] else "")
    street, address_text = _address(rnd, market, vp, place)
    codes = nace.draw(rng, holding and rnd() < 0.5)
    active = status != "dissolved"
    vat = vat_id(country, nid, v, h) if active and rnd() < _VAT_SHARE[size] else None
    tax = tax_id(country, nid, v)
    lei = company_lei(country, g) if rnd() < _LEI_SHARE[size] + (0.3 if holding else 0) else None
    ids = _identifiers(country, nid, vat, tax, lei)
    if active and rnd() < 0.6:
        ids.append(("iban", company_iban(country, v, h)))
    region = place.nuts3[:4] if place.nuts3 else place.region
    row = (
        cid,
        country,
        nid,
        name,
        normalise_name(name),
        form.code,
        form.name,
        status,
        iso(founded),
        iso(dissolved) if dissolved else None,
        street,
        place.city,
        place.postal_code,
        address_text,
        normalise_address(address_text),
        region,
        None,
        None,
        place.nuts3,
        codes[0],
        _json_list(codes),
        size,
        employees,
        vat,
        tax,
        lei,
        *flags,
    )
    return Company(
        g,
        cid,
        country,
        nid,
        name,
        form,
        vp,
        founded,
        dissolved,
        _year(founded),
        _year(dissolved) if dissolved else None,
        status,
        flags,
        size,
        employees,
        row,
        ids,
        codes,
    )


def _json_list(codes: list[str]) -> str:
    """`json.dumps` of a list of NACE codes (plain ASCII, nothing to escape), without its encoder."""
    return '["' + '", "'.join(codes) + '"]' if codes else "[]"


def _year(ordinal: int) -> int:
    return int(iso(ordinal)[:4])


def _identifiers(
    country: str, nid: str, vat: str | None, tax: str | None, lei: str | None
) -> list[tuple[str, str]]:
    """The identifier rows the loader derives from a company record (sections.load_identifiers)."""
    pairs = []
    if country in ("SK", "CZ"):
        pairs.append(("ico", nid))
    if lei:
        pairs.append(("lei", lei))
    if vat:
        pairs.append(("ic_dph" if vat.startswith("SK") else "vat", vat))
    if tax:
        pairs.append(("dic", tax))
    return pairs
