"""Write a large PRS list (the layout regintel's si_ajpes importer defines) for the import benchmark.

    python bench/gen_si_ajpes.py --count 1000000 --out /tmp/prs_2026-11-27.csv

Deterministic for a seed, streamed row by row. Matične številke are unique six-digit bodies with the
python-stdnum `si.maticna` check digit and unit 000 (bodies without a check digit are passed over);
tax numbers carry the `si.ddv` check digit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from genlib import company_name, day, main
from stdnum.si import ddv, maticna

HEADER = (
    "MATICNA_STEVILKA;DAVCNA_STEVILKA;NAZIV;PRAVNOORGANIZACIJSKA_OBLIKA;ULICA;HISNA_STEVILKA;POSTNA_STEVILKA;"
    "POSTA;OBCINA;SKD_DEJAVNOST;DATUM_VPISA;DATUM_IZBRISA;STATUS"
)
FORMS = ["d.o.o."] * 6 + ["s.p.", "s.p.", "d.d.", "k.d."]
PLACES = [
    ("1000", "Ljubljana", "061"),
    ("2000", "Maribor", "070"),
    ("3000", "Celje", "011"),
    ("4000", "Kranj", "052"),
]
STATUSES = ["aktiven"] * 8 + ["likvidacija", "stečaj"]


def tax_number(index: int) -> str | None:
    body = f"{1_000_000 + index:07d}"
    return next((body + d for d in "0123456789" if ddv.is_valid(body + d)), None)


def generate(count: int, rng: random.Random) -> Iterator[str]:
    yield HEADER + "\n"
    written, index = 0, 100_000
    while written < count:
        index += 1
        check = maticna.calc_check_digit(str(index))
        tax = tax_number(index)
        if check == "invalid" or tax is None:
            continue
        form = rng.choice(FORMS)
        post, city, municipality = rng.choice(PLACES)
        yield (
            f"{index}{check}000;{tax};{company_name(rng, form).upper()};{form};Slovenska cesta;"
            f"{rng.randint(1, 200)};{post};{city};{municipality};62.010;{day(rng, 1991, 2024):%d.%m.%Y};;"
            f"{rng.choice(STATUSES)}\n"
        )
        written += 1


if __name__ == "__main__":
    main(__doc__, generate, default_seed=24)
