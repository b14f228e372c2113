"""Write a large Estonian e-Business Register basic-data CSV (ettevotja_rekvisiidid__lihtandmed) for
the import benchmark.

    python bench/gen_ee_ariregister.py --count 1000000 --out /tmp/lihtandmed.csv
    python bench/gen_ee_ariregister.py --count 1000000 --out /tmp/ettevotja_rekvisiidid__yldandmed.json

An output whose name contains `yldandmed`, `kasusaajad` or `osanikud` is that JSON file for the same
registry codes (the basic-data file of the same count and seed lists them; `nimi` is null, so the
names of the basic-data file stay as they are): one to three EMTAK 2008 activities an entity (one
main, one in ten of the others ended), one to two beneficial owners, one to three shareholders (a
third of them legal persons: the entity before it).

Deterministic for a seed, streamed row by row, in the documented 17-column layout (`;`, dates
dd.mm.yyyy). Registry codes are unique 8-digit numbers starting with 1 (8 for the second million, 9
for the third) whose check digit python-stdnum `ee.registrikood` accepts; about a third carry a valid
KMKR VAT number; the status letters R/L/N/K and the forms OÜ/AS/MTÜ/SA are mixed.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator

from genlib import company_name, day, main
from stdnum.ee import kmkr, registrikood

HEADER = (
    "nimi;ariregistri_kood;ettevotja_oiguslik_vorm;ettevotja_oigusliku_vormi_alaliik;kmkr_nr;"
    "ettevotja_staatus;ettevotja_staatus_tekstina;ettevotja_esmakande_kpv;ettevotja_aadress;"
    "asukoht_ettevotja_aadressis;asukoha_ehak_kood;asukoha_ehak_tekstina;indeks_ettevotja_aadressis;"
    "ads_adr_id;ads_ads_oid;ads_normaliseeritud_taisaadress;teabesysteemi_link"
)
FORMS = [("Osaühing", "OÜ")] * 7 + [
    ("Aktsiaselts", "AS"),
    ("Mittetulundusühing", "MTÜ"),
    ("Sihtasutus", "SA"),
]
STATUSES = [("R", "Registrisse kantud")] * 8 + [
    ("L", "Likvideerimisel"),
    ("N", "Pankrotis"),
    ("K", "Kustutatud"),
]
PLACES = [
    ("Tartu mnt {n}", "Kesklinna linnaosa, Tallinn", "0298", "10128", "Harju maakond, Tallinn"),
    ("Rüütli tn {n}", "Tartu linn", "0795", "51007", "Tartu maakond, Tartu linn"),
    ("Puškini tn {n}", "Narva linn", "0511", "20308", "Ida-Viru maakond, Narva linn"),
]


# The first digit of a registry code is the kind of entity (1 companies, 8 non-profits, 9 foundations):
# six digits after it number a million entities, so the 2nd and 3rd million take 8 and 9 (before,
# index 1,000,000 made a 9-digit code that no check digit validates, and a 1M file never finished).
FIRST_DIGITS = "189"


def code(index: int) -> str | None:
    """The registry code of entity `index` (1 .. 2,999,999), None when no check digit fits its body."""
    if not 0 < index < len(FIRST_DIGITS) * 1_000_000:
        raise ValueError(f"no registry code for entity {index}: at most 2,999,999 entities")
    body = f"{FIRST_DIGITS[index // 1_000_000]}{index % 1_000_000:06d}"
    return next((body + d for d in "0123456789" if registrikood.is_valid(body + d)), None)


def vat(index: int) -> str:
    body = f"1{index // 1_000_000}{index % 1_000_000:06d}"  # "10…" for the first million, as before
    return next("EE" + body + d for d in "0123456789" if kmkr.is_valid(body + d))


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield "\ufeff" + HEADER + "\r\n"
    written, index = 0, 0
    while written < count:
        index += 1
        number = code(index)
        if number is None:
            continue
        form, short = rng.choice(FORMS)
        letter, letter_text = rng.choice(STATUSES)
        street, city, ehak, postcode, county = rng.choice(PLACES)
        street = street.format(n=rng.randint(1, 200))
        vat_id = vat(index) if rng.random() < 0.33 else ""
        yield (
            f"{company_name(rng, short)};{number};{form};;{vat_id};{letter};{letter_text};"
            f"{day(rng, 1991, 2024).strftime('%d.%m.%Y')};{street};{city};{ehak};{city};{postcode};"
            f"{2000000 + written};ME{written:08d};{county}, {street};"
            f"https://ariregister.rik.ee/est/company/{number}\r\n"
        )
        written += 1


EMTAK = ("62011", "62021", "47911", "41201", "56101", "69201", "49411", "10711", "01111", "70221")
FIRST_NAMES = ("Mari", "Jaan", "Kadri", "Peeter", "Liis", "Andres", "Tiina", "Matti")
SURNAMES = ("Tamm", "Saar", "Sepp", "Mägi", "Kask", "Kukk", "Virtanen", "Rebane")


def codes(count: int) -> Iterator[tuple[int, str]]:
    """(index, registry code) of the first `count` entities of the basic-data file."""
    written, index = 0, 0
    while written < count:
        index += 1
        number = code(index)
        if number is not None:
            written += 1
            yield index, number


def json_file(
    key: str, entries: Callable[[random.Random, str, str | None], object]
) -> Callable[[int, random.Random], Iterator[str]]:
    def generate_json(count: int, rng: random.Random) -> Iterator[str]:
        yield "["
        previous = None
        for position, (_, number) in enumerate(codes(count)):
            item: dict[str, object] = {"ariregistri_kood": int(number), "nimi": None}
            item[key] = entries(rng, number, previous)
            yield ("," if position else "") + "\n" + json.dumps(item, ensure_ascii=False)
            previous = number
        yield "\n]\n"

    return generate_json


def _dmy(rng: random.Random) -> str:
    return day(rng, 1995, 2024).strftime("%d.%m.%Y")


def activities(rng: random.Random, number: str, previous: str | None) -> dict[str, object]:
    chosen = rng.sample(EMTAK, rng.randint(1, 3))
    return {
        "staatus": "R",
        "aadressid": [{"ehak_nimetus": "Kesklinna linnaosa, Tallinn, Harju maakond", "lopp_kpv": None}],
        "teatatud_tegevusalad": [
            {
                "emtak_kood": emtak,
                "emtak_versioon_tekstina": "EMTAK 2008",
                "nace_kood": f"{emtak[:2]}.{emtak[2:4]}",
                "on_pohitegevusala": position == 0,
                "algus_kpv": _dmy(rng),
                "lopp_kpv": _dmy(rng) if position and rng.random() < 0.1 else None,
            }
            for position, emtak in enumerate(chosen)
        ],
    }


def owners(rng: random.Random, number: str, previous: str | None) -> list[dict[str, object]]:
    return [
        {
            "eesnimi": rng.choice(FIRST_NAMES),
            "nimi": rng.choice(SURNAMES),
            "synniaeg": day(rng, 1940, 2000).strftime("%d.%m.%Y"),
            "aadress_riik": "EST",
            "kontrolli_teostamise_viis": "O",
            "kontrolli_teostamise_viis_tekstina": "Otsene osalus",
            "algus_kpv": _dmy(rng),
            "lopp_kpv": None,
        }
        for _ in range(rng.randint(1, 2))
    ]


def shareholders(rng: random.Random, number: str, previous: str | None) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for _ in range(rng.randint(1, 3)):
        legal = previous is not None and rng.random() < 1 / 3
        out.append(
            {
                "isiku_tyyp": "J" if legal else "F",
                "eesnimi": None if legal else rng.choice(FIRST_NAMES),
                "nimi_arinimi": f"Ettevõte {previous} OÜ" if legal else rng.choice(SURNAMES),
                "isikukood_registrikood": previous if legal else None,
                "osaluse_protsent": f"{rng.randint(1, 100)}.00",
                "algus_kpv": _dmy(rng),
                "lopp_kpv": None,
            }
        )
    return out


JSON_FILES = {
    "yldandmed": json_file("yldandmed", activities),
    "kasusaajad": json_file("kasusaajad", owners),
    "osanikud": json_file("osanikud", shareholders),
}


if __name__ == "__main__":
    kind = next((k for k in JSON_FILES if any(k in a for a in sys.argv[1:])), None)
    main(__doc__, JSON_FILES[kind] if kind else generate, default_seed=24)
