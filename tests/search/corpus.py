"""A deterministic corpus of realistic multi-country companies for the search evaluation and the
search benchmarks: `companies(n, seed)` always yields the same records, and its first k records do
not depend on n (so the evaluation slice of a 1M corpus is the 20k corpus).

Names mix surnames, towns, trade words and invented brands of each market, with the legal forms
written the way registers write them; national ids, VAT ids and LEIs carry valid check digits."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from faker import Faker
from stdnum import luhn
from stdnum.cz import dic as cz_dic
from stdnum.iso7064 import mod_97_10

from regintel.domain.types import CompanyRecord

# country: (Faker locale, share, legal forms, trade words)
MARKETS: dict[str, tuple[str, int, tuple[str, ...], tuple[str, ...]]] = {
    "SK": (
        "sk_SK",
        25,
        ("s.r.o.", "spol. s r.o.", "a.s.", "k.s.", "v.o.s."),
        (
            "Stavebniny",
            "Autoservis",
            "Potraviny",
            "Reality",
            "Doprava",
            "Elektro",
            "Lesy",
            "Agro",
            "Stavby",
            "Technológie",
            "Poradenstvo",
            "Účtovníctvo",
            "Pekáreň",
            "Strojárne",
            "Obchod",
            "Kameňolom",
        ),
    ),
    "CZ": (
        "cs_CZ",
        20,
        ("s.r.o.", "spol. s r.o.", "a.s.", "v.o.s."),
        (
            "Stavebniny",
            "Autodoprava",
            "Potraviny",
            "Reality",
            "Elektro",
            "Strojírny",
            "Pekařství",
            "Zemědělství",
            "Účetnictví",
            "Obchod",
            "Technologie",
            "Slévárna",
            "Pivovar",
            "Tiskárna",
        ),
    ),
    "PL": (
        "pl_PL",
        10,
        ("sp. z o.o.", "S.A.", "sp.j.", "sp.k."),
        ("Budownictwo", "Transport", "Handel", "Piekarnia", "Elektro", "Meble", "Drukarnia", "Usługi"),
    ),
    "DE": (
        "de_DE",
        10,
        ("GmbH", "AG", "GmbH & Co. KG", "e.K."),
        ("Bau", "Logistik", "Handel", "Bäckerei", "Elektrotechnik", "Maschinenbau", "Immobilien", "Brauerei"),
    ),
    "FR": (
        "fr_FR",
        8,
        ("SA", "SAS", "SARL", "S.A.S.U."),
        ("Bâtiment", "Transports", "Boulangerie", "Immobilier", "Électricité", "Conseil", "Négoce"),
    ),
    "GB": (
        "en_GB",
        12,
        ("Ltd", "Limited", "PLC", "LLP"),
        (
            "Construction",
            "Logistics",
            "Trading",
            "Bakery",
            "Electrical",
            "Engineering",
            "Property",
            "Consulting",
        ),
    ),
    "NO": (
        "no_NO",
        5,
        ("AS", "ASA", "DA"),
        ("Bygg", "Transport", "Handel", "Bakeri", "Elektro", "Eiendom", "Rådgivning", "Fiskeri"),
    ),
    "IT": (
        "it_IT",
        5,
        ("S.r.l.", "S.p.A.", "S.n.c."),
        ("Costruzioni", "Trasporti", "Commercio", "Panificio", "Elettrica", "Immobiliare", "Consulenze"),
    ),
    "NL": (
        "nl_NL",
        5,
        ("B.V.", "N.V.", "V.O.F."),
        ("Bouw", "Transport", "Handel", "Bakkerij", "Elektro", "Vastgoed", "Advies", "Techniek"),
    ),
}
SYLLABLES = (
    "ka",
    "to",
    "ri",
    "ne",
    "mo",
    "la",
    "vi",
    "ter",
    "dor",
    "sa",
    "ex",
    "ion",
    "tec",
    "nor",
    "ava",
    "lux",
    "pro",
    "ven",
    "tra",
    "zen",
    "or",
    "mar",
    "bel",
    "com",
    "dex",
    "fin",
    "gal",
    "hel",
    "kor",
    "lin",
)
POOL = 1_500
# Faker's it_IT city() varies with the process's hash seed: a fixed list keeps the corpus reproducible.
IT_CITIES = (
    "Roma",
    "Milano",
    "Napoli",
    "Torino",
    "Palermo",
    "Genova",
    "Bologna",
    "Firenze",
    "Bari",
    "Catania",
    "Venezia",
    "Verona",
    "Messina",
    "Padova",
    "Trieste",
    "Brescia",
    "Parma",
    "Prato",
    "Modena",
    "Reggio Calabria",
    "Perugia",
    "Livorno",
    "Ravenna",
    "Cagliari",
    "Foggia",
    "Rimini",
    "Salerno",
    "Ferrara",
    "Sassari",
    "Latina",
    "Monza",
    "Siracusa",
    "Pescara",
    "Bergamo",
    "Vicenza",
    "Trento",
    "Bolzano",
)


@cache
def _pools(locale: str, seed: int) -> dict[str, list[str]]:
    fake = Faker(locale)
    fake.seed_instance(seed)
    cities = list(IT_CITIES) if locale == "it_IT" else [fake.city() for _ in range(POOL // 3)]
    return {
        "surname": [fake.last_name() for _ in range(POOL)],
        "city": cities,
        "street": [fake.street_name() for _ in range(POOL)],
        "postcode": [fake.postcode() for _ in range(POOL)],
    }


def _brand(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _name(rng: random.Random, country: str) -> str:
    locale, _, forms, trades = MARKETS[country]
    p = _pools(locale, 1)
    sur, city, trade, brand = rng.choice(p["surname"]), rng.choice(p["city"]), rng.choice(trades), _brand(rng)
    core = rng.choice(
        (
            f"{sur}",
            f"{sur} {rng.choice(p['surname'])}",
            f"{trade} {city}",
            f"{sur} {trade}",
            f"{brand}",
            f"{brand} {trade}",
            f"{city} {trade} {brand}",
            f"{brand} {sur}",
        )
    )
    sep = ", " if country in ("SK", "CZ") and rng.random() < 0.5 else " "
    return f"{core}{sep}{rng.choice(forms)}"


def national_id(country: str, v: int) -> str:
    """A valid, unique register number for the v-th company of a market."""
    if country in ("SK", "CZ"):
        body = f"{(v * 7 + (1_000_000 if country == 'SK' else 5_000_000)) % 9_999_999:07d}"
        check = (11 - sum((8 - i) * int(d) for i, d in enumerate(body)) % 11) % 10
        ico = body + str(check)
        cz_dic.validate(ico)
        return ico
    if country == "FR":
        body = f"{100_000_00 + v:08d}"
        return body + luhn.calc_check_digit(body)
    if country == "NO":
        from stdnum.no import orgnr

        for body in (f"{800_000_00 + v * 3 + k:08d}" for k in range(3)):
            valid = [body + d for d in "0123456789" if orgnr.is_valid(body + d)]
            if valid:
                return valid[0]
        raise ValueError(v)
    if country == "IT":
        body = f"{v:07d}" + "001"
        return body + luhn.calc_check_digit(body)
    if country == "PL":
        return f"{v + 1:010d}"
    if country == "DE":
        return f"HRB{100_000 + v}"
    return f"{10_000_000 + v:08d}"  # GB, NL


def lei(v: int) -> str:
    body = f"5299{v:012d}"
    return body + mod_97_10.calc_check_digits(body)


def companies(n: int, seed: int = 42) -> Iterator[CompanyRecord]:
    """The first `n` companies of the corpus `seed`."""
    rng = random.Random(seed)
    countries = [c for c, m in MARKETS.items() for _ in range(m[1])]
    counters = dict.fromkeys(MARKETS, 0)
    for i in range(n):
        country = rng.choice(countries)
        counters[country] += 1
        v = counters[country]
        p = _pools(MARKETS[country][0], 1)
        street = f"{rng.choice(p['street'])} {rng.randint(1, 120)}"
        postcode, city = rng.choice(p["postcode"]), rng.choice(p["city"])
        nid = national_id(country, v)
        yield CompanyRecord(
            country=country,
            national_id=nid,
            name=_name(rng, country),
            street=street,
            postal_code=postcode,
            city=city,
            address_text=f"{street}, {postcode} {city}",
            status="dissolved" if rng.random() < 0.1 else "active",
            vat_id=_vat(country, nid, v),
            lei=lei(i) if rng.random() < 0.05 else None,
        )


def _vat(country: str, nid: str, v: int) -> str | None:
    if country == "CZ":
        return "CZ" + nid
    if country == "SK":
        return f"SK{2_020_000_000 + (-2_020_000_000) % 11 + 11 * v}"
    return None
