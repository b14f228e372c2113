"""Write a large Estonian e-Business Register basic-data CSV (ettevotja_rekvisiidid__lihtandmed) for
the import benchmark.

    python bench/gen_ee_ariregister.py --count 1000000 --out /tmp/lihtandmed.csv

Deterministic for a seed, streamed row by row, in the documented 17-column layout (`;`, dates
dd.mm.yyyy). Registry codes are unique 8-digit numbers starting with 1 whose check digit
python-stdnum `ee.registrikood` accepts; about a third carry a valid KMKR VAT number; the status
letters R/L/N/K and the forms OÜ/AS/MTÜ/SA are mixed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

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


def code(index: int) -> str | None:
    body = f"1{index:06d}"
    return next((body + d for d in "0123456789" if registrikood.is_valid(body + d)), None)


def vat(index: int) -> str:
    body = f"10{index:06d}"
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


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
