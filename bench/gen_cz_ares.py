"""Write a large ARES v3 JSON-lines file (one `ekonomicke-subjekty` record a line) for the import benchmark.

    python bench/gen_cz_ares.py --count 1000000 --out /tmp/ares-1m.jsonl.gz

Deterministic for a seed, streamed record by record. Records have the shape of a real
`GET /ekonomicke-subjekty/{ico}` answer (sidlo with RÚIAN codes, seznamRegistraci, czNace); IČOs are
unique and valid; about 2 % are in the insolvency register, 3 % in liquidation, 8 % dissolved.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from genlib import SURNAMES, company_name, day, ico, main

# (kodKraje, nazevKraje, kodOkresu, kodObce, nazevObce, psc)
PLACES = [
    (19, "Hlavní město Praha", None, 554782, "Praha", 15000),
    (116, "Jihomoravský kraj", 3702, 582786, "Brno", 60200),
    (132, "Moravskoslezský kraj", 3807, 554821, "Ostrava", 70200),
    (43, "Plzeňský kraj", 3405, 554791, "Plzeň", 30100),
    (78, "Liberecký kraj", 3505, 563889, "Liberec", 46001),
    (124, "Olomoucký kraj", 3805, 500496, "Olomouc", 77900),
]
STREETS = ["Radlická", "Náměstí Míru", "Husova", "Masarykova", "Nádražní", "Školní", "Palackého", "Žižkova"]
FORMS = [
    ("112", "s.r.o."),
    ("112", "spol. s r.o."),
    ("121", "a.s."),
    ("101", ""),
    ("205", "družstvo"),
    ("706", "z.s."),
]
NACE = [
    "461",
    "46900",
    "62090",
    "63120",
    "6820",
    "69200",
    "73120",
    "41201",
    "43320",
    "56101",
    "47110",
    "01110",
]
SOURCES = ("Vr", "Res", "Rzp", "Nrpzs", "Rpsh", "Rcns", "Szr", "Dph", "Sd", "Ir", "Ceu", "Rs", "Red")


def record(index: int, rng: random.Random) -> dict[str, object]:
    number = ico(index)
    form, suffix = rng.choice(FORMS)
    name = company_name(rng, suffix) if form != "101" else f"{rng.choice(SURNAMES)} {rng.choice(SURNAMES)}"
    roll = rng.random()
    insolvent, liquidation, dissolved = roll < 0.02, 0.02 <= roll < 0.05, 0.05 <= roll < 0.13
    if liquidation:
        name += " v likvidaci"
    kraj, kraj_name, okres, obec, city, psc = rng.choice(PLACES)
    street, house, orient = rng.choice(STREETS), rng.randint(1, 3999), rng.randint(1, 99)
    sidlo = {
        "kodStatu": "CZ",
        "nazevStatu": "Česká republika",
        "kodKraje": kraj,
        "nazevKraje": kraj_name,
        "kodObce": obec,
        "nazevObce": city,
        "nazevUlice": street,
        "cisloDomovni": house,
        "cisloOrientacni": orient,
        "psc": psc,
        "textovaAdresa": f"{street} {house}/{orient}, {psc} {city}",
    }
    if okres is not None:
        sidlo["kodOkresu"] = okres
    registrations = {f"stavZdroje{s}": "NEEXISTUJICI" for s in SOURCES}
    registrations.update(
        stavZdrojeRes="AKTIVNI",
        stavZdrojeVr="AKTIVNI" if form != "101" else "NEEXISTUJICI",
        stavZdrojeIr="AKTIVNI" if insolvent else "NEEXISTUJICI",
        stavZdrojeDph="AKTIVNI" if rng.random() < 0.4 else "NEEXISTUJICI",
    )
    out: dict[str, object] = {
        "ico": number,
        "obchodniJmeno": name,
        "sidlo": sidlo,
        "pravniForma": form,
        "financniUrad": f"{rng.randint(1, 460):03d}",
        "datumVzniku": day(rng).isoformat(),
        "datumAktualizace": day(rng, 2024, 2024).isoformat(),
        "dic": f"CZ{number}",
        "icoId": number,
        "adresaDorucovaci": {},
        "seznamRegistraci": registrations,
        "primarniZdroj": "vr" if form != "101" else "res",
        "czNace": sorted(rng.sample(NACE, rng.randint(1, 5))),
    }
    if dissolved:
        out["datumZaniku"] = day(rng, 2015, 2024).isoformat()
    return out


def generate(count: int, rng: random.Random) -> Iterator[str]:
    for index in range(count):
        yield json.dumps(record(index, rng), ensure_ascii=False) + "\n"


if __name__ == "__main__":
    main(__doc__, generate, default_seed=26168685)
